import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one path of a hand-written service answers. */
export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** A hand-written service on loopback: each test says what each path answers; `seen` lists what it was asked. */
export async function startService(routes: Record<string, Route>) {
  const seen: string[] = [];
  /** The Authorization header of each request, in the same order. */
  const authorization: (string | null)[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    authorization.push(req.headers.authorization ?? null);
    const route = routes[`${req.method} ${(req.url ?? '').split('?')[0]}`];
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found."}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}/api/v1`,
    seen,
    authorization,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A route answering JSON. */
export const json =
  (body: unknown, status = 200): Route =>
  (_req, res) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** The service's answer to creating a conversation. */
export const CONVERSATION = { data: { id: 'abcdefabcdef', name: 'x', bot_id: 'askboxDemo01', created_at: 1 } };

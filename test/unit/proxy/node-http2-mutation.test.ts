import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, createServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { toNodeListener } from '../../../src/proxy/adapters/node/node';

/**
 * The Node adapter under `node:http2`'s compatibility API (issue 18): an HTTP/2 request's pseudo-headers
 * (`:method`, `:path`, …) are no headers of the fetch Request the handler gets.
 */
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

it('hands the handler an HTTP/2 request without its pseudo-headers', async () => {
  const seen: { url: string; headers: [string, string][] }[] = [];
  const listener = toNodeListener(async (request) => {
    seen.push({ url: request.url, headers: [...request.headers] });
    return new Response('ok');
  });
  const server: Http2Server = createServer();
  // The compatibility API's request and response stand in for node:http's, as Express would take them.
  server.on(
    'request',
    (req, res) => void listener(req as unknown as IncomingMessage, res as unknown as ServerResponse),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  const authority = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const session = connect(`http://${authority}`);
  closers.push(() => session.close());

  const stream = session.request({ ':path': '/x?y=1', host: authority, 'x-one': '1' });
  let body = '';
  stream.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
  const status = await new Promise<unknown>((resolve) =>
    stream.once('response', (headers) => resolve(headers[':status'])),
  );
  await new Promise((resolve) => stream.once('end', resolve));

  expect([status, body]).toEqual([200, 'ok']);
  expect(seen).toEqual([
    {
      url: `http://${authority}/x?y=1`,
      headers: [
        ['host', authority],
        ['x-one', '1'],
      ],
    },
  ]);
});

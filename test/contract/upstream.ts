import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createSimulator, type Simulator } from '../../demo/simulator/index';
import { loadKnowledgeBase } from '../../demo/simulator/knowledge';
import type { Scenario } from '../../demo/simulator/scenario';
import { toNodeListener } from '../../src/proxy/adapters/node/node';

/** What the upstream saw of one request, and on which of its hosts. */
export interface UpstreamRecord {
  /** `trap`: a listener on yet another origin, which no configuration lists. */
  host: 'api' | 'stream' | 'trap';
  method: string;
  path: string;
  authorization: string | null;
  body: string;
}

/**
 * The Cody API simulator on real loopback ports, recording every request it gets: the upstream of every proxy
 * runtime under the contract suite (the Node proxy, workerd and PHP all call it over HTTP). Like the real service,
 * it serves reply streams from a host of its own, which must never see the API key.
 *
 * A hostile turn, by the words of the message sent for a stream: `hop N` hands out a stream URL on the API's own
 * origin that redirects N times (the last hop to the real stream host); `hop trap` redirects once, to the trap;
 * `trap` hands out the trap's URL directly. The trap is a listener on an origin nobody configured.
 */
export async function startUpstream(apiKey: string, scenario: Scenario) {
  const records: UpstreamRecord[] = [];
  let sim: Simulator | undefined;
  let apiOrigin = '';
  let trapOrigin = '';
  const serve = async (host: UpstreamRecord['host']) => {
    const listener = toNodeListener(async (request) => {
      const body = request.method === 'POST' ? await request.clone().text() : '';
      const url = new URL(request.url);
      records.push({
        host,
        method: request.method,
        path: url.pathname + url.search,
        authorization: request.headers.get('authorization'),
        body,
      });
      if (host === 'trap') return new Response('data: [START]\n\ndata: [END]\n\n');
      if (host === 'api' && url.pathname === '/hop') return hop(url);
      const answer = sim ? await sim.handle(request) : new Response(null, { status: 503 });
      const turn = /^(hop \d+|hop trap|trap)$/.exec(hostileTurn(body))?.[1];
      return turn && url.pathname.endsWith('/messages/stream') ? rewrite(answer, turn) : answer;
    });
    const server = createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  /** A redirect: `n` more hops on the API's origin, then to `to`. */
  const hop = (url: URL) => {
    const left = Number(url.searchParams.get('n') ?? 0);
    const to = url.searchParams.get('to') ?? '';
    const location = left > 0 ? `${apiOrigin}/hop?n=${left - 1}&to=${encodeURIComponent(to)}` : to;
    return new Response(null, { status: 302, headers: { location } });
  };
  /** The simulator's stream answer, its URL replaced as the turn says. */
  const rewrite = async (answer: Response, turn: string) => {
    const real = ((await answer.json()) as { data: { stream_url: string } }).data.stream_url;
    const trapUrl = `${trapOrigin}/steal`;
    const streamUrl =
      turn === 'trap'
        ? trapUrl
        : turn === 'hop trap'
          ? `${apiOrigin}/hop?n=0&to=${encodeURIComponent(trapUrl)}`
          : `${apiOrigin}/hop?n=${Number(turn.slice(4)) - 1}&to=${encodeURIComponent(real)}`;
    return Response.json({ data: { stream_url: streamUrl } });
  };
  const api = await serve('api');
  const streams = await serve('stream');
  const trap = await serve('trap');
  apiOrigin = api.origin;
  trapOrigin = trap.origin;
  sim = createSimulator({
    apiKey,
    streamOrigin: streams.origin,
    knowledge: loadKnowledgeBase(fileURLToPath(new URL('../../demo/kb', import.meta.url))),
    scenario,
  });
  return {
    url: `${api.origin}/api/v1`,
    streamOrigin: streams.origin,
    trapOrigin: trap.origin,
    records,
    documentIds: sim.documents.map((d) => d.id),
    close: () =>
      Promise.all([closeServer(api.server), closeServer(streams.server), closeServer(trap.server)]).then(
        () => undefined,
      ),
  };
}

/** The content of a POST body, or '' (the hostile turns are chosen by it). */
function hostileTurn(body: string): string {
  try {
    const content = (JSON.parse(body) as { content?: unknown }).content;
    return typeof content === 'string' ? content : '';
  } catch {
    return '';
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createSimulator, type Simulator } from '../../demo/simulator/index';
import { loadKnowledgeBase } from '../../demo/simulator/knowledge';
import type { Scenario } from '../../demo/simulator/scenario';
import { toNodeListener } from '../../src/proxy/node';

/** What the upstream saw of one request, and on which of its hosts. */
export interface UpstreamRecord {
  host: 'api' | 'stream';
  method: string;
  path: string;
  authorization: string | null;
  body: string;
}

/**
 * The Cody API simulator on real loopback ports, recording every request it gets: the upstream of every proxy
 * runtime under the contract suite (the Node proxy, workerd and PHP all call it over HTTP). Like the real service,
 * it serves reply streams from a host of its own, which must never see the API key.
 */
export async function startUpstream(apiKey: string, scenario: Scenario) {
  const records: UpstreamRecord[] = [];
  let sim: Simulator | undefined;
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
      return sim ? sim.handle(request) : new Response(null, { status: 503 });
    });
    const server = createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  const api = await serve('api');
  const streams = await serve('stream');
  sim = createSimulator({
    apiKey,
    streamOrigin: streams.origin,
    knowledge: loadKnowledgeBase(fileURLToPath(new URL('../../demo/kb', import.meta.url))),
    scenario,
  });
  return {
    url: `${api.origin}/api/v1`,
    streamOrigin: streams.origin,
    records,
    documentIds: sim.documents.map((d) => d.id),
    close: () => Promise.all([closeServer(api.server), closeServer(streams.server)]).then(() => undefined),
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

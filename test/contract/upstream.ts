import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createSimulator } from '../../demo/simulator/index';
import { loadKnowledgeBase } from '../../demo/simulator/knowledge';
import type { Scenario } from '../../demo/simulator/scenario';
import { toNodeListener } from '../../src/proxy/node';

/** What the upstream saw of one request. */
export interface UpstreamRecord {
  method: string;
  path: string;
  authorization: string | null;
  body: string;
}

/**
 * The Cody API simulator on a real loopback port, recording every request it gets: the upstream of every proxy
 * runtime under the contract suite (the Node proxy, workerd and PHP all call it over HTTP).
 */
export async function startUpstream(apiKey: string, scenario: Scenario) {
  const sim = createSimulator({ apiKey, knowledge: loadKnowledgeBase(fileURLToPath(new URL('../../demo/kb', import.meta.url))), scenario });
  const records: UpstreamRecord[] = [];
  const listener = toNodeListener(async (request) => {
    const body = request.method === 'POST' ? await request.clone().text() : '';
    const url = new URL(request.url);
    records.push({ method: request.method, path: url.pathname + url.search, authorization: request.headers.get('authorization'), body });
    return sim.handle(request);
  });
  const server = createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const documentIds = sim.documents.map((d) => d.id);
  return {
    url: `${origin}/api/v1`,
    records,
    documentIds,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

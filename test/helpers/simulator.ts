import { fileURLToPath } from 'node:url';
import { createSimulator, DEMO_BOT_ID } from '../../demo/simulator/index';
import { loadKnowledgeBase } from '../../demo/simulator/knowledge';
import type { Scenario } from '../../demo/simulator/scenario';

/** Loosely typed JSON, for asserting on response bodies. */
// oxlint-disable-next-line typescript/no-explicit-any -- test assertions walk arbitrary JSON
type Json = Record<string, any>;

export const SIM_KEY = 'test-key';
export const SIM_ORIGIN = 'http://sim.test';
export const API = `${SIM_ORIGIN}/api/v1`;

/** A simulator over the demo knowledge base, plus a small client for its API. */
export function setupSimulator(scenario: Scenario = {}) {
  const sim = createSimulator({
    apiKey: SIM_KEY,
    knowledge: loadKnowledgeBase(fileURLToPath(new URL('../../demo/kb', import.meta.url))),
    scenario,
  });
  const api = async (method: string, path: string, body?: unknown, key: string | null = SIM_KEY) => {
    const response = await sim.handle(
      new Request(`${API}${path}`, {
        method,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        redirect: 'manual',
      }),
    );
    const text = await (response.headers.get('content-type')?.includes('json') ? response.text() : Promise.resolve(''));
    return {
      status: response.status,
      headers: response.headers,
      body: text ? (JSON.parse(text) as Json) : undefined,
      response,
    };
  };
  const conversation = async () =>
    (await api('POST', '/conversations', { name: 'Test', bot_id: DEMO_BOT_ID })).body?.data.id as string;
  /** Reads a stream URL to the end and returns its raw SSE text. */
  const readStream = async (url: string) => (await sim.handle(new Request(url))).text();
  return { sim, api, conversation, readStream };
}

/** The concatenated chunks of an SSE body in the service's format. */
export function chunksOf(sse: string): string {
  return sse
    .split('\n\n')
    .map((event) => event.replace(/^data: /, ''))
    .filter((data) => data.startsWith('{'))
    .map((data) => (JSON.parse(data) as { chunk: string }).chunk)
    .join('');
}

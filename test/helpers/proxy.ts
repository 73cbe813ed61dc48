import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { createProxy, type ProxyOptions } from '../../src/proxy/handler';
import type { ProxyLogEntry } from '../../src/proxy/options';
import { API, SIM_KEY, setupSimulator } from './simulator';

/** The page the test requests come from. */
export const PAGE = 'http://shop.test';
export const SECRET = 'unit-test-secret-0123456789';
/** The page's host, which the proxies under test are told to serve (it is not a loopback host). */
export const PAGE_HOST = new URL(PAGE).host;

/** A proxy in front of the in-process simulator, with a clock the test moves, recording upstream calls and logs. */
export function setup(options: Partial<ProxyOptions> = {}, scenario = {}) {
  const { sim } = setupSimulator({ defaults: { delayMs: 0 }, ...scenario });
  const clock = { now: Date.parse('2026-11-22T12:00:00Z') };
  const upstreamCalls: Request[] = [];
  const logs: ProxyLogEntry[] = [];
  const proxy = createProxy({
    apiKey: SIM_KEY,
    botIds: [DEMO_BOT_ID],
    upstream: API,
    secret: SECRET,
    // The page and the proxy share a host that is not loopback: it has to be listed.
    allowedHosts: [PAGE_HOST],
    now: () => clock.now,
    log: (entry) => logs.push(entry),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      upstreamCalls.push(request.clone());
      return sim.handle(request);
    },
    ...options,
  });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    proxy(
      new Request(`${PAGE}/askbox${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
      { clientIp: '192.0.2.1' },
    );
  const start = async (grant?: string) => {
    const response = await call(
      'POST',
      '/conversations',
      { name: 'Visitor' },
      grant ? { 'x-askbox-grant': grant } : {},
    );
    const body = (await response.json()) as { data: { id: string }; meta: { grant: string } };
    return { id: body.data.id, grant: body.meta.grant };
  };
  const send = (conversation: { id: string; grant: string }, content = 'hello') =>
    call('POST', '/messages', { content, conversation_id: conversation.id }, { 'x-askbox-grant': conversation.grant });
  return { sim, proxy, call, start, send, clock, upstreamCalls, logs };
}

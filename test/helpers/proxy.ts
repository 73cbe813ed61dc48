import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { createProxy, type ProxyOptions } from '../../src/proxy/core/proxy';
import type { LimitStore } from '../../src/proxy/core/limits';
import { resolveOptions, type ProxyLogEntry } from '../../src/proxy/core/options';
import { createPolicy } from '../../src/proxy/core/policy';
import { API, SIM_KEY, SIM_ORIGIN, setupSimulator } from './simulator';

/** The page the test requests come from. */
export const PAGE = 'http://shop.test';
export const SECRET = 'unit-test-secret-0123456789';
/** The page's host, which the proxies under test are told to serve (it is not a loopback host). */
export const PAGE_HOST = new URL(PAGE).host;

/** What every proxy under test is given: the simulator's key and bot, the secret and the page's host. */
export const PROXY_BASE = {
  apiKey: SIM_KEY,
  botIds: [DEMO_BOT_ID],
  upstream: API,
  secret: SECRET,
  allowedHosts: [PAGE_HOST],
} satisfies Partial<ProxyOptions>;

/**
 * `proxy` asked from the page, under `/askbox`: a JSON body (a string is sent as it is), `info` as the adapter
 * would give it.
 */
export function pageCall(proxy: ReturnType<typeof createProxy>, info?: Parameters<ReturnType<typeof createProxy>>[1]) {
  return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    proxy(
      new Request(`${PAGE}/askbox${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
      info,
    );
}

/** A proxy in front of the in-process simulator, with a clock the test moves, recording upstream calls and logs. */
export function setup(options: Partial<ProxyOptions> = {}, scenario = {}) {
  const { sim } = setupSimulator({ defaults: { delayMs: 0 }, ...scenario });
  const clock = { now: Date.parse('2026-11-22T12:00:00Z') };
  const upstreamCalls: Request[] = [];
  const logs: ProxyLogEntry[] = [];
  const proxy = createProxy({
    // The page and the proxy share a host that is not loopback: it is listed.
    ...PROXY_BASE,
    now: () => clock.now,
    log: (entry) => logs.push(entry),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      upstreamCalls.push(request.clone());
      return sim.handle(request);
    },
    ...options,
  });
  const call = pageCall(proxy, { clientIp: '192.0.2.1' });
  const start = async (grant?: string) => {
    const response = await call(
      'POST',
      '/conversations',
      { name: 'Visitor', bot_id: DEMO_BOT_ID },
      grant ? { 'x-askbox-grant': grant } : {},
    );
    const body = (await response.json()) as { data: { id: string }; meta: { grant: string } };
    return { id: body.data.id, grant: body.meta.grant };
  };
  const send = (conversation: { id: string; grant: string }, content = 'hello') =>
    call('POST', '/messages', { content, conversation_id: conversation.id }, { 'x-askbox-grant': conversation.grant });
  return { sim, proxy, call, start, send, clock, upstreamCalls, logs };
}

/** What a simulated day of sending counted: messages let through per window of 24 hours. */
export interface SimulatedDay {
  /** One visitor, one message every 10 minutes for 48 hours: passes in the first and in the second 24 hours. */
  visitor: [number, number];
  /** One IP dropping its grant each time (a new visitor per message), as often, as long. */
  ip: [number, number];
}

/**
 * Two simulated days of sending through the proxy's own limit checks (`createPolicy`) over `store`, with a fake
 * clock: daily caps of 20 per visitor and 50 per IP, burst limits out of the way.
 */
export async function simulateDays(store: LimitStore): Promise<SimulatedDay> {
  let now = Date.parse('2026-11-22T00:00:00Z');
  const limits = {
    visitorMessages: { burst: 1000, perMinute: 1000 },
    ipMessages: { burst: 1000, perMinute: 1000 },
    visitorMessagesPerDay: 20,
    ipMessagesPerDay: 50,
  };
  const policy = createPolicy(
    resolveOptions({ apiKey: 'k', botIds: [DEMO_BOT_ID], secret: SECRET, limits, store, now: () => now }),
    undefined,
  );
  const run = async (ip: string, visitor: () => string): Promise<[number, number]> => {
    const passed: [number, number] = [0, 0];
    const start = now;
    for (let minute = 0; minute < 2 * 24 * 60; minute += 10) {
      now = start + minute * 60_000;
      if ((await policy.limit('message', ip, visitor())) === null) passed[minute < 24 * 60 ? 0 : 1]++;
    }
    return passed;
  };
  const visitorDays = await run('192.0.2.50', () => 'oneVisitor');
  let n = 0;
  const ipDays = await run('192.0.2.51', () => `visitor${++n}`);
  return { visitor: visitorDays, ip: ipDays };
}

/** A proxy over a scripted upstream: `answer` decides each upstream response; every upstream request is kept. */
export function scripted(
  answer: (request: Request) => Response | Promise<Response>,
  options: Partial<ProxyOptions> = {},
) {
  const { start, sim } = setup();
  const requests: Request[] = [];
  const proxy = createProxy({
    apiKey: SIM_KEY,
    botIds: [DEMO_BOT_ID],
    upstream: API,
    secret: SECRET,
    allowedHosts: [PAGE_HOST],
    streamOrigins: ['https://stream.up.test', `${SIM_ORIGIN}:8443`],
    fetch: async (input, init) => {
      const request = new Request(input, init);
      // Conversations come from the simulator, so grants and ids are real.
      if (request.url === `${API}/conversations`) return sim.handle(request);
      requests.push(request.clone());
      return answer(request);
    },
    ...options,
  });
  const call = (method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) =>
    proxy(
      new Request(`${PAGE}/askbox${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }),
    );
  return { proxy, call, start, requests };
}

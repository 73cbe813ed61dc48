import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../../demo/simulator/index';
import { createProxy, type ProxyOptions } from '../../../src/proxy/core/proxy';
import { createMemoryStore } from '../../../src/proxy/stores/memory';
import type { ProxyLogEntry } from '../../../src/proxy/core/options';
import { PAGE, PROXY_BASE, pageCall, setup } from '../../helpers/proxy';
import { API, setupSimulator } from '../../helpers/simulator';

/**
 * src/proxy/handler.ts where proxy.test.ts and proxy-routes.test.ts leave it open (the Stryker survivors): each
 * request's log line in full, and how a failure that is neither a timeout nor the store's becomes an answer.
 */

/** A proxy whose service is `fetch`, logging into the list returned. */
function failing(fetch: ProxyOptions['fetch']) {
  const logs: ProxyLogEntry[] = [];
  const proxy = createProxy({
    ...PROXY_BASE,
    log: (entry) => logs.push(entry),
    fetch,
  });
  const create = (signal?: AbortSignal) =>
    proxy(
      new Request(`${PAGE}/askbox/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
        ...(signal && { signal }),
      }),
      { clientIp: '192.0.2.9' },
    );
  return { create, logs };
}

describe('log lines', () => {
  it('log each request with its level, method, path, status, time and client IP; a 429 as a warning', async () => {
    const { call, logs } = setup({ limits: { ipConversations: { burst: 1, perMinute: 1 } } });
    const before = Date.now();
    for (let i = 0; i < 2; i++) await call('POST', '/conversations', { name: 'x', bot_id: DEMO_BOT_ID });
    const lines = logs.filter((entry) => entry.event !== 'config');
    const line = { method: 'POST', path: '/askbox/conversations', ms: expect.any(Number), ip: '192.0.2.1' };
    expect(lines).toEqual([
      { level: 'info', event: 'request', status: 200, ...line },
      { level: 'warn', event: 'limit', status: 429, ...line },
    ]);
    for (const entry of lines) expect(entry.ms).toBeGreaterThanOrEqual(0);
    for (const entry of lines) expect(entry.ms).toBeLessThanOrEqual(Date.now() - before);
  });
});

describe('failures', () => {
  it('answer a visitor who left with a 499, and log why with the request it broke', async () => {
    const visitor = new AbortController();
    const { create, logs } = failing(
      (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new Error('the visitor left')));
          visitor.abort();
        }),
    );
    const response = await create(visitor.signal);
    expect(response.status).toBe(499);
    expect(await response.json()).toEqual({ message: 'The client went away.' });
    expect(logs.filter((entry) => entry.level === 'error')).toEqual([
      {
        level: 'error',
        event: 'upstream',
        method: 'POST',
        path: '/askbox/conversations',
        message: 'Error: the visitor left',
      },
    ]);
  });

  it('answer a failure that is not an Error with a 502, logging it as text', async () => {
    const { create, logs } = failing(async () => {
      throw 'socket hang up';
    });
    const response = await create();
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ message: 'The chat service could not be reached.' });
    expect(logs.find((entry) => entry.level === 'error')?.message).toBe('socket hang up');
    expect(logs.find((entry) => entry.event === 'request')).toMatchObject({ status: 502, ip: '192.0.2.9' });
  });
});

/** A proxy over a scripted service (conversations come from the simulator, so grants are real), with one conversation. */
async function scripted(
  answer: (request: Request) => Response | Promise<Response>,
  options: Partial<ProxyOptions> = {},
) {
  const { sim } = setupSimulator({ defaults: { delayMs: 0 } });
  const requests: Request[] = [];
  const logs: ProxyLogEntry[] = [];
  const proxy = createProxy({
    ...PROXY_BASE,
    streamOrigins: ['https://stream.up.test'],
    log: (entry) => logs.push(entry),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      requests.push(request.clone());
      if (request.url === `${API}/conversations`) return sim.handle(request);
      return answer(request);
    },
    ...options,
  });
  const call = pageCall(proxy);
  const created = (await (await call('POST', '/conversations', { name: 'x', bot_id: DEMO_BOT_ID })).json()) as {
    data: { id: string };
    meta: { grant: string };
  };
  const grant = { 'x-askbox-grant': created.meta.grant };
  const send = (path: string, body: Record<string, unknown> = {}) =>
    call('POST', path, { content: 'x', conversation_id: created.data.id, ...body }, grant);
  const open = (started: Response) =>
    call('GET', (started.headers.get('location') ?? '').replace('/askbox', ''), undefined, grant);
  return { call, send, open, requests, logs, grant };
}

/** The focus documents a proxy with `documentIds` forwards when a visitor chooses `chosen`. */
async function sent(documentIds: string[], chosen: unknown) {
  let forwarded: { document_ids?: string[] } = {};
  const proxy = createProxy({
    ...PROXY_BASE,
    documentIds,
    fetch: async (_input, init) => {
      forwarded = JSON.parse(String(init?.body)) as typeof forwarded;
      return Response.json({ data: { id: 'conversation1' } });
    },
  });
  const body = JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID, document_ids: chosen });
  const headers = { 'content-type': 'application/json' };
  await proxy(new Request(`${PAGE}/askbox/conversations`, { method: 'POST', headers, body }));
  return forwarded.document_ids;
}

describe('sends', () => {
  it('refuse a bot this proxy does not serve itself, even when the service would take it', async () => {
    let calls = 0;
    const proxy = createProxy({
      ...PROXY_BASE,
      fetch: async () => (calls++, Response.json({ data: { id: 'conversation1' } })),
    });
    const body = JSON.stringify({ name: 'x', bot_id: 'otherBot0001' });
    const headers = { 'content-type': 'application/json' };
    const refused = await proxy(new Request(`${PAGE}/askbox/conversations`, { method: 'POST', headers, body }));
    expect([refused.status, calls]).toEqual([422, 0]);
  });

  it('answer a message body that is not JSON as such, and ask the service for a stream URL, not a redirect', async () => {
    const { call, send, requests } = await scripted(() => Response.json({ data: {} }));
    expect((await call('POST', '/messages', undefined, {})).status).toBe(400);
    const missing = await send('/messages/stream');
    expect([missing.status, await missing.json()]).toEqual([
      502,
      { message: 'The chat service did not return a stream.' },
    ]);
    expect(await requests.at(-1)?.json()).toMatchObject({ redirect: false });
  });

  it('route only the exact paths: a stream or message id under another resource is a 404', async () => {
    const { call } = await scripted(() => Response.json({}));
    for (const [method, path] of [
      ['POST', '/feedback/stream'],
      ['POST', '/messages/abc'],
      ['POST', '/nothing'],
    ] as const)
      expect((await call(method, path, {})).status, `${method} ${path}`).toBe(404);
    expect((await call('GET', '/stream/stream')).status).not.toBe(405);
  });

  it('check redirect only on a send for a stream: a synchronous send takes none', async () => {
    const { send } = await scripted(() => Response.json({ data: { content: 'hi' } }));
    expect((await send('/messages', { redirect: 'no' })).status).toBe(200);
    expect((await send('/messages/stream', { redirect: 'no' })).status).toBe(422);
  });

  it("take a stream URL from the service's 3xx Location, and pass a 400 on as the service's answer", async () => {
    for (const status of [300, 302, 399]) {
      const { send } = await scripted(
        () => new Response(null, { status, headers: { location: 'https://stream.up.test/tok' } }),
      );
      const started = await send('/messages/stream');
      expect(started.status, String(status)).toBe(302);
      expect(started.headers.get('location')).toMatch(/^\/askbox\/stream\//);
    }
    const { send } = await scripted(() => Response.json({ message: 'No.' }, { status: 400 }));
    const refused = await send('/messages/stream');
    expect([refused.status, await refused.json()]).toEqual([400, { message: 'No.' }]);
  });

  it('forward the configured focus documents for an empty choice, and no field when none are configured', async () => {
    expect(await sent(['doc1', 'doc2'], [])).toEqual(['doc1', 'doc2']);
    expect(await sent(['doc1', 'doc2'], 'doc2')).toEqual(['doc1', 'doc2']);
    expect(await sent(['doc1', 'doc2'], ['doc2'])).toEqual(['doc2']);
    expect(await sent(['doc1', 'doc2'], ['doc2', 'foreign'])).toEqual(['doc1', 'doc2']);
    expect(await sent([], ['doc1'])).toBeUndefined();
  });
});

/** A service that hands out a stream URL, then answers the stream with no body. */
const answer = (request: Request) =>
  request.url.endsWith('/messages/stream')
    ? Response.json({ data: { stream_url: 'https://stream.up.test/tok' } })
    : new Response(null, { status: 204 });

describe('streams', () => {
  it('name a stream in the store by its random IV, never by the whole token (a capability)', async () => {
    const store = createMemoryStore();
    const claimed: string[] = [];
    const { send, open } = await scripted(
      (request) =>
        request.url.endsWith('/messages/stream')
          ? Response.json({ data: { stream_url: 'https://stream.up.test/tok' } })
          : new Response('data: [END]\n\n', { headers: { 'content-type': 'text/event-stream' } }),
      { store: { take: store.take, claim: (key, ttlMs, now) => (claimed.push(key), store.claim(key, ttlMs, now)) } },
    );
    const started = await send('/messages/stream');
    const token = (started.headers.get('location') ?? '').split('/').pop() ?? '';
    expect((await open(started)).status).toBe(200);
    expect(claimed).toEqual([`stream:${token.slice(0, 16)}`]);
  });

  it('log a stream that goes silent as a warning of event upstream', async () => {
    const { send, open, logs } = await scripted(
      (request) =>
        request.url.endsWith('/messages/stream')
          ? Response.json({ data: { stream_url: 'https://stream.up.test/tok' } })
          : new Response(new ReadableStream(), { headers: { 'content-type': 'text/event-stream' } }),
      { timeouts: { firstByteMs: 30 } },
    );
    const stream = await open(await send('/messages/stream'));
    await expect(stream.text()).rejects.toThrow('no first byte in time');
    expect(logs.filter((entry) => entry.level === 'warn')).toEqual([
      { level: 'warn', event: 'upstream', message: 'Upstream no first byte in time.' },
    ]);
  });

  it('check a sealed stream URL again when it is opened, and refuse a stream answer without a body', async () => {
    const { send, open, grant } = await scripted(answer);
    const started = await send('/messages/stream');
    const empty = await open(started);
    expect([empty.status, await empty.json()]).toEqual([
      502,
      { message: 'The chat service sent an unexpected response.' },
    ]);
    // The same secret, without that stream host: the token is genuine, its URL no longer allowed.
    const narrower = createProxy({
      ...PROXY_BASE,
      fetch: async (input, init) => answer(new Request(input, init)),
    });
    const again = await send('/messages/stream');
    const refused = await narrower(new Request(`${PAGE}${again.headers.get('location')}`, { headers: grant }));
    expect([refused.status, await refused.json()]).toEqual([
      502,
      { message: 'The chat service did not return a stream.' },
    ]);
  });
});

describe('telemetry', () => {
  afterEach(() => {
    trace.disable();
  });

  it("notes an authorize hook's own Response as a refusal for want of authorization", async () => {
    const spans = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
    const { call } = setup({ authorize: () => Response.json({ message: 'Log in first.' }, { status: 401 }) });
    const refused = await call('GET', `/messages?conversation_id=abc`);
    await refused.text();
    expect(refused.status).toBe(401);
    expect(spans.getFinishedSpans().map((span) => span.attributes['askbox.refusal.reason'])).toEqual(['notAuthorized']);
  });
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_BOT_ID } from '../../../../demo/simulator/index';
import { createProxy, type ProxyOptions } from '../../../../src/proxy/core/proxy';
import { toNodeListener } from '../../../../src/proxy/adapters/node/node';
import { rawRequest } from '../../../contract/http';
import type { ProxyLogEntry } from '../../../../src/proxy/core/options';
import { PAGE, PAGE_HOST, SECRET, setup, PROXY_BASE, pageCall } from '../../../helpers/proxy';
import { API, SIM_KEY, setupSimulator } from '../../../helpers/simulator';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createMemoryStore } from '../../../../src/proxy/stores/memory';

/**
 * What the black-box contract (test/contract/) cannot reach from outside: the clock, hooks, log lines, options
 * checking and the Node adapter. The contract covers routes, grants, limits and hostile requests over HTTP.
 */

/** A promise that never settles: a store that never answers. */
const never = () => new Promise<never>(() => undefined);

/** A proxy created with these options (a thunk, for toThrow). */
const proxyThunk = (options: Partial<ProxyOptions>) => () =>
  createProxy({ apiKey: 'k', botIds: [DEMO_BOT_ID], secret: SECRET, ...options });

describe('proxy: time', () => {
  it('grants expire after grantTtlSeconds', async () => {
    const { call, start, clock } = setup({ grantTtlSeconds: 3600 });
    const mine = await start();
    const read = () => call('GET', `/messages?conversation_id=${mine.id}`, undefined, { 'x-askbox-grant': mine.grant });
    clock.now += 3599_000;
    expect((await read()).status).toBe(200);
    clock.now += 1000;
    expect((await read()).status).toBe(404);
  });

  it('stream tokens expire after streamTtlSeconds', async () => {
    const { call, start, clock } = setup({ streamTtlSeconds: 30 });
    const mine = await start();
    const headers = { 'x-askbox-grant': mine.grant };
    const open = async () => {
      const started = await call(
        'POST',
        '/messages/stream',
        { content: 'returns?', conversation_id: mine.id },
        headers,
      );
      return (started.headers.get('location') ?? '').replace('/askbox', '');
    };
    const fresh = await open();
    clock.now += 29_999;
    expect((await call('GET', fresh, undefined, headers)).status).toBe(200);
    const stale = await open();
    clock.now += 30_000;
    expect((await call('GET', stale, undefined, headers)).status).toBe(404);
  });

  it('caps a visitor per day, refilled steadily, with Retry-After in seconds', async () => {
    const { start, send, clock, upstreamCalls } = setup({
      limits: {
        visitorMessages: { burst: 100, perMinute: 100 },
        ipMessages: { burst: 100, perMinute: 100 },
        visitorMessagesPerDay: 2,
      },
    });
    const mine = await start();
    expect((await send(mine)).status).toBe(200);
    expect((await send(mine)).status).toBe(200);
    const calls = upstreamCalls.length;
    const refused = await send(mine);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(12 * 3600));
    expect(upstreamCalls).toHaveLength(calls);
    clock.now += 12 * 3600_000;
    expect((await send(mine)).status).toBe(200);
    expect((await send(mine)).status).toBe(429);
  });

  it('refills a visitor burst at perMinute', async () => {
    const { start, send, clock } = setup({ limits: { visitorMessages: { burst: 1, perMinute: 2 } } });
    const mine = await start();
    expect((await send(mine)).status).toBe(200);
    const refused = await send(mine);
    expect(refused.headers.get('retry-after')).toBe('30');
    clock.now += 29_000;
    expect((await send(mine)).status).toBe(429);
    clock.now += 1000;
    expect((await send(mine)).status).toBe(200);
  });

  it('answers 504 when the service does not send headers within connectMs', async () => {
    const proxy = createProxy({
      apiKey: SIM_KEY,
      botIds: [DEMO_BOT_ID],
      allowedHosts: [PAGE_HOST],
      upstream: API,
      timeouts: { connectMs: 50 },
      fetch: (_input, init) =>
        new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted')))),
    });
    const started = Date.now();
    const response = await proxy(
      new Request(`${PAGE}/askbox/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
      }),
    );
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({ message: 'The chat service did not answer in time.' });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('proxy: hooks, logs and options', () => {
  it('authorize: false is a 403, a Response is sent with the security headers, health stays open', async () => {
    const seen: string[] = [];
    const { call, upstreamCalls } = setup({
      authorize: (request) => {
        seen.push(new URL(request.url).pathname);
        if (request.headers.get('x-captcha') === 'ok') return true;
        return request.headers.get('x-captcha')
          ? new Response('{"message":"Captcha failed."}', {
              status: 401,
              headers: { 'content-type': 'application/json' },
            })
          : false;
      },
    });
    expect((await call('POST', '/conversations', { name: 'x', bot_id: DEMO_BOT_ID })).status).toBe(403);
    const custom = await call('POST', '/conversations', { name: 'x', bot_id: DEMO_BOT_ID }, { 'x-captcha': 'bad' });
    expect(custom.status).toBe(401);
    expect(custom.headers.get('x-content-type-options')).toBe('nosniff');
    expect(upstreamCalls).toHaveLength(0);
    expect(
      (await call('POST', '/conversations', { name: 'x', bot_id: DEMO_BOT_ID }, { 'x-captcha': 'ok' })).status,
    ).toBe(200);
    expect((await call('GET', '/health')).status).toBe(200);
    expect(seen).not.toContain('/askbox/health');
  });

  it('onLimit hears every refusal, with the IP, the visitor and the wait', async () => {
    const events: unknown[] = [];
    const { start, send } = setup({
      limits: { visitorMessages: { burst: 1, perMinute: 1 } },
      onLimit: (event) => events.push(event),
    });
    const mine = await start();
    await send(mine);
    await send(mine);
    expect(events).toEqual([
      {
        action: 'message',
        ip: '192.0.2.1',
        visitorId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
        retryAfterSeconds: 60,
      },
    ]);
  });

  it('logs one line per request without the key, secrets, grants or stream tokens — even when an error quotes them', async () => {
    const { logs, start, call } = setup();
    const mine = await start();
    const started = await call(
      'POST',
      '/messages/stream',
      { content: 'returns?', conversation_id: mine.id },
      { 'x-askbox-grant': mine.grant },
    );
    const location = started.headers.get('location') ?? '';
    await call('GET', location.replace('/askbox', ''), undefined, { 'x-askbox-grant': mine.grant });
    const leaky = createProxy({
      apiKey: SIM_KEY,
      botIds: [DEMO_BOT_ID],
      allowedHosts: [PAGE_HOST],
      secret: SECRET,
      upstream: API,
      log: (entry) => logs.push(entry),
      fetch: async () => {
        throw new TypeError(`connect failed: Bearer ${SIM_KEY} with ${SECRET}`);
      },
    });
    const failed = await leaky(
      new Request(`${PAGE}/askbox/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
      }),
    );
    expect(failed.status).toBe(502);
    expect(logs.filter((l) => l.event === 'request').map((l) => `${l.method} ${l.path} ${l.status}`)).toEqual([
      'POST /askbox/conversations 200',
      'POST /askbox/messages/stream 302',
      'GET /askbox/stream/:token 200',
      'POST /askbox/conversations 502',
    ]);
    expect(logs.find((l) => l.level === 'error')?.message).toBe(
      'TypeError: connect failed: Bearer [redacted] with [redacted]',
    );
    const text = JSON.stringify(logs);
    for (const secret of [SIM_KEY, SECRET, mine.grant, location.split('/').pop() ?? ''])
      expect(text).not.toContain(secret);
  });

  it('warns once when no secret is set, and checks its options', () => {
    const logs: ProxyLogEntry[] = [];
    createProxy({ apiKey: 'k', botIds: [DEMO_BOT_ID], log: (entry) => logs.push(entry) });
    expect(logs).toEqual([{ level: 'warn', event: 'config', message: expect.stringMatching(/No secret set/) }]);
    const bad: [Partial<ProxyOptions>, RegExp][] = [
      [{ apiKey: '' }, /apiKey/],
      [{ botIds: [] }, /botIds/],
      [{ allowedOrigins: ['*'] }, /"\*" is not allowed/],
      [{ allowedOrigins: ['https://shop.test/path'] }, /not an origin/],
      [{ secret: 'short' }, /at least 16/],
      [{ secret: [] }, /at least 16/],
      [{ publicUrl: 'not a url' }, /publicUrl/],
      [{ documentIds: ['../x'] }, /documentIds/],
      [{ limits: { ipMessages: { burst: 0, perMinute: 1 } } }, /burst/],
      [{ timeouts: { idleMs: 0 } }, /timeouts/],
      [{ grantTtlSeconds: 59 }, /grantTtlSeconds must be a whole number of seconds from 60 to 31536000/],
      [{ grantTtlSeconds: 365 * 24 * 3600 + 1 }, /grantTtlSeconds/],
      [{ grantTtlSeconds: 3600.5 }, /grantTtlSeconds/],
      [{ grantTtlSeconds: Number.NaN }, /grantTtlSeconds/],
      [{ grantTtlSeconds: '30d' as never }, /grantTtlSeconds/],
      [{ streamTtlSeconds: 0 }, /streamTtlSeconds must be a whole number of seconds from 1 to 3600/],
      [{ streamTtlSeconds: 3601 }, /streamTtlSeconds/],
      [{ streamTtlSeconds: -5 }, /streamTtlSeconds/],
    ];
    for (const [options, message] of bad)
      expect(() => createProxy({ apiKey: 'k', botIds: [DEMO_BOT_ID], ...options })).toThrow(message);
    for (const good of [{ grantTtlSeconds: 60 }, { grantTtlSeconds: 365 * 24 * 3600 }, { streamTtlSeconds: 1 }])
      expect(() => createProxy({ apiKey: 'k', botIds: [DEMO_BOT_ID], secret: SECRET, ...good })).not.toThrow();
  });

  it('fails closed with a 503 in plain words when the limit store fails, logging why, calling nothing upstream', async () => {
    const { call, upstreamCalls, logs } = setup({
      store: {
        take: async () => {
          throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
        },
        claim: async () => true,
      },
    });
    const response = await call('POST', '/conversations', { name: 'x', bot_id: DEMO_BOT_ID });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({ message: 'The chat is busy. Please try again shortly.' });
    expect(upstreamCalls).toEqual([]);
    expect(logs.find((l) => l.level === 'error')).toMatchObject({
      event: 'limits',
      message: 'StoreError: The limit store failed: connect ECONNREFUSED 127.0.0.1:6379',
    });
  });

  it('takes the same-host check and absolute stream URLs from publicUrl, never from the Host header', async () => {
    const { proxy, start } = setup({ publicUrl: 'https://shop.example', allowedHosts: [PAGE_HOST, 'evil.example'] });
    const mine = await start();
    const request = (origin: string, host: string) =>
      proxy(
        new Request(`http://${host}/askbox/messages/stream`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin, 'x-askbox-grant': mine.grant },
          body: JSON.stringify({ content: 'x', conversation_id: mine.id, redirect: false }),
        }),
      );
    const ok = await request('https://shop.example', 'evil.example');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { data: { stream_url: string } }).data.stream_url).toMatch(
      /^https:\/\/shop\.example\/askbox\/stream\/[\w-]+$/,
    );
    expect((await request('https://evil.example', 'evil.example')).status).toBe(403);
  });
});

/** The client IP the proxy saw, as its onLimit hook reports it. */
const ipOf = async (options: Partial<ProxyOptions>, headers: Record<string, string>, socket?: string) => {
  const events: { ip: string }[] = [];
  const { proxy } = setup({
    ...options,
    limits: { ipConversations: { burst: 1, perMinute: 1 } },
    onLimit: (event) => events.push(event),
  });
  for (let i = 0; i < 2; i++) {
    await proxy(
      new Request(`${PAGE}/askbox/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
      }),
      socket ? { clientIp: socket } : undefined,
    );
  }
  return events[0]?.ip;
};

describe('proxy: client IP', () => {
  it('uses the socket by default and ignores forwarding headers unless told to trust them', async () => {
    expect(await ipOf({}, { 'x-forwarded-for': '198.51.100.7', 'cf-connecting-ip': '198.51.100.8' }, '192.0.2.9')).toBe(
      '192.0.2.9',
    );
    expect(await ipOf({}, {})).toBe('unknown');
  });

  it('reads X-Forwarded-For by trusted hops, and CF-Connecting-IP when configured', async () => {
    const xff = { 'x-forwarded-for': '198.51.100.1, 198.51.100.2, 198.51.100.3' };
    expect(await ipOf({ clientIp: { header: 'x-forwarded-for', trustedHops: 1 } }, xff, '192.0.2.9')).toBe(
      '198.51.100.3',
    );
    expect(await ipOf({ clientIp: { header: 'x-forwarded-for', trustedHops: 2 } }, xff, '192.0.2.9')).toBe(
      '198.51.100.2',
    );
    expect(await ipOf({ clientIp: { header: 'x-forwarded-for', trustedHops: 9 } }, xff, '192.0.2.9')).toBe('192.0.2.9');
    expect(
      await ipOf({ clientIp: { header: 'cf-connecting-ip' } }, { 'cf-connecting-ip': '198.51.100.8' }, '192.0.2.9'),
    ).toBe('198.51.100.8');
  });
});

describe('proxy: upstream hygiene', () => {
  it('drops upstream headers other than the content type, cookies included', async () => {
    const proxy = createProxy({
      apiKey: 'secret-key-123',
      botIds: [DEMO_BOT_ID],
      allowedHosts: [PAGE_HOST],
      upstream: 'http://up.test/api/v1',
      fetch: async () =>
        new Response(JSON.stringify({ message: 'nope' }), {
          status: 500,
          headers: {
            'content-type': 'application/json',
            'set-cookie': 'session=1',
            server: 'laravel',
            'x-debug': 'secret-key-123',
          },
        }),
    });
    const response = await proxy(
      new Request(`${PAGE}/askbox/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
      }),
    );
    expect(response.status).toBe(500);
    for (const name of ['set-cookie', 'server', 'x-debug']) expect(response.headers.get(name)).toBeNull();
  });

  it('streams chunk by chunk from a separate stream host without the key, and cancels upstream when the visitor leaves', async () => {
    const encoder = new TextEncoder();
    let push: ((text: string) => void) | undefined;
    let upstreamCancelled = false;
    const streamRequests: Request[] = [];
    const { start, sim } = setup();
    const proxy = createProxy({
      apiKey: SIM_KEY,
      botIds: [DEMO_BOT_ID],
      allowedHosts: [PAGE_HOST],
      upstream: API,
      secret: SECRET,
      streamOrigins: ['https://stream.up.test'],
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (request.url.endsWith('/messages/stream'))
          return Response.json({ data: { stream_url: 'https://stream.up.test/tok' } });
        if (!request.url.startsWith('https://stream.up.test/')) return sim.handle(request);
        streamRequests.push(request);
        return new Response(
          new ReadableStream<Uint8Array>({
            start: (c) => void (push = (text) => c.enqueue(encoder.encode(text))),
            cancel: () => void (upstreamCancelled = true),
          }),
          {
            headers: { 'content-type': 'text/event-stream' },
          },
        );
      },
    });
    const mine = await start();
    const headers = { 'content-type': 'application/json', 'x-askbox-grant': mine.grant };
    const started = await proxy(
      new Request(`${PAGE}/askbox/messages/stream`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ content: 'x', conversation_id: mine.id }),
      }),
    );
    const visitor = new AbortController();
    const stream = await proxy(
      new Request(`${PAGE}${started.headers.get('location')}`, { headers, signal: visitor.signal }),
    );
    expect(streamRequests[0]?.headers.get('authorization')).toBeNull();
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    push?.('data: [START]\n\n');
    expect(decoder.decode((await reader.read()).value)).toBe('data: [START]\n\n');
    push?.('data: {"chunk":"one"}\n\n');
    expect(decoder.decode((await reader.read()).value)).toBe('data: {"chunk":"one"}\n\n');
    await reader.cancel();
    visitor.abort();
    await expect.poll(() => upstreamCancelled).toBe(true);
  });
});

describe('proxy: Node adapter', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  async function serve(listener: ReturnType<typeof toNodeListener>) {
    const server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('serves the handler on node:http with the socket address as the client IP, streaming bodies both ways', async () => {
    const events: { ip: string }[] = [];
    const { proxy } = setup({
      allowedHosts: [],
      limits: { ipConversations: { burst: 1, perMinute: 1 } },
      onLimit: (event) => events.push(event),
    });
    const base = `${await serve(toNodeListener(proxy))}/askbox`;
    const create = () =>
      fetch(`${base}/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'node', bot_id: DEMO_BOT_ID }),
      });
    const { data, meta } = (await (await create()).json()) as { data: { id: string }; meta: { grant: string } };
    const streamed = await fetch(`${base}/messages/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-askbox-grant': meta.grant },
      body: JSON.stringify({ content: 'pricing plans', conversation_id: data.id }),
    });
    expect(streamed.url).toContain('/askbox/stream/');
    expect(await streamed.text()).toContain('Starter');
    expect((await create()).status).toBe(429);
    expect(events[0]?.ip).toBe('127.0.0.1');
  });

  it('refuses what fetch cannot represent (TRACE), keeps only the path of an absolute-form target, refuses a bad Host', async () => {
    const { proxy } = setup({ allowedHosts: [] });
    const url = await serve(toNodeListener(proxy));
    const host = new URL(url).host;
    const traced = await rawRequest(url, `TRACE /askbox/conversations HTTP/1.1\nHost: ${host}\nConnection: close`);
    expect(traced.status).toBe(405);
    expect(traced.text).toContain('{"message":"Method not allowed."}');
    // Node's own parser refuses a method it does not know (400) before the adapter runs.
    expect(
      (await rawRequest(url, `TRACK /askbox/conversations HTTP/1.1\nHost: ${host}\nConnection: close`)).status,
    ).toBe(400);
    const absolute = await rawRequest(
      url,
      `GET http://evil.example/askbox/health HTTP/1.1\nHost: ${host}\nConnection: close`,
    );
    expect(absolute.status).toBe(200);
    const hostile = await rawRequest(
      url,
      `GET /askbox/health HTTP/1.1\nHost: evil.example/askbox/x?\nConnection: close`,
    );
    expect(hostile.status).toBe(400);
  });

  it('answers 500 through onError when the handler throws', async () => {
    const url = await serve(
      toNodeListener(
        async () => {
          throw new Error('bug');
        },
        { onError: () => new Response('custom', { status: 503 }) },
      ),
    );
    const response = await fetch(url);
    expect(response.status).toBe(503);
    expect(await response.text()).toBe('custom');
  });
});

describe('proxy: rules at their edges', () => {
  it('rounds Retry-After up to whole seconds, never down, and never below 1', async () => {
    // 60 / 6.2 per minute: the next token is 6.2 s away, which is 7 seconds to wait (6 would be too early).
    const { start, send, clock } = setup({ limits: { visitorMessages: { burst: 1, perMinute: 60 / 6.2 } } });
    const mine = await start();
    await send(mine);
    expect((await send(mine)).headers.get('retry-after')).toBe('7');
    clock.now += 6000;
    // 0.2 s left: still a whole second.
    const soon = await send(mine);
    expect(soon.status).toBe(429);
    expect(soon.headers.get('retry-after')).toBe('1');
    expect(await soon.json()).toEqual({ message: 'Too many messages. Please try again in 1 seconds.' });
  });

  it('caps one IP per day across the visitors it plays', async () => {
    const { start, send, clock } = setup({
      limits: {
        ipMessages: { burst: 100, perMinute: 100 },
        visitorMessagesPerDay: 100,
        ipMessagesPerDay: 3,
      },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(await start())).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    clock.now += 8 * 3600_000;
    expect((await send(await start())).status).toBe(200);
  });

  it('fails closed when the store never answers a take or a claim, within storeMs', async () => {
    const { call, start, logs } = setup({ timeouts: { storeMs: 50 } });
    const mine = await start();
    const started = await call(
      'POST',
      '/messages/stream',
      { content: 'x', conversation_id: mine.id },
      { 'x-askbox-grant': mine.grant },
    );
    const path = (started.headers.get('location') ?? '').replace('/askbox', '');
    const stuck = setup({ timeouts: { storeMs: 50 }, store: { take: never, claim: never } });
    for (const request of [
      () => stuck.call('POST', '/conversations', { name: 'x', bot_id: DEMO_BOT_ID }),
      () => stuck.call('GET', path, undefined, { 'x-askbox-grant': mine.grant }),
    ]) {
      const begun = Date.now();
      const response = await request();
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(Date.now() - begun).toBeLessThan(1000);
    }
    expect(stuck.logs.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([
      'StoreError: The limit store failed: no answer within 50 ms',
      'StoreError: The limit store failed: no answer within 50 ms',
    ]);
    expect(logs.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('verifies grant signatures with subtle.verify (constant time), never by comparing strings', async () => {
    const { call, start } = setup();
    const mine = await start();
    const verify = vi.spyOn(crypto.subtle, 'verify');
    const forged = `${mine.grant.slice(0, -4)}AAAA`;
    await call('GET', `/messages?conversation_id=${mine.id}`, undefined, { 'x-askbox-grant': forged });
    expect(verify).toHaveBeenCalledTimes(1);
    verify.mockRestore();
  });

  it('checks the daily caps and the store deadline like every other limit', () => {
    for (const limits of [{ ipMessagesPerDay: 0 }, { ipMessagesPerDay: 0.5 }, { visitorMessagesPerDay: 0 }])
      expect(proxyThunk({ limits }), JSON.stringify(limits)).toThrow(/PerDay ≥ 1/);
    expect(proxyThunk({ limits: { ipMessagesPerDay: 1, visitorMessagesPerDay: 1 } })).not.toThrow();
    expect(proxyThunk({ timeouts: { storeMs: 0 } })).toThrow(/timeouts/);
    expect(proxyThunk({ timeouts: { storeMs: 1 } })).not.toThrow();
    const takeOnly = { take: async () => 0 } as unknown as ProxyOptions['store'];
    expect(proxyThunk({ store: takeOnly })).toThrow('store must have take(checks, now) and claim(key, ttlMs, now)');
  });
});

/**
 * Each request's log line in full, how a failure that is neither a timeout nor the store's becomes an answer, and the
 * sends, streams and telemetry of a request at their edges.
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

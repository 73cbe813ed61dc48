import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID, OTHER_BOT_ID } from '../../demo/simulator/index';
import { createProxy, type ProxyOptions } from '../../src/proxy/handler';
import { toNodeListener } from '../../src/proxy/node';
import { API, SIM_KEY, setupSimulator } from '../helpers/simulator';

const PAGE = 'http://shop.test';

/** A proxy in front of the simulator, recording every upstream request. */
function setup(options: Partial<ProxyOptions> = {}, scenario = {}) {
  const { sim } = setupSimulator({ defaults: { delayMs: 0 }, ...scenario });
  const upstreamCalls: Request[] = [];
  const proxy = createProxy({
    apiKey: SIM_KEY,
    botIds: [DEMO_BOT_ID],
    upstream: API,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      upstreamCalls.push(request.clone());
      return sim.handle(request);
    },
    ...options,
  });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    proxy(new Request(`${PAGE}/askbox${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) }));
  const conversation = async () => ((await (await call('POST', '/conversations', { name: 'Visitor', bot_id: DEMO_BOT_ID })).json()) as { data: { id: string } }).data.id;
  return { sim, proxy, call, upstreamCalls, conversation };
}

async function expectNoKey(response: Response) {
  const text = await response.clone().text();
  expect(text).not.toContain(SIM_KEY);
  response.headers.forEach((value) => expect(value).not.toContain(SIM_KEY));
}

describe('proxy: allowed routes', () => {
  it('forwards the widget routes with the key added and only whitelisted fields', async () => {
    const { call, upstreamCalls, conversation } = setup();
    const id = await conversation();
    const sent = await call('POST', '/messages', { content: 'shipping costs?', conversation_id: id, evil: 'x' });
    expect(sent.status).toBe(200);
    await expectNoKey(sent);
    const list = await call('GET', `/messages?conversation_id=${id}&includes=sources&page=1&per_page=5&bot_id=x`);
    expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(2);
    expect((await call('GET', `/conversations/${id}?includes=document_ids`)).status).toBe(200);
    for (const request of upstreamCalls) expect(request.headers.get('authorization')).toBe(`Bearer ${SIM_KEY}`);
    const post = upstreamCalls.find((r) => r.method === 'POST' && r.url.endsWith('/messages'));
    expect(await post?.json()).toEqual({ content: 'shipping costs?', conversation_id: id });
    const get = upstreamCalls.find((r) => r.url.includes('per_page'));
    expect(new URL(get?.url ?? '').searchParams.has('bot_id')).toBe(false);
  });

  it('serves the reply stream from its own sealed route (302 by default, stream_url with redirect:false)', async () => {
    const { call, conversation } = setup();
    const id = await conversation();
    const redirect = await call('POST', '/messages/stream', { content: 'returns?', conversation_id: id });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location') ?? '';
    expect(location).toMatch(/^\/askbox\/stream\/[A-Za-z0-9_-]+$/);
    expect(location).not.toContain('sim.test');
    const stream = await call('GET', location.replace('/askbox', ''));
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const text = await stream.text();
    expect(text.startsWith('data: [START]')).toBe(true);
    expect(text.trim().endsWith('data: [END]')).toBe(true);

    const json = await call('POST', '/messages/stream', { content: 'again', conversation_id: id, redirect: false });
    const { data } = (await json.json()) as { data: { stream_url: string } };
    expect(data.stream_url).toMatch(/^http:\/\/shop\.test\/askbox\/stream\//);
  });

  it('pins the bot: a conversation may be created without bot_id, never with another bot', async () => {
    const { call } = setup();
    const pinned = await call('POST', '/conversations', { name: 'x' });
    expect(((await pinned.json()) as { data: { bot_id: string } }).data.bot_id).toBe(DEMO_BOT_ID);
    const other = await call('POST', '/conversations', { name: 'x', bot_id: OTHER_BOT_ID });
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({ message: 'The selected bot id is invalid.', errors: { bot_id: ['The selected bot id is invalid.'] } });
  });

  it("refuses to read or write another bot's conversations", async () => {
    const { call, sim, upstreamCalls } = setup();
    const foreign = await sim.handle(
      new Request(`${API}/conversations`, { method: 'POST', headers: { authorization: `Bearer ${SIM_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'internal', bot_id: OTHER_BOT_ID }) }),
    );
    const id = ((await foreign.json()) as { data: { id: string } }).data.id;
    expect((await call('GET', `/conversations/${id}`)).status).toBe(404);
    expect(upstreamCalls).toHaveLength(1);
    expect((await call('GET', `/messages?conversation_id=${id}`)).status).toBe(404);
    expect((await call('POST', '/messages', { content: 'x', conversation_id: id })).status).toBe(422);
    expect((await call('POST', '/messages/stream', { content: 'x', conversation_id: id })).status).toBe(422);
    expect((await call('GET', '/messages')).status).toBe(422);
  });

  it('passes upstream error statuses and bodies through unchanged (402, 422, 500)', async () => {
    const { call, conversation } = setup({}, { replies: [{ match: 'quota', status: 402 }, { match: 'boom', status: 500 }] });
    const id = await conversation();
    const quota = await call('POST', '/messages/stream', { content: 'quota', conversation_id: id });
    expect(quota.status).toBe(402);
    expect(await quota.json()).toEqual({ message: 'You have reached the message limit for last 30 days, please wait till tomorrow or upgrade your plan.' });
    const invalid = await call('POST', '/messages', { content: '', conversation_id: id });
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as { errors: object }).errors).toEqual({ content: ['The content field is required.'] });
    expect((await call('POST', '/messages', { content: 'boom', conversation_id: id })).status).toBe(500);
  });
});

describe('proxy: refusals', () => {
  it.each([
    ['GET', '/bots'],
    ['GET', '/conversations'],
    ['DELETE', '/conversations/abcdefabcdef'],
    ['POST', '/conversations/abcdefabcdef'],
    ['GET', '/documents'],
    ['POST', '/documents'],
    ['POST', '/uploads/signed-url'],
    ['GET', '/folders'],
    ['PUT', '/messages'],
    ['GET', '/messages/stream'],
    ['POST', '/stream/abc'],
    ['GET', '/../api/v1/bots'],
    ['GET', '/messages/a/b'],
  ])('refuses %s %s without calling upstream', async (method, path) => {
    const { call, upstreamCalls } = setup();
    const response = await call(method, path, method === 'GET' ? undefined : {});
    expect([404, 405]).toContain(response.status);
    expect(await response.json()).toEqual({ message: expect.any(String) });
    expect(upstreamCalls).toHaveLength(0);
  });

  it('names the allowed methods on a 405', async () => {
    const { call } = setup();
    expect((await call('PUT', '/messages', {})).headers.get('allow')).toBe('GET, POST');
    expect((await call('GET', '/messages/stream')).headers.get('allow')).toBe('POST');
  });

  it('refuses paths outside its base path', async () => {
    const { proxy } = setup();
    expect((await proxy(new Request('http://shop.test/api/v1/bots'))).status).toBe(404);
  });

  it('refuses forged, altered and foreign stream tokens', async () => {
    const { call, conversation } = setup();
    const location = (await call('POST', '/messages/stream', { content: 'x', conversation_id: await conversation() })).headers.get('location') ?? '';
    const token = location.split('/').pop() ?? '';
    const altered = token.slice(0, -2) + (token.endsWith('A') ? 'BB' : 'AA');
    for (const bad of [altered, 'AAAA', 'not a token!', btoa('http://evil.test')]) {
      expect((await call('GET', `/stream/${encodeURIComponent(bad)}`)).status).toBe(404);
    }
    const other = setup();
    expect((await other.call('GET', `/stream/${token}`)).status).toBe(404);
  });

  it('limits body size and requires a JSON object', async () => {
    const { call, conversation } = setup();
    const id = await conversation();
    expect((await call('POST', '/messages', { content: 'x'.repeat(70_000), conversation_id: id })).status).toBe(413);
    expect((await call('POST', '/messages', '{oops')).status).toBe(400);
    expect((await call('POST', '/conversations', '[]')).status).toBe(400);
  });

  it('allows same-host pages and listed origins only; * is refused at creation', async () => {
    const { call } = setup({ allowedOrigins: ['https://partner.test'] });
    expect((await call('POST', '/conversations', { name: 'x' }, { origin: PAGE })).status).toBe(200);
    const listed = await call('POST', '/conversations', { name: 'x' }, { origin: 'https://partner.test' });
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://partner.test');
    expect((await call('POST', '/conversations', { name: 'x' }, { origin: 'https://evil.test' })).status).toBe(403);
    expect((await call('POST', '/conversations', { name: 'x' }, { origin: 'null' })).status).toBe(403);
    const preflight = await call('OPTIONS', '/conversations', undefined, { origin: 'https://partner.test' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(() => createProxy({ apiKey: 'k', botIds: [DEMO_BOT_ID], allowedOrigins: ['*'] })).toThrow(/"\*" is not allowed/);
    expect(() => createProxy({ apiKey: '', botIds: [DEMO_BOT_ID] })).toThrow(/apiKey/);
    expect(() => createProxy({ apiKey: 'k', botIds: [] })).toThrow(/botIds/);
  });

  it('drops upstream headers other than the content type, cookies included', async () => {
    const proxy = createProxy({
      apiKey: 'secret-key-123',
      botIds: [DEMO_BOT_ID],
      upstream: 'http://up.test/api/v1',
      fetch: async () =>
        new Response(JSON.stringify({ message: 'nope' }), { status: 500, headers: { 'content-type': 'application/json', 'set-cookie': 'session=1', server: 'laravel', 'x-debug': 'secret-key-123' } }),
    });
    const response = await proxy(new Request(`${PAGE}/askbox/messages?conversation_id=abcdefabcdef`));
    expect(response.status).toBe(500);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('server')).toBeNull();
    expect(response.headers.get('x-debug')).toBeNull();
  });

  it('never puts the key in a response or a log line, even when upstream is unreachable', async () => {
    const logged: unknown[] = [];
    const proxy = createProxy({
      apiKey: 'secret-key-123',
      botIds: [DEMO_BOT_ID],
      upstream: 'http://up.test/api/v1',
      onError: (error) => logged.push(error),
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    const response = await proxy(new Request(`${PAGE}/askbox/conversations`, { method: 'POST', body: '{"name":"x"}' }));
    expect(response.status).toBe(502);
    await expectNoKey(response);
    expect(JSON.stringify(logged.map(String))).not.toContain('secret-key-123');
  });
});

describe('proxy: streaming pass-through', () => {
  it('hands each upstream chunk on as it arrives, and cancels upstream when the visitor leaves', async () => {
    const encoder = new TextEncoder();
    let push: ((text: string) => void) | undefined;
    let upstreamCancelled = false;
    const upstreamStream = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(encoder.encode(text));
      },
      cancel() {
        upstreamCancelled = true;
      },
    });
    const proxy = createProxy({
      apiKey: 'k',
      botIds: [DEMO_BOT_ID],
      upstream: 'http://up.test/api/v1',
      fetch: async (input) => {
        const url = String(input instanceof Request ? input.url : input);
        if (url.endsWith('/conversations/abcdefabcdef')) return Response.json({ data: { id: 'abcdefabcdef', bot_id: DEMO_BOT_ID } });
        if (url.endsWith('/messages/stream')) return Response.json({ data: { stream_url: 'https://stream.up.test/tok' } });
        return new Response(upstreamStream, { headers: { 'content-type': 'text/event-stream' } });
      },
    });
    const started = await proxy(new Request(`${PAGE}/askbox/messages/stream`, { method: 'POST', body: JSON.stringify({ content: 'x', conversation_id: 'abcdefabcdef' }) }));
    const location = started.headers.get('location') ?? '';
    const visitor = new AbortController();
    const stream = await proxy(new Request(`${PAGE}${location}`, { signal: visitor.signal }));
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    push?.('data: [START]\n\n');
    expect(decoder.decode((await reader.read()).value)).toBe('data: [START]\n\n');
    push?.('data: {"chunk":"one"}\n\n');
    expect(decoder.decode((await reader.read()).value)).toBe('data: {"chunk":"one"}\n\n');
    await reader.cancel();
    visitor.abort();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(upstreamCancelled).toBe(true);
  });
});

describe('proxy: Node adapter', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('serves the handler on node:http, streaming bodies and forwarding request bodies', async () => {
    const { proxy } = setup();
    const server = createServer(toNodeListener(proxy));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/askbox`;
    const created = await fetch(`${base}/conversations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'node' }) });
    const { data } = (await created.json()) as { data: { id: string } };
    const streamed = await fetch(`${base}/messages/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'pricing plans', conversation_id: data.id }) });
    expect(streamed.url).toContain('/askbox/stream/');
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    expect(await streamed.text()).toContain('Starter');
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });

  it('answers 500 through onError when the handler throws', async () => {
    const server = createServer(
      toNodeListener(
        async () => {
          throw new Error('bug');
        },
        { onError: () => new Response('custom', { status: 503 }) },
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    expect(response.status).toBe(503);
    expect(await response.text()).toBe('custom');
  });
});

import { describe, expect, it, beforeEach, vi } from 'vitest';
import { DEMO_BOT_ID, OTHER_BOT_ID } from '../../../../demo/simulator/index';
import { createProxy, type ProxyOptions } from '../../../../src/proxy/core/proxy';
import { PAGE, PAGE_HOST, SECRET, setup, PROXY_BASE } from '../../../helpers/proxy';
import { API, SIM_KEY, SIM_ORIGIN } from '../../../helpers/simulator';
import type * as Handler from '../../../../src/proxy/core/proxy';

/**
 * The handler's answers that the black-box contract only bounds (404 or 405, some 4xx): the exact status, `Allow`
 * and CORS headers, what reaches the service and in which shape, and how odd service answers are turned away.
 */

/** A proxy over a scripted upstream: `answer` decides each upstream response; every upstream request is kept. */
function scripted(answer: (request: Request) => Response | Promise<Response>, options: Partial<ProxyOptions> = {}) {
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

/** Starts a conversation at `url` from a page of `origin`. */
function create(proxy: ReturnType<typeof setup>['proxy'], url: string, origin: string) {
  return proxy(
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
    }),
  );
}

/** A service that answers after 150 ms, unless the call is given up first. */
function slow(request: Request) {
  return new Promise<Response>((resolve, reject) => {
    const timer = setTimeout(() => resolve(Response.json({ data: { url: request.url } })), 150);
    request.signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('aborted'))));
  });
}

/** A short, complete reply stream. */
function sse() {
  return new Response('data: [START]\n\ndata: [END]\n\n', { headers: { 'content-type': 'text/event-stream' } });
}

describe('proxy routes: the allowlist', () => {
  it.each([
    ['GET', '/conversations', 405, 'POST'],
    ['PUT', '/messages', 405, 'GET, POST'],
    ['DELETE', '/messages', 405, 'GET, POST'],
    ['GET', '/messages/stream', 405, 'POST'],
    ['POST', '/stream/abc', 405, 'GET'],
    ['POST', '/health', 405, 'GET'],
    ['GET', '/conversations/abcdefabcdef', 405, 'DELETE'],
    ['POST', '/conversations/abcdefabcdef', 405, 'DELETE'],
    ['DELETE', '/conversations', 405, 'POST'],
    ['DELETE', '/conversations/abcdefabcdef/messages', 404, null],
    ['DELETE', '/conversations/..%2Fbots', 404, null],
    ['GET', '/feedback', 405, 'POST'],
    ['POST', '/feedback/abcdefabcdef', 404, null],
    ['GET', '/messages/abcdefabcdef', 404, null],
    ['GET', '/stream', 404, null],
    ['GET', '/health/x', 404, null],
    ['GET', '/messages/stream/x', 404, null],
    ['GET', '/bots', 404, null],
    ['GET', '', 404, null],
  ])('%s %s is a %d (Allow: %s) in the envelope, without calling upstream', async (method, path, status, allow) => {
    const { call, upstreamCalls } = setup();
    const response = await call(method, path);
    expect(response.status).toBe(status);
    expect(response.headers.get('allow')).toBe(allow);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ message: status === 404 ? 'Not found.' : 'Method not allowed.' });
    expect(upstreamCalls).toHaveLength(0);
  });

  it('answers nothing outside basePath, not even a path that merely starts like it', async () => {
    const { proxy } = setup();
    for (const path of ['/askboxhealth', '/askbox', '/health', '/other/askbox/health']) {
      const response = await proxy(new Request(`${PAGE}${path}`));
      expect(response.status, path).toBe(404);
    }
    expect((await proxy(new Request(`${PAGE}/askbox/health/`))).status).toBe(200);
  });
});

describe('proxy routes: CORS', () => {
  it('treats only the very same host and port as same-host: no CORS headers for it, a 403 for its other ports', async () => {
    const { proxy } = setup({ allowedHosts: ['shop.test:8080'] });
    const same = await create(proxy, 'http://shop.test:8080/askbox/conversations', 'http://shop.test:8080');
    expect(same.status).toBe(200);
    expect(same.headers.get('access-control-allow-origin')).toBeNull();
    expect(same.headers.get('access-control-expose-headers')).toBeNull();
    expect(same.headers.get('vary')).toBe('Origin');
    for (const origin of ['http://shop.test', 'http://shop.test:8081', 'http://shop.test:80', 'null']) {
      const response = await create(proxy, 'http://shop.test:8080/askbox/conversations', origin);
      expect(response.status, origin).toBe(403);
      expect(await response.json()).toEqual({ message: 'This site is not allowed to use this chat.' });
    }
  });

  it('takes the port of publicUrl into the same-host check', async () => {
    const { proxy } = setup({ publicUrl: 'https://shop.example:8443', allowedHosts: ['internal:3000'] });
    const url = 'http://internal:3000/askbox/conversations';
    expect((await create(proxy, url, 'https://shop.example:8443')).status).toBe(200);
    expect((await create(proxy, url, 'https://shop.example')).status).toBe(403);
    expect((await create(proxy, url, 'http://internal:3000')).status).toBe(403);
  });

  it('lets listed origins read the answer and Retry-After, and answers their preflight', async () => {
    const { proxy } = setup({ allowedOrigins: ['https://partner.example'] });
    const listed = await create(proxy, `${PAGE}/askbox/conversations`, 'https://partner.example');
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://partner.example');
    expect(listed.headers.get('access-control-expose-headers')).toBe('retry-after');
    expect(listed.headers.get('vary')).toBe('Origin');
    const preflight = await proxy(
      new Request(`${PAGE}/askbox/messages/stream`, {
        method: 'OPTIONS',
        headers: { origin: 'https://partner.example' },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(Object.fromEntries(preflight.headers)).toMatchObject({
      'access-control-allow-origin': 'https://partner.example',
      'access-control-allow-methods': 'GET, POST, DELETE',
      'access-control-allow-headers': 'content-type, x-askbox-grant',
      'access-control-max-age': '600',
      'cache-control': 'no-store',
    });
  });
});

describe('proxy routes: conversations', () => {
  it('forwards a trimmed name on the pinned bot, and refuses a missing one as the service does', async () => {
    const { call, upstreamCalls } = setup();
    const created = await call('POST', '/conversations', { name: '  Shop visitor  ', bot_id: DEMO_BOT_ID });
    expect(created.status).toBe(200);
    for (const [name, message] of [
      ['   ', 'The name field is required.'],
      [undefined, 'The name field is required.'],
      [7, 'The name field must be a string.'],
    ] as const) {
      const refused = await call('POST', '/conversations', { name, bot_id: DEMO_BOT_ID });
      expect(refused.status, String(name)).toBe(422);
      expect(await refused.json()).toEqual({ message, errors: { name: [message] } });
    }
    const sent = await Promise.all(upstreamCalls.map((r) => r.json() as Promise<{ name: string; bot_id: string }>));
    expect(sent).toEqual([{ name: 'Shop visitor', bot_id: DEMO_BOT_ID }]);
    expect(upstreamCalls[0]?.headers.get('authorization')).toBe(`Bearer ${SIM_KEY}`);
    expect(upstreamCalls[0]?.headers.get('accept')).toBe('application/json');
    expect(upstreamCalls[0]?.headers.get('content-type')).toBe('application/json');
  });

  it('needs bot_id, even with one bot, and takes only the allowed ones', async () => {
    for (const botIds of [[DEMO_BOT_ID], [DEMO_BOT_ID, OTHER_BOT_ID]]) {
      const { call } = setup({ botIds });
      const missing = await call('POST', '/conversations', { name: 'x' });
      expect(missing.status).toBe(422);
      expect(await missing.json()).toEqual({
        message: 'The bot id field is required.',
        errors: { bot_id: ['The bot id field is required.'] },
      });
      const unknown = await call('POST', '/conversations', { name: 'x', bot_id: 'unknownBot01' });
      expect(await unknown.json()).toEqual({
        message: 'The selected bot id is invalid.',
        errors: { bot_id: ['The selected bot id is invalid.'] },
      });
    }
    const { call } = setup({ botIds: [DEMO_BOT_ID, OTHER_BOT_ID] });
    expect((await call('POST', '/conversations', { name: 'x', bot_id: OTHER_BOT_ID })).status).toBe(200);
  });

  it('is a 502 when the service creates a conversation without a usable id', async () => {
    for (const data of [{}, { id: 7 }, { id: '../bots' }, null]) {
      const proxy = createProxy({
        apiKey: SIM_KEY,
        botIds: [DEMO_BOT_ID],
        upstream: API,
        secret: SECRET,
        allowedHosts: [PAGE_HOST],
        fetch: async () => Response.json({ data }),
      });
      const response = await proxy(
        new Request(`${PAGE}/askbox/conversations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
        }),
      );
      expect(response.status, JSON.stringify(data)).toBe(502);
      expect(await response.json()).toEqual({ message: 'The chat service sent an unexpected response.' });
    }
  });
});

describe('proxy routes: messages', () => {
  it('lists with only the query parameters the service documents', async () => {
    const { call, start, upstreamCalls } = setup();
    const mine = await start();
    const response = await call(
      'GET',
      `/messages?conversation_id=${mine.id}&includes=sources&page=2&per_page=5&bot_id=x&keyword=y`,
      undefined,
      { 'x-askbox-grant': mine.grant },
    );
    expect(response.status).toBe(200);
    const listed = upstreamCalls.at(-1)!;
    expect(listed.method).toBe('GET');
    expect(listed.url).toBe(`${API}/messages?conversation_id=${mine.id}&includes=sources&page=2&per_page=5`);
    expect(listed.headers.get('content-type')).toBeNull();
    const missing = await call('GET', '/messages', undefined, { 'x-askbox-grant': mine.grant });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({
      message: 'The conversation id field is required.',
      errors: { conversation_id: ['The conversation id field is required.'] },
    });
  });

  it('gives a synchronous send until firstByteMs, while other calls get connectMs', async () => {
    const { call, start } = scripted(slow, { timeouts: { connectMs: 50, firstByteMs: 2000 } });
    const mine = await start();
    const headers = { 'x-askbox-grant': mine.grant };
    const sent = await call('POST', '/messages', { body: { content: 'x', conversation_id: mine.id }, headers });
    expect(sent.status).toBe(200);
    const listed = await call('GET', `/messages?conversation_id=${mine.id}`, { headers });
    expect(listed.status).toBe(504);
  });
});

describe('proxy routes: streams', () => {
  /** A proxy whose service hands out `streamUrl`; sends one message and returns the answer and the requests. */
  async function sendFor(streamUrl: string, body: Record<string, unknown> = {}) {
    const { call, start, requests } = scripted((request) =>
      request.url.endsWith('/messages/stream') ? Response.json({ data: { stream_url: streamUrl } }) : sse(),
    );
    const mine = await start();
    const headers = { 'x-askbox-grant': mine.grant };
    const response = await call('POST', '/messages/stream', {
      body: { content: 'x', conversation_id: mine.id, ...body },
      headers,
    });
    return { response, requests, call, headers };
  }

  it('answers a send with a 302 to its own route, or with its own absolute stream URL for redirect: false', async () => {
    for (const redirect of [true, 1, '1', 'true', null, undefined]) {
      const { response } = await sendFor('https://stream.up.test/tok', { redirect });
      expect(response.status, String(redirect)).toBe(302);
      expect(response.headers.get('location')).toMatch(/^\/askbox\/stream\/[A-Za-z0-9_-]{40,}$/);
    }
    for (const redirect of [false, 0, '0', 'false']) {
      const { response } = await sendFor('https://stream.up.test/tok', { redirect });
      expect(response.status, String(redirect)).toBe(200);
      const body = (await response.json()) as { data: { stream_url: string } };
      expect(body.data.stream_url).toMatch(new RegExp(`^${PAGE}/askbox/stream/[A-Za-z0-9_-]{40,}$`));
    }
    for (const redirect of ['no', 2, [], {}]) {
      const { response, requests } = await sendFor('https://stream.up.test/tok', { redirect });
      expect(response.status, JSON.stringify(redirect)).toBe(422);
      expect(requests).toEqual([]);
    }
  });

  it("serves the stream as an unbuffered event stream, with the key only for the service's own origin", async () => {
    for (const [url, key] of [
      [`${SIM_ORIGIN}/stream/abc`, `Bearer ${SIM_KEY}`],
      ['/stream/abc', `Bearer ${SIM_KEY}`],
      ['https://stream.up.test/abc', null],
      [`${SIM_ORIGIN}:8443/stream/abc`, null],
    ] as const) {
      const { response, requests, call, headers } = await sendFor(url);
      const stream = await call('GET', (response.headers.get('location') ?? '').replace('/askbox', ''), { headers });
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers.get('x-accel-buffering')).toBe('no');
      expect(stream.headers.get('cache-control')).toBe('no-store');
      expect(await stream.text()).toBe('data: [START]\n\ndata: [END]\n\n');
      const opened = requests.at(-1)!;
      expect(opened.url).toBe(new URL(url, API).href);
      expect(opened.headers.get('accept')).toBe('text/event-stream');
      expect(opened.headers.get('authorization'), url).toBe(key);
    }
  });

  it('is a 502 for a stream URL that is not http(s)', async () => {
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'http://[bad']) {
      const { response } = await sendFor(url);
      expect(response.status, url).toBe(502);
      expect(await response.json()).toEqual({ message: 'The chat service did not return a stream.' });
    }
  });

  it("passes the service's refusal of a stream on, in the envelope", async () => {
    const { call, start } = scripted((request) =>
      request.url.endsWith('/messages/stream')
        ? Response.json({ data: { stream_url: 'https://stream.up.test/gone' } })
        : Response.json({ message: 'This stream has already been read.' }, { status: 410 }),
    );
    const mine = await start();
    const headers = { 'x-askbox-grant': mine.grant };
    const started = await call('POST', '/messages/stream', {
      body: { content: 'x', conversation_id: mine.id },
      headers,
    });
    const stream = await call('GET', (started.headers.get('location') ?? '').replace('/askbox', ''), { headers });
    expect(stream.status).toBe(410);
    expect(await stream.json()).toEqual({ message: 'This stream has already been read.' });
  });
});

describe('proxy routes: unreadable bodies', () => {
  it('answers a body that breaks off while read (a bad chunked encoding) with a 400, not a 502', async () => {
    const { proxy, upstreamCalls } = setup();
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.error(new TypeError('invalid HTTP chunk size')),
    });
    const response = await proxy(
      new Request(`${PAGE}/askbox/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'The request body could not be read.' });
    expect(upstreamCalls).toEqual([]);
  });
});

/** The headers a preflight allows, built when the module loads, and the challenge route, which takes no id. */
describe("the preflight's allowed headers and the challenge route", () => {
  // Imported afresh for each test: the allowed headers are built when the module loads, and a runner that keeps
  // modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first.
  let handler: typeof Handler;
  beforeEach(async () => {
    vi.resetModules();
    handler = await import('../../../../src/proxy/core/proxy');
  });

  describe('the handler', () => {
    it('allows a listed origin to send the content type and the grant', async () => {
      const proxy = handler.createProxy({ ...PROXY_BASE, allowedOrigins: ['https://partner.example'] });
      const preflight = await proxy(
        new Request(`${PAGE}/askbox/conversations`, {
          method: 'OPTIONS',
          headers: { origin: 'https://partner.example' },
        }),
      );
      expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type, x-askbox-grant');
    });

    it('issues a challenge at `challenge` only, and knows no `challenge/<id>`', async () => {
      const proxy = handler.createProxy({ ...PROXY_BASE, proofOfWork: true });
      const get = (path: string) => proxy(new Request(`${PAGE}/askbox/${path}`), { clientIp: '192.0.2.1' });
      expect((await get('challenge')).status).toBe(200);
      const other = await get('challenge/x');
      expect(other.status).toBe(404);
      expect(await other.json()).toEqual({ message: expect.any(String) });
    });
  });
});

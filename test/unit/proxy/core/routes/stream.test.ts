import { describe, expect, it } from 'vitest';
import { nodeAesGcm } from '../../../../../src/proxy/adapters/node/aes-gcm';
import { fromBase64Url, toBase64Url } from '../../../../../src/proxy/core/grant';
import type { ProxyOptions } from '../../../../../src/proxy/core/options';
import { PAGE, scripted } from '../../../../helpers/proxy';
import { API, SIM_KEY, SIM_ORIGIN } from '../../../../helpers/simulator';

/** `GET stream/{token}`: the sealed token, the grant, and the stream hosts the key may reach. */
/** A short, complete reply stream. */
function sse() {
  return new Response('data: [START]\n\ndata: [END]\n\n', { headers: { 'content-type': 'text/event-stream' } });
}

describe('proxy routes: streams', () => {
  /** A proxy whose service hands out `streamUrl`; sends one message and returns the answer and the requests. */
  async function sendFor(streamUrl: string, body: Record<string, unknown> = {}, options: Partial<ProxyOptions> = {}) {
    const { call, start, requests } = scripted(
      (request) =>
        request.url.endsWith('/messages/stream') ? Response.json({ data: { stream_url: streamUrl } }) : sse(),
      options,
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

  it.each([
    ['Web Crypto', {}],
    ['node:crypto', { aesGcm: nodeAesGcm }],
  ])('refuses a token sealed with %s with one bit changed: a 404 in the envelope', async (_, options) => {
    const { response, call, headers, requests } = await sendFor('https://stream.up.test/tok', {}, options);
    const [path, token] = (response.headers.get('location') ?? '').replace('/askbox', '').split('/stream/') as [
      string,
      string,
    ];
    const bytes = fromBase64Url(token)!;
    for (const at of [0, 20, bytes.length - 1]) {
      const flipped = toBase64Url(Uint8Array.from(bytes, (b, i) => (i === at ? b ^ 1 : b)));
      const refused = await call('GET', `${path}/stream/${flipped}`, { headers });
      expect(refused.status, `byte ${at}`).toBe(404);
      expect(await refused.json()).toEqual({ message: 'This stream does not exist or has expired.' });
    }
    expect(requests.filter((request) => request.url.includes('/tok'))).toEqual([]);
    expect((await call('GET', `${path}/stream/${token}`, { headers })).status).toBe(200);
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

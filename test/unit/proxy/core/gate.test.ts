import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Handler from '../../../../src/proxy/core/proxy';
import { createProxy, type ProxyOptions } from '../../../../src/proxy/core/proxy';
import { DEMO_BOT_ID } from '../../../../demo/simulator/index';
import { PAGE, PROXY_BASE, SECRET, setup } from '../../../helpers/proxy';

/** What every request passes before its route: the host, the page's origin, and the CORS answer. */
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
      'access-control-allow-methods': 'DELETE, GET, POST',
      'access-control-allow-headers': 'content-type, x-askbox-grant, x-askbox-user, x-askbox-user-hash',
      'access-control-max-age': '600',
      'cache-control': 'no-store',
    });
  });
});

/** A proxy that allows one partner site, on one served host. */
const proxyWith = (options: Partial<ProxyOptions> = {}) =>
  createProxy({
    apiKey: 'k',
    botIds: [DEMO_BOT_ID],
    secret: SECRET,
    allowedOrigins: ['https://partner.example'],
    allowedHosts: ['proxy.example'],
    fetch: async () => Response.json({ data: { id: 'conv01' } }),
    ...options,
  });
const statusFor = async (origin: string) =>
  (
    await proxyWith()(
      new Request('http://proxy.example/askbox/conversations', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
      }),
    )
  ).status;

describe('CORS origins, exactly', () => {
  it.each([
    ['https://partner.example', 200],
    ['http://partner.example', 403],
    ['https://partner.example:444', 403],
    ['https://partner.example.evil', 403],
    ['https://evilpartner.example', 403],
    ['https://www.partner.example', 403],
    ['https://partner.exampl', 403],
    // Browsers serialize origins in lowercase, without a default port or a path: anything else is no page's.
    ['HTTPS://PARTNER.EXAMPLE', 403],
    ['https://partner.example:443', 403],
    ['https://partner.example/', 403],
    ['https://partner.example.', 403],
    ['http://proxy.example', 200],
    // Same host: the scheme is not compared, since behind a TLS-terminating proxy the request itself is http.
    ['https://proxy.example', 200],
    ['http://proxy.example:8080', 403],
    ['http://proxy.example.evil', 403],
    ['HTTP://PROXY.EXAMPLE', 403],
    ['http://proxy.example/', 403],
    ['http://evil.test@proxy.example', 403],
    // No browser sends an empty Origin, and workerd drops one: it is read as none.
    ['', 200],
  ])('%s → %i', async (origin, status) => {
    expect(await statusFor(origin)).toBe(status);
  });

  it('refuses "*" and anything but an exact origin in allowedOrigins and streamOrigins', () => {
    for (const key of ['allowedOrigins', 'streamOrigins'] as const) {
      for (const bad of ['*', 'https://a.example/', 'https://a.example/path', 'a.example', 'https://A.example'])
        expect(() => proxyWith({ [key]: [bad] }), `${key} ${bad}`).toThrow(/not allowed|not an origin/);
      expect(() => proxyWith({ [key]: ['https://a.example:8443'] })).not.toThrow();
    }
  });
});

/** The headers a preflight allows, built when the module loads. */
describe("the preflight's allowed headers", () => {
  // Imported afresh for each test: the allowed headers are built when the module loads, and a runner that keeps
  // modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first.
  let handler: typeof Handler;
  beforeEach(async () => {
    vi.resetModules();
    handler = await import('../../../../src/proxy/core/proxy');
  });

  it('allows a listed origin to send the content type, the grant and the identity headers', async () => {
    const proxy = handler.createProxy({ ...PROXY_BASE, allowedOrigins: ['https://partner.example'] });
    const preflight = await proxy(
      new Request(`${PAGE}/askbox/conversations`, {
        method: 'OPTIONS',
        headers: { origin: 'https://partner.example' },
      }),
    );
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'content-type, x-askbox-grant, x-askbox-user, x-askbox-user-hash',
    );
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Handler from '../../../src/proxy/core/proxy';
import { PAGE, PROXY_BASE } from '../../helpers/proxy';

/**
 * src/proxy/handler.ts where the other proxy tests leave it open (Stryker's run 7, issue 18): the headers a preflight
 * allows, built when the module loads, and the challenge route, which takes no id.
 */

// Imported afresh for each test: the allowed headers are built when the module loads, and a runner that keeps
// modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first.
let handler: typeof Handler;
beforeEach(async () => {
  vi.resetModules();
  handler = await import('../../../src/proxy/core/proxy');
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

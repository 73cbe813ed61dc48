import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Handler from '../../../../src/proxy/core/proxy';
import { PAGE, PROXY_BASE, setup } from '../../../helpers/proxy';

/** The routes the proxy answers, and the exact 404 or 405 (with `Allow`) for anything else. */
describe('proxy routes: the allowlist', () => {
  it.each([
    ['PUT', '/conversations', 405, 'GET, POST'],
    ['PUT', '/messages', 405, 'GET, POST'],
    ['DELETE', '/messages', 405, 'GET, POST'],
    ['GET', '/messages/stream', 405, 'POST'],
    ['POST', '/stream/abc', 405, 'GET'],
    ['POST', '/health', 405, 'GET'],
    ['GET', '/conversations/abcdefabcdef', 405, 'DELETE'],
    ['POST', '/conversations/abcdefabcdef', 405, 'DELETE'],
    ['DELETE', '/conversations', 405, 'GET, POST'],
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

/** The challenge route takes no id. */
describe('the challenge route', () => {
  // Imported afresh for each test: the route table is read when the module loads, and a runner that keeps
  // modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first.
  let handler: typeof Handler;
  beforeEach(async () => {
    vi.resetModules();
    handler = await import('../../../../src/proxy/core/proxy');
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

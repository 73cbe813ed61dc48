import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../../../../demo/simulator/index';
import { createProxy, type ProxyHandler, type ProxyOptions } from '../../../../../src/proxy/core/proxy';
import { toNodeListener } from '../../../../../src/proxy/adapters/node/node';
import { API, SIM_KEY, setupSimulator } from '../../../../helpers/simulator';

/**
 * What the Node adapter hands a handler: a proxy `createProxy` made gets the request as read, with no fetch Request
 * constructed around it (the costliest object of a request on Node); a site's `authorize` hook and any other
 * handler get a fetch Request.
 */
const OriginalRequest = globalThis.Request;
let close: (() => void) | undefined;
afterEach(() => {
  globalThis.Request = OriginalRequest;
  close?.();
});

/** Serves `handler`; counts the fetch Requests constructed for the server's own URLs meanwhile. */
async function serve(handler: ProxyHandler) {
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => (server.closeAllConnections(), server.close());
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const counted = { requests: 0 };
  globalThis.Request = new Proxy(OriginalRequest, {
    construct(target, args: ConstructorParameters<typeof Request>) {
      if (String(args[0]).startsWith(origin)) counted.requests++;
      return Reflect.construct(target, args) as Request;
    },
  });
  return { origin, counted };
}

/** A proxy on loopback in front of the in-process simulator. */
function proxy(options: Partial<ProxyOptions> = {}) {
  const { sim } = setupSimulator({ defaults: { delayMs: 0 } });
  const fetch: typeof globalThis.fetch = async (input, init) => sim.handle(new OriginalRequest(input, init));
  return createProxy({
    apiKey: SIM_KEY,
    botIds: [DEMO_BOT_ID],
    upstream: API,
    secret: 'x'.repeat(32),
    fetch,
    ...options,
  });
}

/** Starts a conversation through the server at `origin`: its status and whether a grant came back. */
async function start(origin: string) {
  const response = await fetch(`${origin}/askbox/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
  });
  const body = (await response.json()) as { meta?: { grant?: string } };
  return { status: response.status, granted: typeof body.meta?.grant === 'string' };
}

describe('toNodeListener and the request it hands over', () => {
  it('hands a proxy createProxy made the request as read, body and all, with no fetch Request around it', async () => {
    const { origin, counted } = await serve(proxy());
    expect(await start(origin)).toEqual({ status: 200, granted: true });
    expect(counted.requests).toBe(0);
  });

  it("hands the site's authorize hook a fetch Request, and the route then reads that one's body", async () => {
    const seen: unknown[] = [];
    const authorize = async (request: Request) => {
      // A hook may read the body too, from a clone: the route must then read the Request the hook was given.
      seen.push(request instanceof OriginalRequest, await request.clone().text());
      return true;
    };
    const { origin } = await serve(proxy({ authorize }));
    expect(await start(origin)).toEqual({ status: 200, granted: true });
    expect(seen).toEqual([true, JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID })]);
  });

  it('hands any other handler a fetch Request with the URL a Request spells', async () => {
    const seen: Request[] = [];
    const { origin } = await serve(async (request) => (seen.push(request), new Response('ok')));
    await (await fetch(`${origin}/a/../b%7e?q=1`)).text();
    expect(seen[0]).toBeInstanceOf(OriginalRequest);
    expect(seen[0]?.url).toBe(`${origin}/b%7e?q=1`);
  });
});

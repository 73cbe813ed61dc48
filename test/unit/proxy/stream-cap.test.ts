import { describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../../demo/simulator/index';
import { createProxy, type ProxyOptions } from '../../../src/proxy/core/proxy';
import { API, SIM_KEY, setupSimulator } from '../../helpers/simulator';

/** `maxStreams`: the reply streams one process relays at once, and the 503 past them. */
const PAGE = 'http://127.0.0.1';

function setup(options: Partial<ProxyOptions> = {}) {
  const { sim } = setupSimulator({
    defaults: { delayMs: 0 },
    replies: [{ match: 'hold', text: 'held open '.repeat(10), chunkSize: 5, stallAfter: 1 }],
  });
  const proxy = createProxy({
    apiKey: SIM_KEY,
    botIds: [DEMO_BOT_ID],
    upstream: API,
    secret: 'stream-cap-test-secret-0123456789',
    limits: false,
    fetch: async (input, init) => sim.handle(new Request(input, init)),
    ...options,
  });
  const call = (method: string, path: string, body?: unknown, grant?: string) =>
    proxy(
      new Request(`${PAGE}/askbox${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(grant ? { 'x-askbox-grant': grant } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  const start = async () => {
    const { data, meta } = (await (
      await call('POST', '/conversations', { name: 'x', bot_id: DEMO_BOT_ID })
    ).json()) as {
      data: { id: string };
      meta: { grant: string };
    };
    /** Asks for a reply and opens its stream. */
    return async (content = 'hold') => {
      const asked = await call('POST', '/messages/stream', { content, conversation_id: data.id }, meta.grant);
      const location = asked.headers.get('location')!;
      return call('GET', location.slice('/askbox'.length), undefined, meta.grant);
    };
  };
  return { call, start };
}

describe('maxStreams', () => {
  it('refuses a stream past the cap with a 503 in the envelope and Retry-After, until one ends', async () => {
    const open = await setup({ maxStreams: 2 }).start();
    const held = [];
    for (const response of [await open(), await open()]) {
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('[START]');
      held.push(reader);
    }
    const refused = await open();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.headers.get('content-type')).toBe('application/json');
    expect(await refused.json()).toEqual({ message: 'The chat is busy. Please try again shortly.' });
    // A visitor who leaves frees a place.
    await held[0]!.cancel();
    const next = await open();
    expect(next.status).toBe(200);
    expect((await open()).status).toBe(503);
    await next.body!.cancel();
    await held[1]!.cancel();
  });

  it('frees the place of a stream read to its end, and counts no refused stream', async () => {
    const { call, start } = setup({ maxStreams: 1 });
    const open = await start();
    for (let i = 0; i < 3; i++) {
      const whole = await open('shipping?');
      expect(whole.status).toBe(200);
      expect(await whole.text()).toContain('[END]');
    }
    for (let i = 0; i < 3; i++) expect((await call('GET', '/stream/not-a-token')).status).toBe(404);
    const held = await open();
    expect(held.status).toBe(200);
    await held.body!.cancel();
  });

  it('is off by default', async () => {
    const open = await setup().start();
    const held = await Promise.all(Array.from({ length: 20 }, () => open()));
    expect(held.map((response) => response.status)).toEqual(Array(20).fill(200));
    await Promise.all(held.map((response) => response.body!.cancel()));
  });

  it.each([0, -1, 1.5, Number.NaN])('is refused at startup when it is %s', (maxStreams) => {
    expect(() => setup({ maxStreams })).toThrow(/maxStreams/);
  });
});

import { describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../../../demo/simulator/index';
import { createProxy, type ProxyOptions } from '../../../../src/proxy/core/proxy';
import { API, SIM_KEY, setupSimulator } from '../../../helpers/simulator';
import { createStreamCap } from '../../../../src/proxy/core/stream-cap';
import { watchBody } from '../../../../src/proxy/core/upstream';

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

/**
 * The handler hands the cap only bodies it watches, so the cases above never reach a failed route, an event stream
 * without a body, or a body the cap must track itself (a runtime adapter or a site's own route may hand it one). Each
 * case asks whether the place was freed by opening the next stream.
 */
const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };
/** Resolves once the microtasks queued so far (and those they queue) have run: a macrotask later. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** An event stream whose source the test drives: `pulls` counts the reads it was asked for. */
function source() {
  let control!: ReadableStreamDefaultController<Uint8Array>;
  const seen = { pulls: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => void (control = c),
      pull: () => void seen.pulls++,
    },
    { highWaterMark: 0 },
  );
  return { body, control, seen };
}

/** A stream answer through `cap`, from a fresh source. */
async function openThrough(cap: ReturnType<typeof createStreamCap>) {
  const { body, control, seen } = source();
  const response = await cap(async () => new Response(body, { headers: SSE }));
  return { response, control, seen };
}

describe('the stream cap', () => {
  it('frees the place of a route that failed, and lets its error through', async () => {
    const cap = createStreamCap(1);
    const failure = new Error('upstream gone');
    await expect(cap(() => Promise.reject(failure))).rejects.toBe(failure);
    expect((await openThrough(cap)).response.status).toBe(200);
    expect((await openThrough(cap)).response.status).toBe(503);
  });

  it.each([
    ['a JSON answer', () => Response.json({ message: 'x' }, { status: 404 })],
    ['a body without a content type', () => new Response(new ReadableStream())],
    ['an event stream without a body', () => new Response(null, { status: 204, headers: SSE })],
  ])('frees the place at once for %s', async (_name, answer) => {
    const cap = createStreamCap(1);
    for (let i = 0; i < 3; i++) expect((await cap(async () => answer())).status).not.toBe(503);
    expect((await openThrough(cap)).response.status).toBe(200);
  });

  it('holds a body it did not make until it is read to its end, then frees the place once', async () => {
    const cap = createStreamCap(1);
    const { response, control, seen } = await openThrough(cap);
    // Nothing is read ahead of the visitor: the relay pulls only when its reader asks. A pull would be asked in a
    // microtask; they have all run by the next macrotask.
    await settled();
    expect(seen.pulls).toBe(0);
    expect((await openThrough(cap)).response.status).toBe(503);
    const reader = response.body!.getReader();
    control.enqueue(new TextEncoder().encode('data: x\n\n'));
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: x\n\n');
    expect((await openThrough(cap)).response.status).toBe(503);
    control.close();
    expect((await reader.read()).done).toBe(true);
    await reader.cancel();
    // One place, freed once: the next stream is let in, the one after it is not.
    expect((await openThrough(cap)).response.status).toBe(200);
    expect((await openThrough(cap)).response.status).toBe(503);
  });

  it('frees the place when the visitor leaves, and tells the source why', async () => {
    const cap = createStreamCap(1);
    let reason: unknown;
    const body = new ReadableStream<Uint8Array>({ cancel: (why) => void (reason = why) });
    const response = await cap(async () => new Response(body, { headers: SSE }));
    await response.body!.cancel('left');
    expect(reason).toBe('left');
    expect((await openThrough(cap)).response.status).toBe(200);
    expect((await openThrough(cap)).response.status).toBe(503);
  });

  it('frees the place once when the visitor leaves while a read is pending', async () => {
    const cap = createStreamCap(1);
    const { response } = await openThrough(cap);
    const reader = response.body!.getReader();
    const read = reader.read();
    await reader.cancel('left');
    expect((await read).done).toBe(true);
    // The place is freed in the microtasks that follow the cancel: all run by the next macrotask.
    await settled();
    expect((await openThrough(cap)).response.status).toBe(200);
    expect((await openThrough(cap)).response.status).toBe(503);
  });

  it('hands a body the handler watches back untouched, so a runtime adapter can relay it natively', async () => {
    const cap = createStreamCap(1);
    const watched = watchBody(
      new Response('data: x\n\n').body!,
      { firstMs: 1e4, idleMs: 1e4, totalMs: 1e4 },
      { onTimeout: () => {} },
    );
    const response = await cap(async () => new Response(watched, { headers: SSE }));
    expect(response.body).toBe(watched);
    expect((await openThrough(cap)).response.status).toBe(503);
    await response.text();
    expect((await openThrough(cap)).response.status).toBe(200);
  });

  it('frees the place when the source fails, and passes the failure on', async () => {
    const cap = createStreamCap(1);
    const { response, control } = await openThrough(cap);
    const failure = new Error('cut');
    const reader = response.body!.getReader();
    const read = reader.read();
    control.error(failure);
    await expect(read).rejects.toBe(failure);
    expect((await openThrough(cap)).response.status).toBe(200);
    expect((await openThrough(cap)).response.status).toBe(503);
  });

  it('keeps the answer’s status and headers on a tracked body', async () => {
    const cap = createStreamCap(2);
    const { response } = await openThrough(cap);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(SSE['content-type']);
  });
});

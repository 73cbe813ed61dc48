import { describe, expect, it } from 'vitest';
import { createStreamCap } from '../../../src/proxy/core/stream-cap';
import { watchBody } from '../../../src/proxy/core/upstream';

/**
 * The stream cap on its own (issue 18): the handler hands it only bodies it watches, so its feature test never
 * reaches a failed route, an event stream without a body, or a body the cap must track itself (a runtime adapter or
 * a site's own route may hand it one). Each case asks whether the place was freed by opening the next stream.
 */
const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };

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
    // Nothing is read ahead of the visitor: the relay pulls only when its reader asks.
    await new Promise((resolve) => setTimeout(resolve, 10));
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
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await openThrough(cap)).response.status).toBe(200);
    expect((await openThrough(cap)).response.status).toBe(503);
  });

  it('hands a body the handler watches back untouched, so a runtime adapter can relay it natively', async () => {
    const cap = createStreamCap(1);
    const watched = watchBody(new Response('data: x\n\n').body!, { firstMs: 1e4, idleMs: 1e4, totalMs: 1e4 }, () => {});
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

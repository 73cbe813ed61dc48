import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchWithin, onBodyEnd, startDeadlines, takeWatch, watchBody } from '../../../src/proxy/core/upstream';

/**
 * src/proxy/upstream.ts on its own, for what proxy-io.test.ts leaves open (the Stryker survivors): JSON answers at
 * exactly the cap, in several chunks, without a body; a body's timers after it ends; the watch a native relay takes.
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A body of these chunks, counting the reads asked of it and telling whether (and why) it was cancelled. */
function source(chunks: string[] = [], close = true) {
  const state = { pulls: 0, cancelled: undefined as unknown, close: () => undefined as void };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        state.close = () => controller.close();
        if (close) controller.close();
      },
      pull: () => void state.pulls++,
      cancel: (reason) => void (state.cancelled = reason ?? 'cancelled'),
    },
    { highWaterMark: 0 },
  );
  return { body, state };
}

const json = (body: BodyInit | null, init: ResponseInit = {}) =>
  new Response(body, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
const answer = (response: Response, max?: number) =>
  fetchWithin(async () => response, 'http://up.test', {}, 5000, undefined, max);

/** A service that never answers, until the call is given up. */
const hang: typeof fetch = (_input, init) =>
  new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));

/** Resolves after `ms`. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('JSON answers at the edges of the cap', () => {
  it('hands on an answer of exactly the cap, declared or counted, whole and in order across chunks', async () => {
    const declared = await answer(json(source(['{"a":', '1', '}']).body, { headers: { 'content-length': '7' } }), 7);
    expect(await declared.text()).toBe('{"a":1}');
    expect(await (await answer(json(source(['{"a":', '1', '}']).body), 7)).text()).toBe('{"a":1}');
    expect((await answer(json(source(['{"a":', '1', '}']).body), 6)).status).toBe(502);
    expect((await answer(json('{"a":1}', { headers: { 'content-length': '8' } }), 7)).status).toBe(502);
  });

  it('keeps the status text, and hands on an answer without a body or a content type as it is', async () => {
    const read = await answer(json('{}', { status: 404, statusText: 'Not Found' }));
    expect([read.status, read.statusText, await read.text()]).toEqual([404, 'Not Found', '{}']);
    const empty = json(null, { status: 200 });
    expect(await answer(empty)).toBe(empty);
    const untyped = new Response(null, { status: 204 });
    expect(await answer(untyped)).toBe(untyped);
  });
});

describe('watched bodies', () => {
  const short = { firstMs: 40, idleMs: 1000, totalMs: 120 };

  it('read nothing until asked', async () => {
    const { body, state } = source([], false);
    const watched = watchBody(body, short, () => undefined);
    await sleep(10);
    expect(state.pulls).toBe(0);
    await watched.cancel();
  });

  it('leave no timer behind once they end: no timeout is reported later', async () => {
    const heard: string[] = [];
    let firsts = 0;
    const { body } = source(['a']);
    const reader = watchBody(
      body,
      short,
      (what) => heard.push(what),
      () => firsts++,
    ).getReader();
    expect(decoder.decode((await reader.read()).value)).toBe('a');
    expect((await reader.read()).done).toBe(true);
    await sleep(250);
    expect([heard, firsts]).toEqual([[], 1]);
  });

  it('end at the total deadline when it comes before the first-byte one', async () => {
    const heard: string[] = [];
    const started = Date.now();
    const reader = watchBody(source([], false).body, { firstMs: 5000, idleMs: 5000, totalMs: 40 }, (what) =>
      heard.push(what),
    ).getReader();
    await expect(reader.read()).rejects.toThrow('the stream reached its maximum duration');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(heard).toEqual(['the stream reached its maximum duration']);
  });

  it('pass a cancel on to the service, with its reason, and run what waits for their end once', async () => {
    const { body, state } = source(['a'], false);
    const watched = watchBody(body, short, () => undefined);
    let ended = 0;
    expect(onBodyEnd(watched, () => ended++)).toBe(true);
    expect(onBodyEnd(body, () => ended++)).toBe(false);
    await watched.cancel('visitor left');
    expect([state.cancelled, ended]).toEqual(['visitor left', 1]);
    await sleep(150);
    expect(ended).toBe(1);
  });
});

describe('takeWatch', () => {
  it('hands a native relay the unread source, unlocked, with the deadlines, once; its own timers stop', async () => {
    const heard: string[] = [];
    const { body } = source(['a'], false);
    const watched = watchBody(body, deadlines(), (what) => heard.push(what));
    let ended = 0;
    onBodyEnd(watched, () => ended++);
    expect(takeWatch(watched, () => false)).toBeUndefined();
    const taken = takeWatch(watched, (s) => s === body);
    expect(taken?.source).toBe(body);
    expect(body.locked).toBe(false);
    expect(taken?.deadlines).toEqual(deadlines());
    expect(takeWatch(watched, () => true)).toBeUndefined();
    await sleep(100);
    expect([heard, ended]).toEqual([[], 0]);
    taken?.end();
    expect(ended).toBe(1);
    taken?.onTimeout('x');
    expect(heard).toEqual(['x']);
  });

  it('turns down a body it did not watch, or one already being read', () => {
    expect(takeWatch(source().body, () => true)).toBeUndefined();
    const watched = watchBody(source(['a'], false).body, deadlines(), () => undefined);
    const reader = watched.getReader();
    expect(takeWatch(watched, () => true)).toBeUndefined();
    void reader.cancel();
  });
});

function deadlines() {
  return { firstMs: 30, idleMs: 1000, totalMs: 5000 };
}

describe('watched bodies at the edges of their deadlines', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('call a body that reaches its total deadline on the very millisecond just that, not silent', async () => {
    vi.useFakeTimers();
    const heard: string[] = [];
    const clock = startDeadlines({ firstMs: 5000, idleMs: 5000, totalMs: 100 }, (what) => heard.push(what));
    vi.advanceTimersByTime(100);
    clock.stop();
    expect(heard).toEqual(['the stream reached its maximum duration']);
  });

  it('call a body whose first byte is due on the very millisecond late, once', async () => {
    vi.useFakeTimers();
    const heard: string[] = [];
    const clock = startDeadlines({ firstMs: 100, idleMs: 5000, totalMs: 5000 }, (what) => heard.push(what));
    vi.advanceTimersByTime(100);
    clock.stop();
    expect(heard).toEqual(['no first byte in time']);
  });
});

describe('watched bodies that break', () => {
  it('pass the error on and end once', async () => {
    const broken = new ReadableStream<Uint8Array>({ pull: (controller) => controller.error(new TypeError('reset')) });
    const watched = watchBody(broken, deadlines(), () => undefined);
    let ended = 0;
    onBodyEnd(watched, () => ended++);
    await expect(watched.getReader().read()).rejects.toThrow('reset');
    expect(ended).toBe(1);
  });

  it('are not ended by a read of the watched body once a native relay took the watch over', async () => {
    const { body } = source(['a'], false);
    const watched = watchBody(body, deadlines(), () => undefined);
    let ended = 0;
    onBodyEnd(watched, () => ended++);
    takeWatch(watched, () => true);
    void watched
      .getReader()
      .read()
      .catch(() => undefined);
    await sleep(20);
    expect(ended).toBe(0);
  });
});

it('fetchWithin names the URL it leaves out of an error, and its timeout by name', async () => {
  const url = 'http://stream.test/stream/secret-token-123';
  const quoting: typeof fetch = async () => {
    throw new TypeError(`Failed to parse URL from ${url}`);
  };
  await expect(fetchWithin(quoting, url, {}, 1000, undefined)).rejects.toThrow(
    'Failed to parse URL from [upstream URL]',
  );
  await expect(fetchWithin(hang, 'http://up.test', {}, 10, undefined)).rejects.toMatchObject({
    name: 'UpstreamTimeout',
  });
});

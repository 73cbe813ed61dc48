import { getEventListeners } from 'node:events';
import { describe, expect, it, vi, afterEach } from 'vitest';
import { jsonDepth, MAX_BODY_BYTES, passThrough, readJson, readText } from '../../../../src/proxy/core/respond';
import {
  fetchWithin,
  MAX_JSON_BYTES,
  UpstreamTimeout,
  watchBody,
  onBodyEnd,
  startDeadlines,
  takeWatch,
} from '../../../../src/proxy/core/upstream';

/**
 * The proxy's I/O edges on their own: request bodies read within bounds, service answers re-wrapped, and the
 * deadlines that keep a silent service from holding a connection.
 */
const encoder = new TextEncoder();

/** A request whose body arrives in `chunks`, with no declared length (as a chunked upload does). */
function streamed(chunks: Uint8Array[], type = 'application/json'): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Request('http://proxy.test/x', {
    method: 'POST',
    headers: { 'content-type': type },
    body,
    duplex: 'half',
  } as RequestInit);
}

/** An upstream body whose chunks the test pushes; `cancelled` tells whether the proxy gave up on it. */
function pushable() {
  const state = { cancelled: false, push: (_text: string) => undefined as void, end: () => undefined as void };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      state.push = (text) => controller.enqueue(encoder.encode(text));
      state.end = () => controller.close();
    },
    cancel: () => void (state.cancelled = true),
  });
  return { body, state };
}

/** A service that never answers, until the call is given up. */
const hang: typeof fetch = (_input, init) =>
  new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));

/** A service that answers with a reply stream. */
const eventStream: typeof fetch = async () => new Response('data: x\n\n');

/** A service that cannot be reached. */
const broken: typeof fetch = async () => {
  throw new TypeError('fetch failed');
};

describe('request bodies', () => {
  it('reads up to the limit, chunk by chunk, keeping characters split across chunks whole', async () => {
    const bytes = encoder.encode('{"content":"héllo"}');
    const split = bytes.indexOf(0xc3) + 1;
    expect(await readText(streamed([bytes.slice(0, split), bytes.slice(split)]), 64)).toBe('{"content":"héllo"}');
    const full = new Uint8Array(MAX_BODY_BYTES).fill(0x20);
    expect((await readText(streamed([full.slice(0, 1000), full.slice(1000)]), MAX_BODY_BYTES))?.length).toBe(
      MAX_BODY_BYTES,
    );
    expect(await readText(streamed([full, encoder.encode(' ')]), MAX_BODY_BYTES)).toBeNull();
    const declared = new Request('http://proxy.test/x', {
      method: 'POST',
      headers: { 'content-length': String(MAX_BODY_BYTES + 1) },
      body: '{}',
    });
    expect(await readText(declared, MAX_BODY_BYTES)).toBeNull();
    expect(await readText(new Request('http://proxy.test/x', { method: 'POST' }), 64)).toBe('');
  });

  it('takes application/json in any case, with parameters, and nothing that merely starts like it', async () => {
    for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/json ;charset=utf-8'])
      expect(await readJson(streamed([encoder.encode('{"a":1}')], type)), type).toEqual({ a: 1 });
    for (const type of ['application/jsonp', 'text/application/json', 'application/json-patch+json', '']) {
      const refused = await readJson(streamed([encoder.encode('{"a":1}')], type));
      expect(refused instanceof Response && refused.status, type).toBe(415);
    }
  });

  it('measures nesting outside strings only, closing brackets included', () => {
    expect(jsonDepth('{"a":[[]],"b":[[]],"c":[[]]}')).toBe(3);
    expect(jsonDepth('{"a":"[[[[[[{{{{"}')).toBe(1);
    expect(jsonDepth('{"a":"\\"[[[[[["}')).toBe(1);
    expect(jsonDepth('{"a":"\\\\","b":[[[[]]]]}')).toBe(5);
    expect(jsonDepth('')).toBe(0);
  });
});

describe('service answers', () => {
  it('keep status and JSON body with its exact type, and only that header', async () => {
    const answer = await passThrough(
      new Response('{"data":[]}', {
        status: 201,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-trace': 'abc' },
      }),
    );
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('x-trace')).toBeNull();
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await answer.text()).toBe('{"data":[]}');
  });

  it('become a JSON error when they are not JSON: a 502 for a success, the same status for an error', async () => {
    let cancelled = 0;
    const html = (status: number) =>
      new Response(
        new ReadableStream({ cancel: () => void cancelled++ }),
        status === 204 ? { status } : { status, headers: { 'content-type': 'text/html' } },
      );
    const ok = await passThrough(html(200));
    expect(ok.status).toBe(502);
    expect(await ok.json()).toEqual({ message: 'The chat service sent an unexpected response.' });
    const down = await passThrough(html(503));
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ message: 'The chat service could not handle the request.' });
    expect(cancelled).toBe(2);
  });
});

describe('deadlines', () => {
  it('fetchWithin gives up after its deadline with UpstreamTimeout, and passes other failures on', async () => {
    const started = Date.now();
    await expect(fetchWithin({ fetch: hang, url: 'http://up.test', init: {}, ms: 40 })).rejects.toThrow(
      new UpstreamTimeout('no answer within 40 ms'),
    );
    expect(Date.now() - started).toBeLessThan(500);
    await expect(fetchWithin({ fetch: broken, url: 'http://up.test', init: {}, ms: 1000 })).rejects.toThrow(TypeError);
  });

  it('fetchWithin aborts the service call when the visitor leaves, before or during it', async () => {
    const seen: (AbortSignal | undefined)[] = [];
    const watched: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        seen.push(init?.signal ?? undefined);
        init?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
        if (init?.signal?.aborted) reject(new Error('aborted'));
      });
    const gone = AbortSignal.abort();
    await expect(
      fetchWithin({ fetch: watched, url: 'http://up.test', init: {}, ms: 5000, signal: gone }),
    ).rejects.toThrow('aborted');
    const visitor = new AbortController();
    const pending = fetchWithin({ fetch: watched, url: 'http://up.test', init: {}, ms: 5000, signal: visitor.signal });
    visitor.abort();
    await expect(pending).rejects.toThrow('aborted');
    expect(seen.every((signal) => signal?.aborted)).toBe(true);
  });

  it.each([
    ['no first byte in time', { firstMs: 30, idleMs: 5000, totalMs: 5000 }, [] as string[]],
    ['the stream went silent', { firstMs: 5000, idleMs: 30, totalMs: 5000 }, ['a']],
    ['the stream reached its maximum duration', { firstMs: 5000, idleMs: 5000, totalMs: 60 }, ['a']],
  ])('watchBody cuts a body when %s, says so, and cancels the service', async (what, deadlines, chunks) => {
    const { body, state } = pushable();
    const heard: string[] = [];
    const reader = watchBody(body, deadlines, { onTimeout: (reason) => heard.push(reason) }).getReader();
    for (const chunk of chunks) {
      state.push(chunk);
      expect(new TextDecoder().decode((await reader.read()).value)).toBe(chunk);
    }
    await expect(reader.read()).rejects.toThrow(new UpstreamTimeout(what));
    expect(heard).toEqual([what]);
    expect(state.cancelled).toBe(true);
  });

  it('watchBody hands a timely body on whole, and ends with it', async () => {
    const { body, state } = pushable();
    const reader = watchBody(
      body,
      { firstMs: 200, idleMs: 200, totalMs: 1000 },
      { onTimeout: () => undefined },
    ).getReader();
    const texts: string[] = [];
    for (const chunk of ['a', 'b', 'c']) {
      // The service's pacing, the behaviour under test: each chunk comes a little after the read that waits for it.
      setTimeout(() => state.push(chunk), 20);
      texts.push(new TextDecoder().decode((await reader.read()).value));
    }
    state.end();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    expect(texts).toEqual(['a', 'b', 'c']);
    expect(state.cancelled).toBe(false);
  });
  it('fetchWithin leaves no listener on the visitor’s signal, whether the call succeeds or fails', async () => {
    const visitor = new AbortController();
    for (let i = 0; i < 20; i++) {
      await fetchWithin({ fetch: eventStream, url: 'http://up.test', init: {}, ms: 1000, signal: visitor.signal });
      await fetchWithin({ fetch: broken, url: 'http://up.test', init: {}, ms: 1000, signal: visitor.signal }).catch(
        () => undefined,
      );
    }
    expect(getEventListeners(visitor.signal, 'abort')).toHaveLength(0);
  });

  it('watchBody sets a timer or two for a whole stream (the first chunk moves the deadline), not one per chunk, and still hands every chunk on', async () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    try {
      const { body, state } = pushable();
      const reader = watchBody(
        body,
        { firstMs: 5000, idleMs: 5000, totalMs: 60_000 },
        { onTimeout: () => undefined },
      ).getReader();
      let text = '';
      for (let i = 0; i < 500; i++) {
        state.push(`${i % 10}`);
        text += new TextDecoder().decode((await reader.read()).value);
      }
      state.end();
      expect((await reader.read()).done).toBe(true);
      expect(text).toBe('0123456789'.repeat(50));
      expect(spy.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('watchBody keeps a stream whose chunks come within the idle deadline, however long the gaps add up', async () => {
    const { body, state } = pushable();
    // Gaps of a tenth of the idle deadline, adding up to more than it (with room for a busy machine's timers).
    const reader = watchBody(
      body,
      { firstMs: 1000, idleMs: 1000, totalMs: 8000 },
      { onTimeout: () => undefined },
    ).getReader();
    for (let i = 0; i < 12; i++) {
      setTimeout(() => state.push('x'), 100);
      expect((await reader.read()).value).toBeDefined();
    }
    await expect(reader.read()).rejects.toThrow(new UpstreamTimeout('the stream went silent'));
  });
});

/** A JSON body of `total` bytes made on demand, counting what was pulled from it. */
function hugeJson(total: number, declare: boolean) {
  const block = new Uint8Array(64 * 1024).fill(0x20);
  const state = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= total) return controller.close();
      state.pulled += block.length;
      controller.enqueue(block);
    },
    cancel: () => void (state.cancelled = true),
  });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (declare) headers['content-length'] = String(total);
  return { response: new Response(body, { headers }), state };
}

describe('JSON answers', () => {
  it.each([
    ['declared', true],
    ['undeclared (chunked)', false],
  ])(
    'over the cap (100 MB, %s) become a 502 in the envelope, having read no more than the cap',
    async (_what, declare) => {
      const { response, state } = hugeJson(100 * 1024 * 1024, declare);
      const heap = process.memoryUsage();
      const answer = await fetchWithin({ fetch: async () => response, url: 'http://up.test', init: {}, ms: 5000 });
      expect(answer.status).toBe(502);
      expect(await answer.json()).toEqual({ message: 'The chat service sent an unexpected response.' });
      expect(state.cancelled).toBe(true);
      expect(state.pulled).toBeLessThanOrEqual(MAX_JSON_BYTES + 2 * 64 * 1024);
      const grown = process.memoryUsage();
      expect(grown.arrayBuffers - heap.arrayBuffers).toBeLessThan(8 * 1024 * 1024);
    },
  );

  it('up to the cap are handed on whole, with their status and headers', async () => {
    const text = JSON.stringify({ data: 'x'.repeat(MAX_JSON_BYTES - 20) });
    expect(text.length).toBeLessThanOrEqual(MAX_JSON_BYTES);
    const upstream = new Response(text, { status: 201, headers: { 'content-type': 'application/json', 'x-a': '1' } });
    const answer = await fetchWithin({ fetch: async () => upstream, url: 'http://up.test', init: {}, ms: 5000 });
    expect([answer.status, answer.headers.get('x-a'), await answer.text()]).toEqual([201, '1', text]);
  });

  it('that dribble past the deadline are a timeout', async () => {
    // As fetch does, aborting the call errors the body being read.
    const upstream: typeof fetch = async (_url, init) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode('{"data":'));
          init?.signal?.addEventListener('abort', () => controller.error(new Error('aborted')));
        },
      });
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    };
    await expect(fetchWithin({ fetch: upstream, url: 'http://up.test', init: {}, ms: 50 })).rejects.toThrow(
      new UpstreamTimeout('no answer within 50 ms'),
    );
  });

  it('errors never carry the URL called (a stream URL is a capability)', async () => {
    const url = 'http://stream.test/stream/secret-token-123';
    const quoting: typeof fetch = async () => {
      throw new TypeError(`Failed to parse URL from ${url}`);
    };
    const error = await fetchWithin({ fetch: quoting, url, init: {}, ms: 1000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('TypeError');
    expect((error as Error).message).not.toContain('secret-token-123');
  });
});

/**
 * JSON answers at exactly the cap, in several chunks, without a body; a body's timers after it ends; the watch a
 * native relay takes.
 */
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
  fetchWithin({ fetch: async () => response, url: 'http://up.test', init: {}, ms: 5000, maxJsonBytes: max });

/** Resolves once the microtasks queued so far (and those they queue) have run: a macrotask later. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

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
  afterEach(() => {
    vi.useRealTimers();
  });

  it('read nothing until asked', async () => {
    const { body, state } = source([], false);
    const watched = watchBody(body, short, { onTimeout: () => undefined });
    // A pull would be asked in a microtask of the stream's start: they have all run by the next macrotask.
    await settled();
    expect(state.pulls).toBe(0);
    await watched.cancel();
  });

  it('leave no timer behind once they end: no timeout is reported later', async () => {
    vi.useFakeTimers();
    const heard: string[] = [];
    let firsts = 0;
    const { body } = source(['a']);
    const reader = watchBody(body, short, {
      onTimeout: (what) => heard.push(what),
      onFirst: () => firsts++,
    }).getReader();
    expect(decoder.decode((await reader.read()).value)).toBe('a');
    expect((await reader.read()).done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(short.totalMs * 10);
    expect([heard, firsts]).toEqual([[], 1]);
  });

  it('end at the total deadline when it comes before the first-byte one', async () => {
    const heard: string[] = [];
    const started = Date.now();
    const reader = watchBody(
      source([], false).body,
      { firstMs: 5000, idleMs: 5000, totalMs: 40 },
      { onTimeout: (what) => heard.push(what) },
    ).getReader();
    await expect(reader.read()).rejects.toThrow('the stream reached its maximum duration');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(heard).toEqual(['the stream reached its maximum duration']);
  });

  it('pass a cancel on to the service, with its reason, and run what waits for their end once', async () => {
    vi.useFakeTimers();
    const { body, state } = source(['a'], false);
    const watched = watchBody(body, short, { onTimeout: () => undefined });
    let ended = 0;
    expect(onBodyEnd(watched, () => ended++)).toBe(true);
    expect(onBodyEnd(body, () => ended++)).toBe(false);
    await watched.cancel('visitor left');
    expect([state.cancelled, ended]).toEqual(['visitor left', 1]);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(short.totalMs * 10);
    expect(ended).toBe(1);
  });
});

describe('takeWatch', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands a native relay the unread source, unlocked, with the deadlines, once; its own timers stop', async () => {
    vi.useFakeTimers();
    const heard: string[] = [];
    const { body } = source(['a'], false);
    const watched = watchBody(body, nearDeadlines(), { onTimeout: (what) => heard.push(what) });
    let ended = 0;
    onBodyEnd(watched, () => ended++);
    expect(takeWatch(watched, () => false)).toBeUndefined();
    const taken = takeWatch(watched, (s) => s === body);
    expect(taken?.source).toBe(body);
    expect(body.locked).toBe(false);
    expect(taken?.deadlines).toEqual(nearDeadlines());
    expect(takeWatch(watched, () => true)).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(nearDeadlines().totalMs * 2);
    expect([heard, ended]).toEqual([[], 0]);
    taken?.end();
    expect(ended).toBe(1);
    taken?.onTimeout('x');
    expect(heard).toEqual(['x']);
  });

  it('turns down a body it did not watch, or one already being read', () => {
    expect(takeWatch(source().body, () => true)).toBeUndefined();
    const watched = watchBody(source(['a'], false).body, nearDeadlines(), { onTimeout: () => undefined });
    const reader = watched.getReader();
    expect(takeWatch(watched, () => true)).toBeUndefined();
    void reader.cancel();
  });
});

function nearDeadlines() {
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
    const failing = new ReadableStream<Uint8Array>({ pull: (controller) => controller.error(new TypeError('reset')) });
    const watched = watchBody(failing, nearDeadlines(), { onTimeout: () => undefined });
    let ended = 0;
    onBodyEnd(watched, () => ended++);
    await expect(watched.getReader().read()).rejects.toThrow('reset');
    expect(ended).toBe(1);
  });

  it('are not ended by a read of the watched body once a native relay took the watch over', async () => {
    const { body } = source(['a'], false);
    const watched = watchBody(body, nearDeadlines(), { onTimeout: () => undefined });
    let ended = 0;
    onBodyEnd(watched, () => ended++);
    takeWatch(watched, () => true);
    void watched
      .getReader()
      .read()
      .catch(() => undefined);
    // Whatever the read sets off runs in microtasks: all done by the next macrotask.
    await settled();
    expect(ended).toBe(0);
  });
});

it('fetchWithin names the URL it leaves out of an error, and its timeout by name', async () => {
  const url = 'http://stream.test/stream/secret-token-123';
  const quoting: typeof fetch = async () => {
    throw new TypeError(`Failed to parse URL from ${url}`);
  };
  await expect(fetchWithin({ fetch: quoting, url, init: {}, ms: 1000 })).rejects.toThrow(
    'Failed to parse URL from [upstream URL]',
  );
  await expect(fetchWithin({ fetch: hang, url: 'http://up.test', init: {}, ms: 10 })).rejects.toMatchObject({
    name: 'UpstreamTimeout',
  });
});

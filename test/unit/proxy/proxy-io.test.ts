import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { jsonDepth, MAX_BODY_BYTES, passThrough, readJson, readText } from '../../../src/proxy/core/respond';
import { fetchWithin, MAX_JSON_BYTES, UpstreamTimeout, watchBody } from '../../../src/proxy/core/upstream';

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
    await expect(fetchWithin(hang, 'http://up.test', {}, 40, undefined)).rejects.toThrow(
      new UpstreamTimeout('no answer within 40 ms'),
    );
    expect(Date.now() - started).toBeLessThan(500);
    await expect(fetchWithin(broken, 'http://up.test', {}, 1000, undefined)).rejects.toThrow(TypeError);
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
    await expect(fetchWithin(watched, 'http://up.test', {}, 5000, gone)).rejects.toThrow('aborted');
    const visitor = new AbortController();
    const pending = fetchWithin(watched, 'http://up.test', {}, 5000, visitor.signal);
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
    const reader = watchBody(body, deadlines, (reason) => heard.push(reason)).getReader();
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
    const reader = watchBody(body, { firstMs: 200, idleMs: 200, totalMs: 1000 }, () => undefined).getReader();
    const texts: string[] = [];
    for (const chunk of ['a', 'b', 'c']) {
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
      await fetchWithin(eventStream, 'http://up.test', {}, 1000, visitor.signal);
      await fetchWithin(broken, 'http://up.test', {}, 1000, visitor.signal).catch(() => undefined);
    }
    expect(getEventListeners(visitor.signal, 'abort')).toHaveLength(0);
  });

  it('watchBody sets a timer or two for a whole stream (the first chunk moves the deadline), not one per chunk, and still hands every chunk on', async () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    try {
      const { body, state } = pushable();
      const reader = watchBody(body, { firstMs: 5000, idleMs: 5000, totalMs: 60_000 }, () => undefined).getReader();
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
    const reader = watchBody(body, { firstMs: 1000, idleMs: 1000, totalMs: 8000 }, () => undefined).getReader();
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
      const answer = await fetchWithin(async () => response, 'http://up.test', {}, 5000, undefined);
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
    const answer = await fetchWithin(async () => upstream, 'http://up.test', {}, 5000, undefined);
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
    await expect(fetchWithin(upstream, 'http://up.test', {}, 50, undefined)).rejects.toThrow(
      new UpstreamTimeout('no answer within 50 ms'),
    );
  });

  it('errors never carry the URL called (a stream URL is a capability)', async () => {
    const url = 'http://stream.test/stream/secret-token-123';
    const quoting: typeof fetch = async () => {
      throw new TypeError(`Failed to parse URL from ${url}`);
    };
    const error = await fetchWithin(quoting, url, {}, 1000, undefined).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('TypeError');
    expect((error as Error).message).not.toContain('secret-token-123');
  });
});

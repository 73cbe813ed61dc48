import { describe, expect, it } from 'vitest';
import { jsonDepth, MAX_BODY_BYTES, passThrough, readJson, readText } from '../../src/proxy/respond';
import { fetchWithin, UpstreamTimeout, watchBody } from '../../src/proxy/upstream';

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
});

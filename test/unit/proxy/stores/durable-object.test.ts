import { describe, expect, it, vi } from 'vitest';
import type { BucketCheck } from '../../../../src/proxy/core/limits';
import {
  AskboxLimits,
  createDurableObjectStore,
  isDurableObjectNamespace,
  LIMITS_OBJECT_NAME,
  type DurableObjectNamespaceLike,
} from '../../../../src/proxy/stores/durable-object';
import { namespaceOf } from '../../../helpers/durable-object';

/** The `AskboxLimits` Durable Object and the store over it, from source (the workerd contract runs the built bundle). */
const CHECK: BucketCheck = { key: 'msg:ip:192.0.2.1', capacity: 1, refillPerSecond: 1 / 60 };
const TAKE_URL = 'https://askbox-limits/take';

/** A take request to the object: a JSON body (or raw text) by POST, or a bare GET. */
function takeRequest(body: unknown, method: 'GET' | 'POST'): Request {
  if (method === 'GET') return new Request(TAKE_URL);
  return new Request(TAKE_URL, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
}

describe('the AskboxLimits Durable Object', () => {
  it('claims a key once until its TTL has passed', async () => {
    const object = new AskboxLimits();
    const claim = async (now: number, key = 'stream:a') => {
      const response = await object.fetch(
        new Request('https://askbox-limits/claim', { method: 'POST', body: JSON.stringify({ key, ttlMs: 1000, now }) }),
      );
      return ((await response.json()) as { claimed: boolean }).claimed;
    };
    expect(await claim(0)).toBe(true);
    expect(await claim(999)).toBe(false);
    expect(await claim(999, 'stream:b')).toBe(true);
    expect(await claim(1000)).toBe(true);
    for (const body of [
      { key: 1, ttlMs: 1, now: 1 },
      { key: 'k', ttlMs: -1, now: 1 },
      { key: 'k', ttlMs: 1 },
    ]) {
      const response = await object.fetch(
        new Request('https://askbox-limits/claim', { method: 'POST', body: JSON.stringify(body) }),
      );
      expect(response.status).toBe(400);
    }
  });

  it('takes from its buckets and answers the wait', async () => {
    const object = new AskboxLimits();
    const first = await object.fetch(takeRequest({ checks: [CHECK], now: 1000 }, 'POST'));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ wait: 0 });
    const second = await object.fetch(takeRequest({ checks: [CHECK], now: 1000 }, 'POST'));
    expect(await second.json()).toEqual({ wait: 60_000 });
  });

  it.each([
    ['a GET', undefined, 'GET'],
    ['no JSON', 'not json', 'POST'],
    ['no checks', { now: 1 }, 'POST'],
    ['checks that are not a list', { checks: CHECK, now: 1 }, 'POST'],
    ['a check without a key', { checks: [{ ...CHECK, key: 1 }], now: 1 }, 'POST'],
    ['a check of no capacity', { checks: [{ ...CHECK, capacity: 0 }], now: 1 }, 'POST'],
    ['a check whose capacity is text', { checks: [{ ...CHECK, capacity: '1' }], now: 1 }, 'POST'],
    ['a check that never refills', { checks: [{ ...CHECK, refillPerSecond: 0 }], now: 1 }, 'POST'],
    ['a check whose refill is text', { checks: [{ ...CHECK, refillPerSecond: '1' }], now: 1 }, 'POST'],
    ['a check that is null', { checks: [null], now: 1 }, 'POST'],
    ['no time', { checks: [CHECK] }, 'POST'],
    ['a time as text', { checks: [CHECK], now: '1' }, 'POST'],
  ] as const)('refuses %s with a 400', async (_name, body, method) => {
    const response = await new AskboxLimits().fetch(takeRequest(body, method));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Bad take.' });
  });

  it('refuses checks of infinite size and a time that is not a number', async () => {
    const object = new AskboxLimits();
    for (const body of [
      { checks: [{ ...CHECK, capacity: Number.POSITIVE_INFINITY }], now: 1 },
      { checks: [{ ...CHECK, refillPerSecond: Number.POSITIVE_INFINITY }], now: 1 },
      { checks: [CHECK], now: Number.NaN },
    ]) {
      // JSON cannot carry Infinity or NaN, so the test hands the parsed body to the object itself.
      const request = takeRequest({}, 'POST');
      vi.spyOn(request, 'json').mockResolvedValue(body);
      expect((await object.fetch(request)).status).toBe(400);
    }
  });
});

describe('the Durable Object store', () => {
  it('asks the one named object, with a stub per take, and returns its wait', async () => {
    const { namespace, names } = namespaceOf(new AskboxLimits());
    const store = createDurableObjectStore(namespace);
    expect(await store.take([CHECK], 1000)).toBe(0);
    expect(await store.take([CHECK], 1000)).toBe(60_000);
    expect(names).toEqual([LIMITS_OBJECT_NAME, LIMITS_OBJECT_NAME]);
    expect(LIMITS_OBJECT_NAME).toBe('askbox-limits');
  });

  it('prefixes every key with the site id, so two sites on one object never share a bucket or a claim', async () => {
    const { namespace } = namespaceOf(new AskboxLimits());
    const [one, two] = [createDurableObjectStore(namespace, 'one'), createDurableObjectStore(namespace, 'two')];
    expect(await one.take([CHECK], 1000)).toBe(0);
    expect(await two.take([CHECK], 1000)).toBe(0);
    expect(await one.take([CHECK], 1000)).toBe(60_000);
    expect(await one.claim('stream:x', 1000, 0)).toBe(true);
    expect(await two.claim('stream:x', 1000, 0)).toBe(true);
    expect(await two.claim('stream:x', 1000, 0)).toBe(false);
    const seen: string[] = [];
    const spy = namespaceOf({
      fetch: async (request) => (seen.push(await request.text()), Response.json({ wait: 0, claimed: true })),
    });
    await createDurableObjectStore(spy.namespace, 'shop').take([CHECK], 1);
    await createDurableObjectStore(spy.namespace).claim('k', 5, 1);
    expect(seen.map((body) => JSON.parse(body) as unknown)).toEqual([
      { checks: [{ ...CHECK, key: `shop:${CHECK.key}` }], now: 1 },
      { key: 'askbox:k', ttlMs: 5, now: 1 },
    ]);
  });

  it.each([
    ['an error status', () => Response.json({ wait: 0 }, { status: 500 })],
    ['no JSON', () => new Response('oops')],
    ['no wait', () => Response.json({})],
    ['a wait as text', () => Response.json({ wait: '0' })],
    ['a negative wait', () => Response.json({ wait: -1 })],
    ['null', () => Response.json(null)],
  ])('fails the take and the claim on %s', async (_name, answer) => {
    const { namespace } = namespaceOf({ fetch: async () => answer() });
    await expect(createDurableObjectStore(namespace).take([CHECK], 1)).rejects.toThrow(
      /^Durable Object limit store: unexpected answer \(\d+\)$/,
    );
    await expect(createDurableObjectStore(namespace).claim('k', 1, 1)).rejects.toThrow(/unexpected answer/);
  });

  it('tells a namespace binding from anything else bound under its name', () => {
    expect(isDurableObjectNamespace(namespaceOf(new AskboxLimits()).namespace)).toBe(true);
    for (const value of [
      undefined,
      null,
      'kv',
      {},
      { idFromName: () => 1 },
      { get: () => 1 },
      { idFromName: 1, get: 1 },
    ])
      expect(isDurableObjectNamespace(value)).toBe(false);
  });
});

/** A namespace whose one object answers `body` (raw text) and records the requests it gets. */
function answering(body: string) {
  const requests: Request[] = [];
  const namespace: DurableObjectNamespaceLike = {
    idFromName: (name) => name,
    get: () => ({
      fetch: async (input, init) => (requests.push(new Request(input, init)), new Response(body)),
    }),
  };
  return { namespace, requests };
}

/** The exact requests the store makes of the object, and the answers it refuses. */
describe('the Durable Object store on the wire', () => {
  it('POSTs JSON to the object’s take and claim paths', async () => {
    const { namespace, requests } = answering('{"wait":0,"claimed":true}');
    const store = createDurableObjectStore(namespace, 'shop');
    await store.take([CHECK], 1);
    await store.claim('k', 5, 1);
    expect(requests.map((r) => [r.method, r.url, r.headers.get('content-type')])).toEqual([
      ['POST', 'https://askbox-limits/take', 'application/json'],
      ['POST', 'https://askbox-limits/claim', 'application/json'],
    ]);
  });

  it('answers a take or a claim sent by any method but POST with a 400', async () => {
    const object = new AskboxLimits();
    for (const [path, body] of [
      ['take', { checks: [CHECK], now: 1 }],
      ['claim', { key: 'k', ttlMs: 1, now: 1 }],
    ] as const) {
      const response = await object.fetch(
        new Request(`https://askbox-limits/${path}`, { method: 'PUT', body: JSON.stringify(body) }),
      );
      expect(response.status).toBe(400);
    }
  });

  it('takes only at /take when every check is one, and claims only at /claim', async () => {
    const object = new AskboxLimits();
    for (const [path, checks] of [
      ['claim', [CHECK]],
      ['other', [CHECK]],
      ['take', [CHECK, { ...CHECK, capacity: 0 }]],
    ] as const) {
      const body = JSON.stringify({ checks, now: 1 });
      const response = await object.fetch(new Request(`https://askbox-limits/${path}`, { method: 'POST', body }));
      expect(response.status, path).toBe(400);
    }
    const claim = JSON.stringify({ key: 'k', ttlMs: 1, now: 1 });
    for (const path of ['take', 'other']) {
      const response = await object.fetch(
        new Request(`https://askbox-limits/${path}`, { method: 'POST', body: claim }),
      );
      expect(response.status, path).toBe(400);
    }
  });

  it('refuses an infinite wait, which JSON can carry as 1e999', async () => {
    const { namespace } = answering('{"wait":1e999}');
    await expect(createDurableObjectStore(namespace).take([CHECK], 1)).rejects.toThrow(/unexpected answer \(200\)/);
  });
});

import { describe, expect, it } from 'vitest';
import {
  AskboxLimits,
  createDurableObjectStore,
  type DurableObjectNamespaceLike,
} from '../../../src/proxy/stores/durable-object';
import type { BucketCheck } from '../../../src/proxy/core/limits';
import { createRedisStore } from '../../../src/proxy/stores/redis';
import { optionsFromEnv, parseJsonOptions } from '../../../src/proxy/adapters/workers/worker-env';

/**
 * The edges of the Worker's environment and the shared limit stores that their feature tests leave open (found by
 * Stryker, issue 18): numbers JSON can carry but no limit can be (1e999 parses to Infinity), the exact requests
 * the stores make, and their defaults.
 */
const CHECK: BucketCheck = { key: 'msg:ip:192.0.2.1', capacity: 2, refillPerSecond: 3 };
const SECRET = 'adapters-unit-secret-0123456789';

describe('the Worker environment', () => {
  it.each([
    ['{"limits":{"ipMessages":{"burst":1e999,"perMinute":1}}}', 'limits.ipMessages.burst must be a positive number'],
    ['{"limits":{"ipMessagesPerDay":1e999}}', 'limits.ipMessagesPerDay must be a positive number'],
    ['{"timeouts":{"idleMs":1e999}}', 'timeouts.idleMs must be a positive number of milliseconds'],
    ['{"grantTtlSeconds":1e999}', 'grantTtlSeconds must be a positive number of seconds'],
  ])('refuses an infinite number: %s', (text, message) => {
    expect(() => parseJsonOptions(text)).toThrow(message);
  });

  it('reads ASKBOX_PROOF_OF_WORK without the blanks around it, and refuses an infinite cost', () => {
    const env = { ASKBOX_SECRET: SECRET };
    expect(optionsFromEnv({ ...env, ASKBOX_PROOF_OF_WORK: ' true\n' }).proofOfWork).toBe(true);
    expect(optionsFromEnv({ ...env, ASKBOX_PROOF_OF_WORK: ' false ' }).proofOfWork).toBeUndefined();
    expect(optionsFromEnv({ ...env, ASKBOX_PROOF_OF_WORK: ' {"cost":5} ' }).proofOfWork).toEqual({ cost: 5 });
    expect(() => optionsFromEnv({ ...env, ASKBOX_PROOF_OF_WORK: '{"cost":1e999}' })).toThrow(
      'ASKBOX_PROOF_OF_WORK.cost must be a positive number',
    );
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

describe('the Durable Object store', () => {
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

describe('the Redis store', () => {
  it('keeps its keys under askbox:limit: unless told otherwise, and sends each bucket’s numbers', async () => {
    const calls: [string[], string[]][] = [];
    const store = createRedisStore({ eval: async (_script, keys, args) => (calls.push([keys, args]), 1) });
    expect(await store.claim('stream:t', 1500.2, 0)).toBe(true);
    expect(await store.take([CHECK, { ...CHECK, key: 'b' }], 7)).toBe(1);
    expect(calls).toEqual([
      [['askbox:limit:claim:stream:t'], ['1501']],
      [
        ['askbox:limit:msg:ip:192.0.2.1', 'askbox:limit:b'],
        ['7', '2', '0.003', expect.any(String), '2', '0.003', expect.any(String)],
      ],
    ]);
    expect(await store.claim('k', 0, 0)).toBe(true);
    expect(calls.at(-1)).toEqual([['askbox:limit:claim:k'], ['1']]);
  });

  it('asks nothing for no buckets, and reads a wait sent as text', async () => {
    let calls = 0;
    const store = createRedisStore({ eval: async () => (calls++, '250') });
    expect(await store.take([], 1)).toBe(0);
    expect(calls).toBe(0);
    expect(await store.take([CHECK], 1)).toBe(250);
    expect(await createRedisStore({ eval: async () => '0' }).claim('k', 1, 1)).toBe(false);
  });
});

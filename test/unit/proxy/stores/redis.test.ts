import { describe, expect, it } from 'vitest';
import type { BucketCheck } from '../../../../src/proxy/core/limits';
import { createRedisStore } from '../../../../src/proxy/stores/redis';

/**
 * The exact calls the Redis store makes, and its defaults (core/limits.test.ts runs the shared table of cases against
 * it on a real Redis).
 */
const CHECK: BucketCheck = { key: 'msg:ip:192.0.2.1', capacity: 2, refillPerSecond: 3 };

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

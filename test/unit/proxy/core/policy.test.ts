import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_BOT_ID } from '../../../../demo/simulator/index';
import type { BucketCheck, LimitStore } from '../../../../src/proxy/core/limits';
import { createMemoryStore } from '../../../../src/proxy/stores/memory';
import { resolveOptions } from '../../../../src/proxy/core/options';
import { createPolicy, StoreError } from '../../../../src/proxy/core/policy';
import { SECRET } from '../../../helpers/proxy';

/**
 * The policy's limit checks over a store that records what it is asked: the bucket keys are part of the wire
 * contract (`BUCKET_KEYS`), which every runtime's store uses, so a key that drifts splits or merges buckets.
 */
function setup(store: LimitStore = createMemoryStore(), storeMs = 1000) {
  const asked: string[][] = [];
  const claimed: string[] = [];
  const recording: LimitStore = {
    take: (checks: readonly BucketCheck[], now: number) => {
      asked.push(checks.map((check) => check.key));
      return store.take(checks, now);
    },
    claim: (key, ttlMs, now) => {
      claimed.push(key);
      return store.claim(key, ttlMs, now);
    },
  };
  const options = resolveOptions({
    apiKey: 'k',
    botIds: [DEMO_BOT_ID],
    secret: SECRET,
    store: recording,
    timeouts: { storeMs },
  });
  return { policy: createPolicy(options, undefined), asked, claimed };
}

/** A store that throws `reason` at every call (a Redis that went away). */
const failing = (reason: unknown): LimitStore => ({
  take: () => Promise.reject(reason),
  claim: () => Promise.reject(reason),
});

afterEach(() => void vi.useRealTimers());

describe('policy: the buckets each action takes from', () => {
  it('takes from the IP and the visitor buckets, by the contract keys', async () => {
    const { policy, asked } = setup();
    await policy.limit('message', '192.0.2.7', 'v1');
    await policy.limit('conversation', '192.0.2.7', 'v1');
    await policy.limit('action', '192.0.2.7', 'v1');
    expect(asked).toEqual([
      ['msg:ip:192.0.2.7', 'day:ip:192.0.2.7', 'msg:v:v1', 'day:v:v1'],
      ['conv:ip:192.0.2.7', 'conv:v:v1'],
      ['act:ip:192.0.2.7', 'act:v:v1'],
    ]);
  });

  it('takes from the IP buckets only when there is no visitor, never from one bucket shared by all of them', async () => {
    const { policy, asked } = setup();
    for (const action of ['message', 'conversation', 'action'] as const)
      await policy.limit(action, '192.0.2.8', undefined);
    expect(asked).toEqual([['msg:ip:192.0.2.8', 'day:ip:192.0.2.8'], ['conv:ip:192.0.2.8'], ['act:ip:192.0.2.8']]);
  });

  it('claims a stream token under its contract key', async () => {
    const { policy, claimed } = setup();
    expect(await policy.firstUse('0123456789abcdef')).toBe(true);
    expect(await policy.firstUse('0123456789abcdef')).toBe(false);
    expect(claimed).toEqual(['stream:0123456789abcdef', 'stream:0123456789abcdef']);
  });

  it('answers a refusal as JSON in the service envelope', async () => {
    const { policy } = setup();
    let refusal: Response | null = null;
    for (let i = 0; i < 100 && !refusal; i++) refusal = await policy.limit('action', '192.0.2.9', 'v2');
    expect(refusal?.status).toBe(429);
    expect(refusal?.headers.get('content-type')).toBe('application/json');
  });
});

describe('policy: the store deadline', () => {
  it('clears its timer once the store answers, so no timer outlives a request', async () => {
    vi.useFakeTimers();
    const { policy } = setup();
    expect(await policy.limit('message', '192.0.2.10', 'v3')).toBeNull();
    expect(await policy.firstUse('fedcba9876543210')).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('wraps what the store threw, keeping it as the cause, whatever was thrown', async () => {
    const failure = new Error('connection reset');
    const error = await setup(failing(failure))
      .policy.limit('message', '192.0.2.11', 'v4')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toEqual(expect.objectContaining({ store: 'limits', name: 'StoreError', cause: failure }));
    expect((error as StoreError).message).toBe('The limit store failed: connection reset');
    const odd = await setup(failing('busy'))
      .policy.firstUse('x')
      .catch((e: unknown) => e);
    expect(odd).toEqual(expect.objectContaining({ cause: 'busy', message: 'The limit store failed: busy' }));
  });

  it('names the people store when a people-store call fails, and the limit store for a limit-store call', async () => {
    const { policy } = setup();
    const people = await policy.guard.people(Promise.reject(new Error('gone'))).catch((e: unknown) => e);
    expect(people).toEqual(expect.objectContaining({ store: 'people', message: 'The people store failed: gone' }));
    const limits = await policy.guard.limits(Promise.reject(new Error('gone'))).catch((e: unknown) => e);
    expect(limits).toEqual(expect.objectContaining({ store: 'limits', message: 'The limit store failed: gone' }));
  });
});

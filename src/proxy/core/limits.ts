/**
 * Abuse limits as token buckets. The arithmetic is pure; where the buckets live is a `LimitStore`, so one process
 * keeps them in memory and several instances share them in Redis (or a Durable Object on Cloudflare Workers).
 */

/** One bucket to take a token from: `capacity` tokens at most, refilled at `refillPerSecond`. */
export interface BucketCheck {
  /** Unique per rule and subject, e.g. `send:ip:203.0.113.9`. */
  key: string;
  capacity: number;
  refillPerSecond: number;
}

/**
 * A bucket's saved state: the tokens left at time `at` (milliseconds), and when it expires: full again even from
 * empty (`at` + `lifetimeMs`), so it can be dropped (the contract's eviction rule, STORE_SIZES).
 */
export interface BucketState {
  tokens: number;
  at: number;
  expires: number;
}

/**
 * Where buckets live. `take` is all-or-nothing: it takes one token from every bucket, or from none when any of
 * them is empty, and answers how long to wait (milliseconds) before the refused request could pass; 0 when it
 * passed. Implementations must be atomic across every caller that shares the store.
 */
export interface LimitStore {
  take(checks: readonly BucketCheck[], now: number): Promise<number>;
  /**
   * Marks `key` used until `now + ttlMs`: true the first time, false while it is still marked (a stream token
   * opened twice). Atomic like `take`.
   */
  claim(key: string, ttlMs: number, now: number): Promise<boolean>;
}

/** The tokens of a bucket at `now`, refilled since its state was saved; a bucket never seen is full. */
function refill(state: BucketState | undefined, check: BucketCheck, now: number): number {
  if (!state) return check.capacity;
  const elapsed = Math.max(0, now - state.at) / 1000;
  return Math.min(check.capacity, state.tokens + elapsed * check.refillPerSecond);
}

/** Milliseconds until a bucket holding `tokens` has one whole token again (0 when it has one now). */
function waitFor(tokens: number, check: BucketCheck): number {
  return Math.ceil((Math.max(0, 1 - tokens) / check.refillPerSecond) * 1000);
}

/** How long a bucket's state matters: after this many milliseconds untouched it is full again and can be dropped. */
export function lifetimeMs(check: BucketCheck): number {
  return Math.ceil((check.capacity / check.refillPerSecond) * 1000);
}

/**
 * Takes one token from each bucket (all or nothing) over any state map. Shared by the in-memory store and the
 * Durable Object, which differ only in where the map lives.
 */
export function takeFrom(states: Map<string, BucketState>, checks: readonly BucketCheck[], now: number): number {
  const levels = checks.map((check) => refill(states.get(check.key), check, now));
  const wait = Math.max(0, ...levels.map((tokens, i) => waitFor(tokens, checks[i]!)));
  if (wait > 0) return wait;
  checks.forEach((check, i) => {
    states.set(check.key, { tokens: levels[i]! - 1, at: now, expires: now + lifetimeMs(check) });
  });
  return 0;
}

import { STORE_SIZES } from '../../protocol/contract.js';
import { takeFrom, type BucketState, type LimitStore } from '../core/limits.js';

/**
 * The default store: buckets in this process's memory. Right for one instance; several instances behind a load
 * balancer need a shared store (`createRedisStore`), or each would grant the full limit.
 * Bounded: beyond `maxBuckets` the least recently used are forgotten (a forgotten bucket is full, the lenient side).
 */
export function createMemoryStore(maxBuckets: number = STORE_SIZES.buckets): LimitStore {
  const states = new Map<string, BucketState>();
  const claims = new Map<string, number>();
  return {
    async claim(key, ttlMs, now) {
      const until = claims.get(key);
      if (until !== undefined && until > now) return false;
      // Kept in the order made (one TTL per proxy), so the expired ones sit at the front; past the bound the oldest
      // go as well, like buckets.
      claims.delete(key);
      claims.set(key, now + ttlMs);
      for (const [old, expiry] of claims) {
        // Stryker disable next-line ConditionalExpression,EqualityOperator: a spent claim answers true, kept or dropped.
        const expired = expiry <= now;
        if (!expired && claims.size <= maxBuckets) break;
        claims.delete(old);
      }
      return true;
    },
    async take(checks, now) {
      const wait = takeFrom(states, checks, now);
      for (const key of states.keys()) {
        if (states.size <= maxBuckets) break;
        states.delete(key);
      }
      return wait;
    },
  };
}

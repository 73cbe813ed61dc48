import { STORE_SIZES } from '../../protocol/contract.js';
import { takeFrom, type BucketState, type LimitStore } from '../core/limits.js';

/**
 * Drops expired buckets, then the soonest to expire until `max` minus a 1% margin are left: the sort is paid once
 * per hundredth of the bound, not on every new bucket of a flood.
 */
function evict(states: Map<string, BucketState>, max: number, now: number): void {
  for (const [key, state] of states) if (state.expires <= now) states.delete(key);
  const excess = states.size - max;
  if (excess <= 0) return;
  const soonest = [...states].sort(([, a], [, b]) => a.expires - b.expires);
  for (const [key] of soonest.slice(0, excess + Math.floor(max / 100))) states.delete(key);
}

/**
 * The default store: buckets in this process's memory. Right for one instance; several instances behind a load
 * balancer need a shared store (`createRedisStore`), or each would grant the full limit.
 * Bounded by the contract's eviction rule (STORE_SIZES): beyond `maxBuckets`, expired buckets go first, then those
 * that expire soonest (a forgotten bucket is full, the lenient side, and these forgive the least).
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
      // Stryker disable next-line ConditionalExpression,EqualityOperator: within the bound, evict drops only expired
      // buckets, which read as full: the check saves the sweep, nothing a take can see.
      if (states.size > maxBuckets) evict(states, maxBuckets, now);
      return wait;
    },
  };
}

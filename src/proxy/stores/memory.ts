import { STORE_SIZES } from '../../protocol/contract.js';
import { takeFrom, type BucketState, type LimitStore } from '../core/limits.js';
import { withFirst, type PeopleStore, type PersonConversation } from '../core/people.js';

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

/** A person's list in memory, and when it may go. */
interface KeptList {
  list: PersonConversation[];
  expires: number;
}

/**
 * The default people store: each signed-in person's conversations in this process's memory (one instance only;
 * several share `createRedisPeopleStore`). Bounded: at most `maxPeople` lists of at most IDENTITY.conversationsMax
 * each; beyond it the least recently used person goes, and a list untouched for its lifetime reads as empty.
 */
export function createMemoryPeopleStore(maxPeople: number = STORE_SIZES.people): PeopleStore {
  const people = new Map<string, KeptList>();
  /** The person's live list, moved to the end of the map's order (most recently used). */
  const touch = (person: string, now: number) => {
    const kept = people.get(person);
    people.delete(person);
    if (kept === undefined || kept.expires <= now) return undefined;
    people.set(person, kept);
    return kept;
  };
  return {
    async list(person, now) {
      return [...(touch(person, now)?.list ?? [])];
    },
    async add({ person, conversation, ttlMs, now }) {
      const list = withFirst(touch(person, now)?.list ?? [], conversation);
      people.set(person, { list, expires: now + ttlMs });
      if (people.size > maxPeople) people.delete(people.keys().next().value as string);
    },
    async remove(person, id) {
      const kept = people.get(person);
      if (kept) kept.list = kept.list.filter((item) => item.id !== id);
    },
  };
}

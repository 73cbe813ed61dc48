import { withFirst, type PeopleStore, type PersonConversation } from '../core/people.js';

/**
 * Signed-in people's lists in the durable storage of the `AskboxLimits` Durable Object, one key per person, and the
 * object's alarm that deletes the lists nobody renewed in time, so that the storage holds only live lists even when
 * their people never come back.
 */

/** The little of a Durable Object's state the people lists use: its durable storage and its alarm. */
export interface DurableObjectStateLike {
  storage: {
    get(key: string): Promise<unknown>;
    put(key: string, value: unknown): Promise<void>;
    delete(key: string): Promise<boolean>;
    delete(keys: string[]): Promise<number>;
    /** The keys starting with `prefix`, in key order, at most `limit`, after `startAfter` when given. */
    list(options: { prefix: string; limit: number; startAfter?: string }): Promise<Map<string, unknown>>;
    getAlarm(): Promise<number | null>;
    setAlarm(scheduledTime: number): Promise<void>;
  };
}

/** The storage people's lists keep, and the alarm that sweeps them. */
export interface StoragePeopleStore extends PeopleStore {
  /** The alarm's work: deletes every expired list, then sets the next alarm (none when no list is left). */
  sweep(): Promise<void>;
}

/** A person's list as the object stores it, and when it may go. */
interface StoredList {
  list: PersonConversation[];
  expires: number;
}

/**
 * The planned sweep: the time `at`, by the callers' clock (the `now` of each call), from which it deletes what has
 * expired, and the real time `alarmAt` its alarm was set for. A sweep that runs late deletes what expired meanwhile.
 */
interface PlannedSweep {
  at: number;
  alarmAt: number;
}

const PEOPLE_PREFIX = 'people:';
/** Outside PEOPLE_PREFIX, so a sweep never takes it for a list. */
const SWEEP_KEY = 'sweep:people';
/** Lists read per storage call in a sweep: the most one `delete` takes. */
const SWEEP_PAGE = 128;
/**
 * The least time between two sweeps the alarm plans itself. Each sweep reads every list, so sweeps at every list's
 * own expiry would cost the square of the lists; a list may outlive its lifetime by this much instead.
 */
const SWEEP_GAP_MS = 3600 * 1000;

const keyOf = (person: string) => `${PEOPLE_PREFIX}${person}`;

/**
 * People's lists in a Durable Object's storage. The object handles one event at a time and its storage calls hold
 * further events back (its input gate), so a read and the writes after it, alarm included, are atomic; the alarm's
 * sweep is one more such event. Set when a list is written and no earlier sweep is planned, the alarm deletes every
 * list expired by then, so a list nobody reads again goes all the same.
 */
export function createStoragePeopleStore({ storage }: DurableObjectStateLike): StoragePeopleStore {
  const read = async (person: string, now: number) => {
    const kept = (await storage.get(keyOf(person))) as StoredList | undefined;
    if (kept === undefined || kept.expires > now) return kept;
    await storage.delete(keyOf(person));
    return undefined;
  };
  /** Plans the sweep at `at` by the callers' clock, its alarm `inMs` from now (real time). */
  const planSweep = async (at: number, inMs: number) => {
    const alarmAt = Date.now() + inMs;
    await storage.put(SWEEP_KEY, { at, alarmAt } satisfies PlannedSweep);
    await storage.setAlarm(alarmAt);
  };
  /** Plans a sweep at `at`, `inMs` from now, unless one is planned no later. */
  const planUnlessEarlier = async (at: number, inMs: number) => {
    const planned = (await storage.get(SWEEP_KEY)) as PlannedSweep | undefined;
    if (planned !== undefined && planned.at <= at && (await storage.getAlarm()) !== null) return;
    await planSweep(at, inMs);
  };
  return {
    async list(person, now) {
      return (await read(person, now))?.list ?? [];
    },
    async add({ person, conversation, ttlMs, now }) {
      const list = withFirst((await read(person, now))?.list ?? [], conversation);
      await storage.put(keyOf(person), { list, expires: now + ttlMs } satisfies StoredList);
      await planUnlessEarlier(now + ttlMs, ttlMs);
    },
    async remove(person, id) {
      const kept = (await storage.get(keyOf(person))) as StoredList | undefined;
      if (kept) await storage.put(keyOf(person), { ...kept, list: kept.list.filter((item) => item.id !== id) });
    },
    async sweep() {
      const planned = (await storage.get(SWEEP_KEY)) as PlannedSweep | undefined;
      if (planned === undefined) return;
      // By the callers' clock: the planned time, plus however late the alarm rang.
      const now = planned.at + Math.max(0, Date.now() - planned.alarmAt);
      const next = await deleteExpired(storage, now);
      if (next === undefined) {
        await storage.delete(SWEEP_KEY);
        return;
      }
      const at = Math.max(next, now + SWEEP_GAP_MS);
      await planSweep(at, at - now);
    },
  };
}

/** Deletes every list expired at `now`, a page at a time; the earliest expiry of those left (none: undefined). */
async function deleteExpired(storage: DurableObjectStateLike['storage'], now: number): Promise<number | undefined> {
  let next: number | undefined;
  let startAfter: string | undefined;
  for (;;) {
    const page = await storage.list({ prefix: PEOPLE_PREFIX, limit: SWEEP_PAGE, ...(startAfter && { startAfter }) });
    const expired: string[] = [];
    for (const [key, value] of page) {
      const { expires } = value as StoredList;
      if (expires <= now) expired.push(key);
      else next = Math.min(next ?? expires, expires);
      startAfter = key;
    }
    if (expired.length > 0) await storage.delete(expired);
    if (page.size < SWEEP_PAGE) return next;
  }
}

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as DurableObject from '../../../../src/proxy/stores/durable-object';
import { conversation } from '../../../fixtures/people-stores';
import { durableState, namespaceOf } from '../../../helpers/durable-object';

/** The people lists in the Durable Object's storage, and the alarm that deletes those nobody renewed in time. */

/** The callers' clock (the `now` of each call), far from the real one, as in the shared cases. */
const T0 = 1_700_000_000_000;
/** The real clock while a test runs. */
const REAL = 1_800_000_000_000;
const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;
const person = (name: string) => `u-${name.repeat(40)}`;
const listKey = (name: string) => `people:site:${person(name)}`;

// Loaded afresh for each test: the storage keys and the hour between sweeps are set when the module loads, and a
// runner that keeps modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first.
let durable: typeof DurableObject;
beforeEach(async () => {
  vi.resetModules();
  durable = await import('../../../../src/proxy/stores/durable-object');
});

function setup() {
  const state = durableState();
  const object = new durable.AskboxLimits(state);
  const store = durable.createDurableObjectPeopleStore(namespaceOf(object).namespace, 'site');
  const add = (name: string, ttlMs: number, now = T0) =>
    store.add({ person: person(name), conversation: conversation(1), ttlMs, now });
  /** Rings the alarm once the real clock reads `at`. */
  const ringAt = async (at: number) => {
    vi.setSystemTime(at);
    await state.ring(object);
  };
  return { state, store, add, ringAt };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(REAL);
});
afterEach(() => vi.useRealTimers());

describe('the Durable Object’s people lists, swept by its alarm', () => {
  it('deletes a list nobody reads again once its alarm rings, keeps a live one, and stops once none is left', async () => {
    const { state, add, ringAt } = setup();
    await add('a', 1000);
    await add('b', DAY_MS);
    expect(state.alarm()).toBe(REAL + 1000);
    await ringAt(REAL + 1000);
    expect(state.keys()).toEqual([listKey('b'), 'sweep:people']);
    // The next sweep when the live list expires, by the callers' clock moved on as the real one did.
    expect(state.alarm()).toBe(REAL + DAY_MS);
    await ringAt(REAL + DAY_MS);
    expect(state.keys()).toEqual([]);
    expect(state.alarm()).toBeNull();
  });

  it('sets the alarm for the earliest expiry: a shorter lifetime brings it forward, a longer one leaves it', async () => {
    const { state, add } = setup();
    await add('a', DAY_MS);
    expect(state.alarm()).toBe(REAL + DAY_MS);
    await add('b', 1000);
    expect(state.alarm()).toBe(REAL + 1000);
    await add('c', 5000);
    expect(state.alarm()).toBe(REAL + 1000);
    await add('c', 5000, T0 + 1000);
    expect(state.alarm()).toBe(REAL + 1000);
  });

  it('leaves the alarm where it was for a list that expires with the planned sweep, written later', async () => {
    const { state, add } = setup();
    await add('a', 1000);
    vi.setSystemTime(REAL + 400);
    await add('b', 1000);
    expect(state.alarm()).toBe(REAL + 1000);
  });

  it('plans the next sweep for the earliest expiry of the lists left, an hour or more away', async () => {
    const { state, add, ringAt } = setup();
    await add('a', 1000);
    await add('b', 5 * HOUR_MS);
    await add('c', 2 * HOUR_MS);
    await ringAt(REAL + 1000);
    expect(state.alarm()).toBe(REAL + 2 * HOUR_MS);
  });

  it('sets the alarm again when the planned one is gone', async () => {
    const { state, add } = setup();
    await add('a', 1000);
    // The alarm rang without sweeping (as if it was lost): the next write plans a sweep anew.
    await state.ring({ alarm: async () => undefined });
    await add('b', 5000);
    expect(state.alarm()).toBe(REAL + 5000);
  });

  it('keeps a list renewed since the alarm was set, and one that expires exactly after the sweep', async () => {
    const { state, add, ringAt } = setup();
    await add('a', 1000);
    await add('a', 1000, T0 + 900);
    await add('b', 1001);
    await ringAt(REAL + 1000);
    expect(state.keys()).toEqual([listKey('a'), listKey('b'), 'sweep:people']);
  });

  it('deletes what expired meanwhile when the alarm rings late', async () => {
    const { state, add, ringAt } = setup();
    await add('a', 1000);
    await add('b', 3000);
    await add('c', 9000);
    await ringAt(REAL + 5000);
    expect(state.keys()).toEqual([listKey('c'), 'sweep:people']);
  });

  it('spaces the sweeps it plans itself at least an hour apart', async () => {
    const { state, add, ringAt } = setup();
    await add('a', 1000);
    await add('b', 2000);
    await ringAt(REAL + 1000);
    expect(state.alarm()).toBe(REAL + 1000 + HOUR_MS);
    await ringAt(REAL + 1000 + HOUR_MS);
    expect(state.keys()).toEqual([]);
  });

  it('sweeps more lists than one storage call takes, a page at a time, each list read once', async () => {
    const { state, store, ringAt } = setup();
    const people = Array.from({ length: 300 }, (_, n) => `u-${String(n).padStart(40, '0')}`);
    for (const [n, name] of people.entries())
      await store.add({ person: name, conversation: conversation(n), ttlMs: n % 3 === 0 ? DAY_MS : 1000, now: T0 });
    const read = state.lists();
    await ringAt(REAL + 1000);
    const live = people.filter((_, n) => n % 3 === 0).map((name) => `people:site:${name}`);
    expect(state.keys()).toEqual([...live, 'sweep:people']);
    // 300 lists in pages of 128: three reads, each after the last key of the page before.
    expect(state.lists() - read).toBe(3);
  });

  it('does nothing when its alarm rings with no sweep planned, or without durable storage', async () => {
    const { state, ringAt } = setup();
    await ringAt(REAL);
    expect([state.keys(), state.alarm()]).toEqual([[], null]);
    await expect(new durable.AskboxLimits().alarm()).resolves.toBeUndefined();
  });
});

import { describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../../src/config/parse';
import {
  consentFingerprint,
  consentKey,
  createConsent,
  type ConsentEvent,
  type ConsentState,
} from '../../../src/state/consent';
import type { KeyValueStore } from '../../../src/state/storage';
import { createMemoryStorage } from '../../helpers/memory-storage';

const STATES: ConsentState[] = ['asking', 'accepted', 'declined'];
const EVENTS: ConsentEvent[] = ['accept', 'decline', 'reconsider'];
const TEXT = 'I agree to the [privacy policy](https://example.com/privacy).';
const KEY = 'consent:bot000000001@/askbox';

const configWith = (input: Record<string, unknown> = { consent: TEXT }) => {
  const parsed = parseConfig({ botId: 'bot000000001', proxyUrl: '/askbox', ...input });
  if (!parsed.config) throw new Error('bad test config');
  return parsed.config;
};

/** A consent gate over `storage`, recording the events it emits and every write to storage. */
function setup(storage: KeyValueStore = createMemoryStorage(), input?: Record<string, unknown>) {
  const events: unknown[] = [];
  const writes: string[] = [];
  const recorded: KeyValueStore = {
    get: storage.get,
    set: (key, value) => {
      writes.push(key);
      storage.set(key, value);
    },
    remove: (key) => {
      writes.push(`-${key}`);
      storage.remove(key);
    },
  };
  const consent = createConsent({
    storage: recorded,
    config: configWith(input),
    emit: (type, detail) => events.push({ type, detail }),
  });
  return { consent, events, writes, storage };
}

/** A gate in `from`, reached as the visitor gets there. */
function at(from: ConsentState) {
  const made = setup();
  if (from === 'accepted') expect(made.consent.accept()).toBe(true);
  if (from === 'declined') expect(made.consent.decline()).toBe(true);
  return made;
}

const act = (consent: ReturnType<typeof setup>['consent'], event: ConsentEvent) =>
  event === 'accept' ? consent.accept() : event === 'decline' ? consent.decline() : consent.reconsider();

/**
 * Every move of the gate: the gate offers Accept and Decline; a declined visitor sees the gate again before
 * choosing anew; an acceptance stays. Every other (state, event) pair is refused.
 */
const ALLOWED: [from: ConsentState, event: ConsentEvent, to: ConsentState][] = [
  ['asking', 'accept', 'accepted'],
  ['asking', 'decline', 'declined'],
  ['declined', 'reconsider', 'asking'],
];

const target = (from: ConsentState, event: ConsentEvent) => ALLOWED.find(([f, e]) => f === from && e === event)?.[2];
const CASES = STATES.flatMap((from) =>
  EVENTS.map((event): [ConsentState, ConsentEvent, ConsentState | undefined] => [from, event, target(from, event)]),
);

describe('consent: the transition table', () => {
  it.each(CASES)('%s on %s: moves to %s (undefined: refused)', (from, event, to) => {
    const { consent, events, writes } = at(from);
    const before = [events.length, writes.length];
    expect(act(consent, event)).toBe(to !== undefined);
    expect(consent.state.value).toBe(to ?? from);
    expect(consent.allows.value).toBe((to ?? from) === 'accepted');
    // A choice is remembered and announced; a refused event, or seeing the gate again, writes and fires nothing.
    const chose = to !== undefined && event !== 'reconsider';
    expect([events.length, writes.length]).toEqual(before.map((n) => n + (chose ? 1 : 0)));
  });

  it('is exactly the table the gate follows', async () => {
    // Loaded afresh, so that Stryker counts the table's load towards this test.
    vi.resetModules();
    const { CONSENT_TRANSITIONS: table } = await import('../../../src/state/consent');
    expect(Object.keys(table).sort()).toEqual([...STATES].sort());
    for (const from of STATES)
      for (const event of EVENTS) expect(table[from][event], `${from} on ${event}`).toBe(target(from, event));
  });
});

describe('consent: the visitor’s choice', () => {
  it('asks first, touching no storage until its state is read, and writes nothing while it asks', () => {
    const reads: string[] = [];
    const memory = createMemoryStorage();
    const { consent, writes } = setup({ ...memory, get: (key) => (reads.push(key), memory.get(key)) });
    expect(reads).toEqual([]);
    expect(consent.state.value).toBe('asking');
    expect(consent.allows.value).toBe(false);
    expect(reads).toEqual([KEY]);
    expect(writes).toEqual([]);
  });

  it('remembers an acceptance for the same text, and fires `consent` with it', () => {
    const storage = createMemoryStorage();
    const first = setup(storage);
    first.consent.accept();
    expect(first.events).toEqual([{ type: 'consent', detail: { accepted: true } }]);
    expect(JSON.parse(storage.get(KEY)!)).toEqual({ choice: 'accepted', text: consentFingerprint(TEXT) });
    const again = setup(storage);
    expect(again.consent.state.value).toBe('accepted');
    // A choice remembered is no new choice: no event.
    expect(again.events).toEqual([]);
  });

  it('remembers a refusal, which a second look at the text can turn into an acceptance', () => {
    const storage = createMemoryStorage();
    const first = setup(storage);
    first.consent.decline();
    expect(first.events).toEqual([{ type: 'consent', detail: { accepted: false } }]);
    const again = setup(storage);
    expect(again.consent.state.value).toBe('declined');
    again.consent.reconsider();
    again.consent.accept();
    expect(setup(storage).consent.state.value).toBe('accepted');
  });

  it('gets the chat ready on an acceptance only, never on a refusal', () => {
    const accepted = vi.fn();
    const consent = createConsent({
      storage: createMemoryStorage(),
      config: configWith(),
      emit: () => undefined,
      accepted,
    });
    consent.decline();
    expect(accepted).not.toHaveBeenCalled();
    consent.reconsider();
    consent.accept();
    expect(accepted).toHaveBeenCalledTimes(1);
  });

  it('asks again when the site changes its text', () => {
    const storage = createMemoryStorage();
    setup(storage).consent.accept();
    expect(setup(storage, { consent: `${TEXT} Updated.` }).consent.state.value).toBe('asking');
  });

  it.each([
    ['not JSON', '{'],
    ['not an object', '"accepted"'],
    ['null', 'null'],
    ['another choice', JSON.stringify({ choice: 'maybe', text: consentFingerprint(TEXT) })],
    ['no fingerprint', JSON.stringify({ choice: 'accepted' })],
  ])('reads a stored value that is %s as no choice', (_, raw) => {
    const storage = createMemoryStorage();
    storage.set(KEY, raw);
    expect(setup(storage).consent.state.value).toBe('asking');
  });

  it('without a consent text, allows from the start and writes nothing', () => {
    const { consent, writes, events } = setup(createMemoryStorage(), {});
    expect([consent.state.value, consent.allows.value]).toEqual(['accepted', true]);
    expect(consent.accept()).toBe(false);
    expect([writes, events]).toEqual([[], []]);
  });

  it('keeps a signed-in visitor’s choice for them, apart from the browser’s, under a pseudonym of their hash', () => {
    const storage = createMemoryStorage();
    const person = (id: string, digit: string) => ({
      consent: TEXT,
      user: { id, hash: digit.repeat(16) + '0'.repeat(48) },
    });
    const { consent, writes } = setup(storage, person('user-42', 'a'));
    consent.accept();
    expect(writes).toEqual([`${KEY}:person:${'a'.repeat(16)}`]);
    expect(storage.get(writes[0]!)).not.toContain('user-42');
    expect(setup(storage).consent.state.value).toBe('asking');
    expect(setup(storage, person('user-7', 'b')).consent.state.value).toBe('asking');
    expect(setup(storage, person('user-42', 'a')).consent.state.value).toBe('accepted');
  });
});

describe('consent: its key and fingerprint', () => {
  it('keys a choice by bot, proxy and instance, and by person when signed in', () => {
    expect(consentKey(configWith())).toBe(KEY);
    expect(consentKey(configWith({ instance: 'help' }))).toBe(`${KEY}#help`);
    expect(consentKey(configWith(), 'u1')).toBe(`${KEY}:person:u1`);
  });

  it('fingerprints a text as 8 hex digits that change with any character', () => {
    expect(consentFingerprint('')).toBe('811c9dc5');
    expect(consentFingerprint('a')).toBe('e40c292c');
    expect(consentFingerprint('😀')).toMatch(/^[0-9a-f]{8}$/);
    expect(consentFingerprint('ab')).not.toBe(consentFingerprint('ba'));
  });
});

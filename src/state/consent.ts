import { action, computed, type ReadonlySignal } from '@preact/signals';
import type { WidgetConfig } from '../config/schema.js';
import type { Emit } from './events.js';
import { createMachine, type Machine, type Transitions } from './machine.js';
import { storageKey } from './session.js';
import { parseJson, storeJson, type KeyValueStore } from './storage.js';

/**
 * Where the visitor stands with the site's consent text (`data-consent`):
 * - `asking`: the gate shows the text with Accept and Decline; nothing is sent or stored meanwhile;
 * - `accepted`: the chat works (also where a widget without a consent text starts, and stays);
 * - `declined`: the chat stays unusable, with a way to see the text again.
 */
export type ConsentState = 'asking' | 'accepted' | 'declined';

/**
 * What moves it: the visitor accepts, declines, or asks to see the text again after declining (`reconsider`).
 */
export type ConsentEvent = 'accept' | 'decline' | 'reconsider';

/**
 * The consent's transitions. Only the gate offers a choice; a declined visitor gets the gate back before choosing
 * again, so Accept is always pressed with the text in view. An acceptance is final for this text: a changed text
 * asks again (see `consentKey`).
 */
export const CONSENT_TRANSITIONS: Transitions<ConsentState, ConsentEvent> = {
  asking: { accept: 'accepted', decline: 'declined' },
  declined: { reconsider: 'asking' },
  accepted: {},
};

/**
 * Where a widget keeps its visitor's choice: one key per bot, proxy and instance, as its conversation is kept (see
 * session.ts; `reset()` forgets it with the rest), and, for a signed-in visitor, per person (`person`, their id), so
 * that one person's choice on a shared browser is not another's.
 */
export const consentKey = (config: WidgetConfig, person?: string): string =>
  `${storageKey('consent', config)}${person === undefined ? '' : `:person:${person}`}`;

/**
 * A short fingerprint of the consent text (32-bit FNV-1a, hex): stored with the choice, so that a site that changes
 * its text asks again, without keeping the text itself in the visitor's storage.
 */
export function consentFingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (const char of text) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** The stored choice: what the visitor chose, for the text whose fingerprint it names. */
interface StoredChoice {
  choice: 'accepted' | 'declined';
  text: string;
}

/** The remembered choice for `text`'s fingerprint, if storage holds one; anything else reads as none. */
function readChoice(raw: string | undefined, fingerprint: string): ConsentState {
  const stored = parseJson(raw) as Partial<StoredChoice> | null | undefined;
  if (typeof stored !== 'object' || stored === null || stored.text !== fingerprint) return 'asking';
  return stored.choice === 'accepted' || stored.choice === 'declined' ? stored.choice : 'asking';
}

interface ConsentDeps {
  storage: KeyValueStore;
  config: WidgetConfig;
  emit: Emit;
  /** Called once the visitor accepts: the chat gets ready as an open panel does. */
  accepted?: () => void;
}

/** The consent gate of one widget: its state, and the visitor's three actions (each an action of the model). */
export interface Consent {
  /** Where the visitor stands (see `ConsentState`); only the actions move it, through `CONSENT_TRANSITIONS`. */
  readonly state: ReadonlySignal<ConsentState>;
  /** Whether the chat may send and store: accepted, or no consent text. */
  readonly allows: ReadonlySignal<boolean>;
  /** The visitor accepts: remembered, and the `consent` event fires; whether it moved. */
  accept(): boolean;
  /** The visitor declines: remembered (the refusal only), and the `consent` event fires; whether it moved. */
  decline(): boolean;
  /** A visitor who declined sees the gate again; whether it moved. */
  reconsider(): boolean;
}

/**
 * The consent gate for `config.consent`. The remembered choice is read from storage the first time the state is
 * read (as the panel shows), not when the chat is created; it counts only for the same text. Without a consent text
 * the gate is accepted from the start and never writes anything.
 */
export function createConsent({ storage, config, emit, accepted }: ConsentDeps): Consent {
  const text = config.consent;
  // A signed-in person's choice is theirs, kept in this browser under the first 16 digits of their hash (a pseudonym,
  // never their id), and outlives their logout as the record of what they accepted.
  const key = consentKey(config, config.user?.hash.slice(0, 16));
  const fingerprint = text === undefined ? '' : consentFingerprint(text);
  let machine: Machine<ConsentState, ConsentEvent> | undefined;
  const started = () => {
    machine ??= createMachine(
      CONSENT_TRANSITIONS,
      text === undefined ? 'accepted' : readChoice(storage.get(key), fingerprint),
    );
    return machine;
  };
  const state = computed(() => started().state.value);
  /** Moves on `event`; a choice is remembered and announced to the page. */
  const choose = (event: 'accept' | 'decline') => {
    if (!started().go(event)) return false;
    const yes = event === 'accept';
    const choice: StoredChoice = { choice: yes ? 'accepted' : 'declined', text: fingerprint };
    storeJson(storage, key, choice);
    emit('consent', { accepted: yes });
    if (yes) accepted?.();
    return true;
  };
  return {
    state,
    allows: computed(() => state.value === 'accepted'),
    accept: action(() => choose('accept')),
    decline: action(() => choose('decline')),
    reconsider: action(() => started().go('reconsider')),
  };
}

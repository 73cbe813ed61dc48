import { signal, type ReadonlySignal, type Signal } from '@preact/signals';
import { parseConversationRef } from '../api/parse.js';
import type { ConversationRef } from '../api/types.js';
import { FIELDS } from '../protocol/contract.js';
import { parseJson, storeJson, type KeyValueStore } from './storage.js';

/** One of the visitor's conversations with this bot: its id and grant, first question and last activity (ms). */
export interface Earlier extends ConversationRef {
  title: string;
  at: number;
}

/**
 * Where a list stands: a signed-in person's comes from the proxy, so it is unread until first looked at, then loading,
 * then read or failed (see `LIST_TRANSITIONS`, person-list.ts); the list kept in this browser is always read.
 */
export type ListState = 'unread' | 'loading' | 'read' | 'failed';

/** The visitor's conversations with this bot, as the panel's list shows them. */
export interface Conversations {
  /** Whether the panel shows the list instead of the conversation. */
  shown: Signal<boolean>;
  /** Shows the list in the panel, or the conversation again. */
  show(on: boolean): void;
  /** The conversations, newest activity first. */
  all(): readonly Earlier[];
  /** `conversation` took `question`: it moves to the top; its title stays its first question. */
  touch(conversation: ConversationRef, question: string): void;
  /** Forgets `id` (deleted, or its grant refused). */
  drop(id: string): void;
  state: ReadonlySignal<ListState>;
  /** Reads the list again, after it failed to load (the list kept in this browser has nothing to read). */
  reload(): void;
}

/** How many conversations storage keeps; the least recently used go first. */
export const KEPT_CONVERSATIONS = 20;

/** The longest title kept, in characters: a list entry shows a line of it. */
const TITLE = 100;

/** The first `max` characters of `text`, counted as code points: an emoji is never cut in half. */
const firstChars = (text: string, max: number): string => [...text].slice(0, max).join('');

/** `question` as a conversation's title: its first `TITLE` characters, whole emoji. */
export const toTitle = (question: string): string => firstChars(question, TITLE);

/** What joins the site's name for its conversations to a conversation's first question, in the service's name. */
const NAME_JOINER = ': ';

/**
 * The name a conversation is created with: the site's name for its conversations (`data-conversation-name`), then
 * its first question on one line, at most FIELDS.nameMax characters (as the proxy forwards). The service's list then
 * tells conversations apart by more than their date, and a signed-in person's other devices, which never saw the
 * question, title the conversation with it (`titleOf`).
 */
export const nameOf = (site: string, question: string): string =>
  firstChars(`${site}${NAME_JOINER}${question.replace(/\s+/g, ' ').trim()}`, FIELDS.nameMax);

/** The title of a conversation the service names `name`: its question when `nameOf(site, …)` made it, else the name. */
export function titleOf(site: string, name: string): string {
  const prefix = `${site}${NAME_JOINER}`;
  return name.startsWith(prefix) && name.length > prefix.length ? name.slice(prefix.length) : name;
}

/**
 * The visitor's conversations with this bot, newest activity first, under `key`. Storage is read on the first look
 * and written only once a conversation has taken a message (`touch`), never before the visitor engages. `shown`
 * says whether the panel shows the list instead of the conversation.
 */
export function createConversations(storage: KeyValueStore, key: string, now = Date.now): Conversations {
  const list = signal<readonly Earlier[] | undefined>(undefined);
  const all = () => {
    list.value ??= read(storage.get(key));
    return list.value;
  };
  const save = (next: readonly Earlier[]) => {
    list.value = next.slice(0, KEPT_CONVERSATIONS);
    storeJson(storage, key, list.value);
  };
  const shown = signal(false);
  return {
    shown,
    /** Shows the list in the panel, or the conversation again. */
    show: (on: boolean) => {
      shown.value = on;
    },
    all,
    touch({ id, grant }, question) {
      const others = all().filter((entry) => entry.id !== id);
      const title = all().find((entry) => entry.id === id)?.title ?? toTitle(question);
      save([{ id, grant, title, at: now() }, ...others]);
    },
    // Storage is left alone when it holds no such conversation.
    drop(id) {
      const kept = all().filter((entry) => entry.id !== id);
      if (kept.length < all().length) save(kept);
    },
    // Read from storage as it is looked at: never loading.
    state: signal<ListState>('read'),
    reload: () => undefined,
  };
}

/** The stored list, checked: entries that are not `{id, grant, title, at}` are dropped, the rest newest first. */
function read(raw: string | undefined): Earlier[] {
  const parsed = parseJson(raw);
  return (Array.isArray(parsed) ? parsed : [])
    .flatMap((entry: Partial<Earlier>) => {
      // A valid ref means `entry` is an object.
      const ref = parseConversationRef(entry);
      return ref && typeof entry.title === 'string' && typeof entry.at === 'number'
        ? [{ ...ref, title: entry.title, at: entry.at }]
        : [];
    })
    .sort((a, b) => b.at - a.at);
}

import { signal } from '@preact/signals';
import type { ChatClient } from '../api/client.js';
import type { ConversationRef } from '../api/types.js';
import type { WidgetConfig } from '../config/schema.js';
import type { RATINGS } from '../protocol/contract.js';
import type { Emit } from './events.js';
import type { ChatMessage } from './messages.js';
import { storageKey } from './session.js';
import { parseJson, storeJson, type KeyValueStore } from './storage.js';

/** A visitor's rating of a reply. */
export type Rating = (typeof RATINGS)[number];

/** How many ratings storage keeps; the oldest go first. */
const KEPT = 200;

interface Deps {
  client: ChatClient;
  storage: KeyValueStore;
  config: WidgetConfig;
  emit: Emit;
  conversation: () => ConversationRef | undefined;
}

/** Whether `message` can be rated: a complete reply the service stored (a local id names nothing it knows). */
export const isRateable = (message: ChatMessage): boolean =>
  message.role === 'assistant' && message.status === 'done' && !message.id.startsWith('local-');

/**
 * Ratings of replies: kept in storage by message id (so a reload shows them), sent to the proxy's `POST /feedback`
 * and fired as `feedback` on the page API. A failed send keeps the rating and marks the reply `failed` until a
 * retry gets through. Storage is read on the first look at a rating, never before the visitor engages.
 */
export function createFeedback({ client, storage, config, emit, conversation }: Deps) {
  const key = storageKey('ratings', config);
  const ratings = signal<Readonly<Record<string, Rating>> | undefined>(undefined);
  /** Replies whose last rating is on its way (`sending`) or did not get through (`failed`). */
  const sending = signal<Readonly<Record<string, 'sending' | 'failed'>>>({});
  /** The reply whose comment box (after a thumbs-down) is open. */
  const commenting = signal<string | null>(null);
  const comments = new Map<string, string>();

  const all = () => {
    ratings.value ??= read(storage.get(key));
    return ratings.value;
  };
  const save = (next: Record<string, Rating>) => {
    const entries = Object.entries(next).slice(-KEPT);
    ratings.value = Object.fromEntries(entries);
    storeJson(storage, key, ratings.value);
  };
  const mark = (id: string, state: 'sending' | 'failed' | undefined) => {
    const { [id]: _, ...rest } = sending.value;
    sending.value = state ? { ...rest, [id]: state } : rest;
  };

  /**
   * Rates `id` and sends it; `comment` comes with a second send after a thumbs-down. Resolves whether the proxy
   * took it.
   */
  async function rate(id: string, rating: Rating, comment?: string): Promise<boolean> {
    const held = conversation();
    if (!held) return false;
    const { [id]: _, ...others } = all();
    save({ ...others, [id]: rating });
    if (comment !== undefined) comments.set(id, comment);
    else comments.delete(id);
    commenting.value = rating === 'down' && comment === undefined ? id : null;
    emit('feedback', { messageId: id, conversationId: held.id, rating, comment });
    mark(id, 'sending');
    try {
      await client.sendFeedback(held, { messageId: id, rating, comment });
      mark(id, undefined);
      return true;
    } catch {
      mark(id, 'failed');
      return false;
    }
  }

  return {
    sending,
    commenting,
    /** The rating `id` has, if any. */
    ratingOf: (id: string): Rating | undefined => all()[id],
    rate,
    /** Sends the rating `id` has again, with its comment. */
    retry: (id: string) => {
      const rating = all()[id];
      return rating ? rate(id, rating, comments.get(id)) : Promise.resolve(false);
    },
    /** Closes the comment box without a comment. */
    skip: () => {
      commenting.value = null;
    },
    /** Forgets the ratings of `messages` (a deleted conversation's). */
    forget(messages: readonly ChatMessage[]) {
      const kept = { ...all() };
      for (const message of messages) delete kept[message.id];
      save(kept);
      commenting.value = null;
    },
  };
}

/** The stored ratings, checked: anything but `{id: 'up' | 'down'}` entries is dropped. */
function read(raw: string | undefined): Record<string, Rating> {
  const ratings: Record<string, Rating> = {};
  // `Object()`: what is not an object (nothing stored, garbled) has no entries that are ratings.
  for (const [id, value] of Object.entries(Object(parseJson(raw))))
    if (value === 'up' || value === 'down') ratings[id] = value;
  return ratings;
}

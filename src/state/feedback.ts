import { computed, effect, signal, type ReadonlySignal } from '@preact/signals';
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

/** What became of a rating as the visitor gave it. */
export type RateOutcome = 'sent' | 'failed' | 'held';

/** A thumbs-down waiting for its comment, with the conversation it was given in (the visitor may switch away). */
interface Held {
  id: string;
  conversation: ConversationRef;
}

/**
 * Ratings of replies: kept in storage by message id (so a reload shows them), sent to the proxy's `POST /feedback`
 * and fired as `feedback` on the page API. One rating is one request, so that every runtime's log holds one record
 * of it: a thumbs-up goes at once; a thumbs-down is held while its comment box is open and goes once, with the
 * comment or without it (skipped, another rating given, or the visitor leaving: `flush`). A failed send keeps the
 * rating and marks the reply `failed` until a retry gets through. Storage is read on the first look at a rating,
 * never before the visitor engages.
 */
export function createFeedback({ client, storage, config, emit, conversation }: Deps) {
  const key = storageKey('ratings', config);
  // What storage holds, read on the first look (a computed is lazy), until the visitor rates.
  const stored = computed(() => read(storage.get(key)));
  const saved = signal<Readonly<Record<string, Rating>> | undefined>(undefined);
  const ratings = computed(() => saved.value ?? stored.value);
  /** The reply whose comment box (after a thumbs-down) is open. */
  const commenting = signal<string | null>(null);
  const comments = new Map<string, string>();
  let held: Held | undefined;

  const save = (next: Record<string, Rating>) => {
    const entries = Object.entries(next).slice(-KEPT);
    saved.value = Object.fromEntries(entries);
    storeJson(storage, key, saved.value);
  };
  const { sending, send } = createDelivery({ client, ratings, comments });

  /** Sends `held` (the comment set or not) and fires `feedback` for it, once; closes its box. */
  function release(keepalive: boolean): Promise<boolean> {
    const waiting = held;
    held = undefined;
    commenting.value = null;
    if (!waiting) return Promise.resolve(false);
    const { id } = waiting;
    emit('feedback', {
      messageId: id,
      conversationId: waiting.conversation.id,
      rating: 'down',
      comment: comments.get(id),
    });
    return send(id, waiting.conversation, keepalive);
  }

  /** Rates `id`: a thumbs-up is sent at once, a thumbs-down held until its comment is sent or skipped (`finish`). */
  async function rate(id: string, rating: Rating): Promise<RateOutcome> {
    const to = conversation();
    if (!to) return 'failed';
    // This reply's thumbs-down that waited is replaced, never sent; another reply's goes now, without a comment.
    if (held?.id === id) held = undefined;
    void release(false);
    const { [id]: _, ...others } = ratings.value;
    save({ ...others, [id]: rating });
    comments.delete(id);
    if (rating === 'down') {
      held = { id, conversation: to };
      commenting.value = id;
      return 'held';
    }
    emit('feedback', { messageId: id, conversationId: to.id, rating, comment: undefined });
    return (await send(id, to)) ? 'sent' : 'failed';
  }

  // The model disposed (the widget destroyed) sends a thumbs-down still waiting for its comment, as leaving does.
  effect(() => () => void release(true));

  return {
    sending,
    commenting,
    /**
     * Every rating, by message id. A signal, not a getter: the model's functions are actions, which read untracked,
     * so a component reading a rating through one would not re-render as it changes.
     */
    ratings,
    rate,
    /**
     * Sends `id`'s held thumbs-down with the visitor's `comment`, or without one (skipped), and closes its box.
     * Resolves whether the proxy took it (false when nothing waited).
     */
    finish(id: string, comment?: string): Promise<boolean> {
      if (held?.id !== id) return Promise.resolve(false);
      if (comment) comments.set(id, comment);
      return release(false);
    },
    /** Sends a thumbs-down still waiting for its comment as the visitor leaves it (page, panel, conversation). */
    flush: () => void release(true),
    /** Sends the rating `id` has again, with its comment. */
    retry: (id: string) => {
      const to = conversation();
      return to ? send(id, to) : Promise.resolve(false);
    },
    /** Forgets the ratings of `messages` (a deleted conversation's), and a thumbs-down of theirs that waited. */
    forget(messages: readonly ChatMessage[]) {
      const kept = { ...ratings.value };
      for (const message of messages) delete kept[message.id];
      save(kept);
      // Its thumbs-down that waited is about a conversation gone: there is nothing left to send it for.
      if (messages.some((message) => message.id === held?.id)) held = undefined;
      commenting.value = null;
    },
  };
}

/** What ratings are sent from: the client, the ratings given and their comments. */
interface DeliveryDeps {
  client: ChatClient;
  ratings: ReadonlySignal<Readonly<Record<string, Rating>>>;
  comments: ReadonlyMap<string, string>;
}

/** Sending ratings to the proxy, and which replies' ratings are on their way or did not get through. */
function createDelivery({ client, ratings, comments }: DeliveryDeps) {
  /** Replies whose last rating is on its way (`sending`) or did not get through (`failed`). */
  const sending = signal<Readonly<Record<string, 'sending' | 'failed'>>>({});
  const mark = (id: string, state: 'sending' | 'failed' | undefined) => {
    const { [id]: _, ...rest } = sending.value;
    sending.value = state ? { ...rest, [id]: state } : rest;
  };

  /** Sends the rating `id` has, with its comment, to `to`; resolves whether the proxy took it. */
  async function send(id: string, to: ConversationRef, keepalive = false): Promise<boolean> {
    const rating = ratings.value[id];
    if (!rating) return false;
    mark(id, 'sending');
    try {
      await client.sendFeedback(to, { messageId: id, rating, comment: comments.get(id) }, { keepalive });
      mark(id, undefined);
      return true;
    } catch {
      mark(id, 'failed');
      return false;
    }
  }

  return { sending, send };
}

/** The stored ratings, checked: anything but `{id: 'up' | 'down'}` entries is dropped. */
function read(raw: string | undefined): Record<string, Rating> {
  const ratings: Record<string, Rating> = {};
  // `Object()`: what is not an object (nothing stored, garbled) has no entries that are ratings.
  for (const [id, value] of Object.entries(Object(parseJson(raw))))
    if (value === 'up' || value === 'down') ratings[id] = value;
  return ratings;
}

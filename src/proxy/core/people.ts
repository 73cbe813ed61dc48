/**
 * The conversations of signed-in people (issue 35): the service has no user field, so only the proxy can keep the
 * link between a person and their conversations. The list logic is pure; where the lists live is a `PeopleStore`,
 * beside the `LimitStore` (memory, Redis, the Durable Object), and it fails closed as the limit store does.
 */
import { ID_PATTERN, IDENTITY } from '../../protocol/contract.js';

/** One conversation of a person's list, as `GET conversations` answers it (with a fresh grant added). */
export interface PersonConversation {
  id: string;
  bot_id: string;
  name: string;
  /** When the proxy added it, as an ISO string. */
  created_at: string;
}

/** What `add` puts in a person's list, and for how long the list is kept (the grant lifetime). */
export interface PersonEntry {
  /** The person key (IDENTITY.personKeyPattern). */
  person: string;
  conversation: PersonConversation;
  ttlMs: number;
  now: number;
}

/**
 * Where people's conversation lists live. Each list holds the newest IDENTITY.conversationsMax, newest first, each
 * id once; a list untouched for its `ttlMs` may go. Implementations must keep each call atomic across every caller
 * that shares the store.
 */
export interface PeopleStore {
  /** The person's conversations, newest first (none when the list is unknown or has expired). */
  list(person: string, now: number): Promise<PersonConversation[]>;
  /** Puts the conversation first in the person's list, once, and keeps the list another `ttlMs`. */
  add(entry: PersonEntry): Promise<void>;
  /** Takes the conversation `id` out of the person's list. */
  remove(person: string, id: string): Promise<void>;
}

const ID = new RegExp(ID_PATTERN);

/** `list` with `conversation` first, any earlier copy of it dropped, cut to the newest IDENTITY.conversationsMax. */
export function withFirst(list: readonly PersonConversation[], conversation: PersonConversation): PersonConversation[] {
  return [conversation, ...list.filter((item) => item.id !== conversation.id)].slice(0, IDENTITY.conversationsMax);
}

/** Whether a value read back from a store is a list entry (ids as the service spells them, text fields). */
export function isPersonConversation(value: unknown): value is PersonConversation {
  const item = value as Partial<PersonConversation> | null;
  return (
    typeof item?.id === 'string' &&
    ID.test(item.id) &&
    typeof item.bot_id === 'string' &&
    ID.test(item.bot_id) &&
    typeof item.name === 'string' &&
    typeof item.created_at === 'string'
  );
}

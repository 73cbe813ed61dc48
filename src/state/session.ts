import type { ConversationRef } from '../api/client.js';
import { parseConversationRef } from '../api/parse.js';
import { widgetKey, type WidgetConfig } from '../config/schema.js';
import { parseJson, storeJson, type KeyValueStore } from './storage.js';

/**
 * What a widget keeps of its visitor in storage: the conversation in use, the earlier ones, the ratings and the
 * consent choice (consent.ts).
 */
export const VISITOR_KEYS = ['conversation', 'conversations', 'ratings', 'consent'] as const;

/** Where a widget keeps `kind`: one key per bot, proxy and instance. */
export const storageKey = (kind: (typeof VISITOR_KEYS)[number], config: WidgetConfig): string =>
  `${kind}:${widgetKey(config)}`;

/** The visitor's conversation with one bot, kept in storage so it survives reloads. */
export interface Session {
  /**
   * The conversation in use. The stored one is read on the first call only (never before the visitor engages),
   * so a conversation another tab stores later does not replace this one mid-session.
   */
  current(): ConversationRef | undefined;
  /** Keeps a newly created conversation, in memory and in storage. */
  save(conversation: ConversationRef): void;
  /** Forgets the conversation; the next message starts a new one. */
  forget(): void;
  /** The visitor's latest grant, kept after `forget()` so the proxy still knows who is asking. */
  lastGrant(): string | undefined;
}

/** A session over `storage`, under `key`. */
export function createSession(storage: KeyValueStore, key: string): Session {
  let read = false;
  let conversation: ConversationRef | undefined;
  let grant: string | undefined;
  return {
    current() {
      if (read) return conversation;
      read = true;
      const raw = storage.get(key);
      if (raw === undefined) return undefined;
      conversation = parseConversationRef(parseJson(raw));
      // A value without a valid grant (stored by an older widget, or tampered with) is dropped, so the visitor
      // starts afresh instead of meeting a 404.
      if (!conversation) storage.remove(key);
      grant = conversation?.grant;
      return conversation;
    },
    save(created) {
      read = true;
      conversation = created;
      grant = created.grant;
      storeJson(storage, key, { id: created.id, grant: created.grant });
    },
    forget() {
      read = true;
      conversation = undefined;
      storage.remove(key);
    },
    lastGrant: () => grant,
  };
}

import { signal } from '@preact/signals';
import type { ConversationRef } from '../api/types.js';
import type { ChatMessage } from './messages.js';
import type { Session } from './session.js';

/** What "new conversation" cleared: the messages the service had, and the conversation they belong to. */
export interface Cleared {
  messages: readonly ChatMessage[];
  conversation: ConversationRef | undefined;
}

/**
 * Keeps what "new conversation" clears so that one click never loses a conversation for good: `cleared` holds it
 * until the visitor sends again (`drop`) or takes it back (`restore`).
 */
export function createUndo(session: Session) {
  const cleared = signal<Cleared | null>(null);
  return {
    cleared,
    /** Keeps `messages` (and the session's conversation) before they are cleared; nothing when there is nothing. */
    keep(messages: readonly ChatMessage[]) {
      // A question the service has not taken yet is not part of what can come back.
      const kept = messages.filter((m) => m.status !== 'pending');
      cleared.value = kept.length > 0 ? { messages: kept, conversation: session.current() } : null;
    },
    /** The kept messages, once, with their conversation stored again; undefined when there is nothing to undo. */
    restore(): readonly ChatMessage[] | undefined {
      const snapshot = cleared.value;
      if (!snapshot) return undefined;
      if (snapshot.conversation) session.save(snapshot.conversation);
      cleared.value = null;
      return snapshot.messages;
    },
    drop() {
      cleared.value = null;
    },
  };
}

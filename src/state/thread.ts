import { signal, type Signal } from '@preact/signals';
import { lastFailedReply, type ChatMessage } from './messages.js';

/** The messages shown, and the few edits the model makes to them. */
export interface Thread {
  messages: Signal<readonly ChatMessage[]>;
  append(message: ChatMessage): void;
  /** Puts `next` in the place of message `id`, or (null) removes it. */
  replace(id: string, next: ChatMessage | null): void;
  /** The ids shown, so that a read-back takes no message shown for new. */
  knownIds(): Set<string>;
  /** The last message when it is a failed reply: the one Retry asks again for. */
  failedReply(): ChatMessage | undefined;
  /** The visitor's latest message. */
  lastAsked(): ChatMessage | undefined;
}

/** An empty thread. */
export function createThread(): Thread {
  const messages = signal<readonly ChatMessage[]>([]);
  return {
    messages,
    append: (message) => void (messages.value = [...messages.value, message]),
    replace(id, next) {
      messages.value = messages.value.flatMap((m) => (m.id !== id ? [m] : next ? [next] : []));
    },
    knownIds: () => new Set(messages.value.map((m) => m.id)),
    failedReply: () => lastFailedReply(messages.value),
    lastAsked: () => messages.value.findLast((m) => m.role === 'user'),
  };
}

import type { Signal } from '@preact/signals';
import type { ChatMessage } from './messages.js';

/** The messages shown, which only the model's actions edit. */
export type Thread = Signal<readonly ChatMessage[]>;

/** Adds `message` at the end of the thread. */
export function append(thread: Thread, message: ChatMessage): void {
  thread.value = [...thread.value, message];
}

/** Puts `next` in the place of message `id`, or (null) removes it. */
export function replace(thread: Thread, id: string, next: ChatMessage | null): void {
  thread.value = thread.value.flatMap((m) => (m.id !== id ? [m] : next ? [next] : []));
}

/** The visitor's latest message. */
export function lastAsked(thread: Thread): ChatMessage | undefined {
  return thread.value.findLast((m) => m.role === 'user');
}

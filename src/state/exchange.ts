import type { ApiMessage } from '../api/types.js';

/** What the service stored for the question just asked: the visitor's message, and the reply to it if there is one. */
export interface StoredExchange {
  question: ApiMessage;
  reply: ApiMessage | undefined;
}

/**
 * Finds the exchange of the question just asked in the conversation's newest messages (oldest first): the last
 * visitor message, if the widget does not know it yet and it is the text just asked, and the first bot reply after
 * it. A reply that comes before it belongs to an earlier question (an earlier failed reply, say) and is never taken.
 */
export function findExchange(
  list: readonly ApiMessage[],
  content: string,
  known: ReadonlySet<string>,
): StoredExchange | undefined {
  const at = list.findLastIndex((m) => !m.machine);
  const question = list[at];
  if (!question || known.has(question.id) || question.content.trim() !== content) return undefined;
  return { question, reply: list.slice(at + 1).find((m) => m.machine && !known.has(m.id)) };
}

/**
 * The history as the visitor saw it. Asking again after a failed reply (Retry) has to post the question again (the
 * API has no "regenerate"), so the service holds the question twice; the earlier attempt and its failed replies are
 * left out, and the question shows once with the reply it finally got.
 */
export function collapseRetries(list: readonly ApiMessage[]): ApiMessage[] {
  const shown: ApiMessage[] = [];
  for (const message of list) {
    const at = message.machine ? -1 : shown.findLastIndex((m) => !m.machine);
    if (at >= 0 && shown[at]?.content === message.content && shown.slice(at + 1).every((m) => m.failed_responding))
      shown.length = at;
    shown.push(message);
  }
  return shown;
}

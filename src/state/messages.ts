import type { ApiMessage, ApiSource } from '../api/types.js';

/** A document a reply drew on, ready to list under it. */
export interface Source {
  id: string;
  title: string;
  url: string | undefined;
}

/**
 * A message as the UI shows it.
 * - `pending`: sent by the visitor, not yet accepted by the service;
 * - `stopped`: a reply the visitor stopped part-way;
 * - `failed`: a reply the service could not produce (`failed_responding`) or that broke off.
 */
export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  status: 'done' | 'pending' | 'stopped' | 'failed';
  flagged: boolean;
  sources: readonly Source[];
  /** When it was written, in epoch milliseconds (the service's `created_at`, or the moment a local one was made). */
  time: number;
}

/** Converts a stored service message to a UI message. */
export function toChatMessage(message: ApiMessage): ChatMessage {
  return {
    id: message.id,
    role: message.machine ? 'assistant' : 'user',
    text: message.content,
    status: message.failed_responding ? 'failed' : 'done',
    flagged: message.flagged,
    sources: toSources(message.sources),
    time: message.created_at * 1000,
  };
}

/** The sources worth listing: each document once, titled, linked only by an http(s) URL. */
export function toSources(items: readonly ApiSource[]): Source[] {
  const seen = new Set<string>();
  const sources: Source[] = [];
  for (const item of items) {
    const id = item.document_id ?? item.document_url ?? item.document_name;
    if (!id || seen.has(id)) continue;
    seen.add(id);
    sources.push({ id, title: item.document_name || item.document_url || id, url: safeUrl(item.document_url) });
  }
  return sources;
}

// SECURITY: source links come from the service; only http(s) URLs become links.
function safeUrl(url: string | undefined): string | undefined {
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}

let localIds = 0;

/** A message the service has not stored (yet): the visitor's pending question, or a reply kept from the stream. */
export function localMessage(role: ChatMessage['role'], text: string, status: ChatMessage['status']): ChatMessage {
  // Stryker disable next-line AssignmentOperator: counting down gives unique ids all the same.
  localIds += 1;
  return { id: `local-${localIds}`, role, text, status, flagged: false, sources: [], time: Date.now() };
}

/** The last message of `list` when it is a failed reply: the one the widget's Retry asks again for. */
export function lastFailedReply(list: readonly ChatMessage[]): ChatMessage | undefined {
  const last = list.at(-1);
  return last?.role === 'assistant' && last.status === 'failed' ? last : undefined;
}

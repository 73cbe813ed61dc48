import type { Handoff } from '../config/handoff.js';
import type { Emit } from './events.js';
import type { ChatMessage } from './messages.js';
import { toMarkdown, type TranscriptLabels } from './transcript.js';

/**
 * The longest `body=` of a handoff email, in characters after percent-encoding: mail clients and browsers refuse or
 * cut `mailto:` links much past 2,000 characters (Outlook and older Edge near 2,083), so the conversation is cut
 * to fit, its latest messages kept, behind "…".
 */
export const MAILTO_BODY_MAX = 1800;

/** Where "Talk to a person" leads, and by which way. */
export interface HandoffLink {
  href: string;
  via: 'email' | 'url';
}

/** The conversation a handoff is about: its messages, and its id if the service has it. */
export interface HandoffConversation {
  messages: readonly ChatMessage[];
  id: string | undefined;
}

/** The site's way to a person for this conversation: its contact page (with the conversation id when asked), else an email. */
export function handoffLink(
  handoff: Handoff,
  { messages, id: conversationId }: HandoffConversation,
  labels: TranscriptLabels,
): HandoffLink | undefined {
  const { url: page, email, param } = handoff;
  if (page) {
    const url = new URL(page);
    if (param && conversationId) url.searchParams.set(param, conversationId);
    return { href: url.href, via: 'url' };
  }
  if (!email) return undefined;
  const subject = conversationId ? `${labels.title} (${conversationId})` : labels.title;
  const body = fit(messages.length > 0 ? toMarkdown(messages, labels) : '');
  // SECURITY: the address matched a strict pattern (config/handoff.ts): no `?`, `&` or `%` can add headers.
  return {
    href: `mailto:${email}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`,
    via: 'email',
  };
}

/** `text`, or its end behind "…", short enough to stay within `MAILTO_BODY_MAX` once encoded. */
function fit(text: string): string {
  if (encodeURIComponent(text).length <= MAILTO_BODY_MAX) return text;
  // Whole code points, so no half of an emoji is left to break the encoding.
  const chars = [...text];
  let low = 0;
  let high = chars.length;
  // The shortest cut (from the start) whose rest fits.
  while (low < high) {
    const mid = (low + high) >> 1;
    if (encodeURIComponent(`…${chars.slice(mid).join('')}`).length <= MAILTO_BODY_MAX) high = mid;
    else low = mid + 1;
  }
  return `…${chars.slice(low).join('')}`;
}

/** Fires `handoff` on the page API when the visitor takes the way to a person. */
export const createHandoff =
  (emit: Emit, conversation: () => { id: string } | undefined) =>
  (via: HandoffLink['via']): void =>
    emit('handoff', { conversationId: conversation()?.id, via });

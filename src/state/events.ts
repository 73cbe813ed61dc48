import type { ChatError } from '../api/errors.js';
import type { ChatMessage } from './messages.js';

/** Lifecycle events, for analytics and page logic (`handle.on(...)`). */
export interface WidgetEvents {
  open: undefined;
  close: undefined;
  send: { text: string };
  reply: { message: ChatMessage };
  error: { kind: ChatError['kind']; message: string };
  /** The service's message limit is reached (402): sending waits; `message` is the service's text, for the owner. */
  quota: { message: string };
  /**
   * The visitor rated a reply: once per rating, as it is sent. A thumbs-up fires at once; a thumbs-down fires when
   * its comment is sent (with `comment`) or skipped, or as the visitor leaves with the comment box open. A Retry of
   * a failed send does not fire it again.
   */
  feedback: { messageId: string; conversationId: string; rating: 'up' | 'down'; comment: string | undefined };
  /** The visitor asked for a person: `via` is how they are reached. */
  handoff: { conversationId: string | undefined; via: 'email' | 'url' };
  /**
   * The visitor accepted or declined the consent text (`data-consent`): once per choice, as they make it; a choice
   * remembered from an earlier visit does not fire it.
   */
  consent: { accepted: boolean };
}

/** Emits a lifecycle event; `mount()` forwards these to `handle.on` listeners. */
export type Emit = <K extends keyof WidgetEvents>(type: K, detail: WidgetEvents[K]) => void;

/**
 * Reports the message limit (402) for the site owner: the service's text ("…upgrade your plan") speaks to them, so it
 * goes to the console, once per widget, rather than to the visitor; and every time as a `quota` event.
 */
export function createQuotaReport(emit: Emit): (message: string) => void {
  let logged = false;
  return (message) => {
    if (!logged) console.warn(`[askbox] The chat service's message limit is reached: ${message}`);
    logged = true;
    emit('quota', { message });
  };
}

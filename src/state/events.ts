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
}

/** Emits a lifecycle event; `mount()` forwards these to `handle.on` listeners. */
export type Emit = <K extends keyof WidgetEvents>(type: K, detail: WidgetEvents[K]) => void;

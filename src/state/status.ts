import { effect, type Signal } from '@preact/signals';
import type { ChatError } from '../api/errors.js';

/**
 * A failure the widget shows, as what the visitor can do about it (`can`):
 * - `reload`: Retry reads the stored history again;
 * - `resend`: the connection was lost before the service took the message; it waits, pending, and Retry (or the
 *   connection's return) sends it, or reads it back if the service got it after all. New messages wait meanwhile;
 * - `wait`: a 429 with `Retry-After`: sending waits until `until` (epoch ms), when the failure ends by itself;
 * - `restart`: the message limit (402): sending waits until a new conversation;
 * - `none`: nothing to repeat; the visitor may send again (a failed reply carries its own Retry).
 *
 * `setup`: the site's own setup refused the request (see fail.ts), so the visitor reads `errors.config`.
 */
export type Failure = { error: ChatError; setup?: boolean } & (
  | { can: 'reload' | 'resend' | 'restart' | 'none' }
  | { can: 'wait'; until: number }
);

/** What a failure may offer to repeat, when repeating can help: the history's read, or the held message's send. */
export type Repeat = 'reload' | 'resend';

/**
 * Everything the widget can be doing, as one value:
 * - `idle`: ready for a message;
 * - `loading`: reading the stored conversation's history;
 * - `sending`: the message is on its way, no reply token yet;
 * - `streaming`: reply tokens are arriving;
 * - `failed`: the last action failed; `failure` says what the visitor can do.
 */
export type ChatStatus = { type: 'idle' | 'loading' | 'sending' | 'streaming' } | { type: 'failed'; failure: Failure };

/** The status with nothing going on. */
export const IDLE: ChatStatus = Object.freeze({ type: 'idle' });

/**
 * The failure for `error`: a 402 waits for a new conversation, a 429 with `Retry-After` for its time; otherwise
 * `repeat` is offered when repeating can help (the error is retryable), else nothing.
 */
export function toFailure(error: ChatError, repeat?: Repeat): Failure {
  const wait = error.kind === 'rate_limit' && error.retryAfter;
  if (error.kind === 'quota') return { can: 'restart', error };
  if (wait) return { can: 'wait', until: Date.now() + wait * 1000, error };
  return { can: (error.retryable && repeat) || 'none', error };
}

/** Whether a failure holds sending back (the notice is the reason): a held message, a 429's wait, the 402 limit. */
export function holdsSending(failure: Failure | undefined): boolean {
  return failure !== undefined && failure.can !== 'none' && failure.can !== 'reload';
}

/** The longest delay a timer takes (about 24.8 days); a longer one would fire at once. */
const MAX_DELAY = 2 ** 31 - 1;

/**
 * Ends a `wait` failure (a 429's) when its time comes: the notice goes and sending resumes, the draft untouched.
 * Created in a model, the watch is disposed with it.
 */
export function endWaits(status: Signal<ChatStatus>): void {
  effect(() => {
    const failure = failureOf(status.value);
    if (failure?.can !== 'wait') return;
    // A status that changes before then (a new conversation, another failure) clears the timer.
    const timer = setTimeout(() => (status.value = IDLE), Math.min(failure.until - Date.now(), MAX_DELAY));
    return () => clearTimeout(timer);
  });
}

/** Whether a request is in flight, so a second send must wait. */
export function isBusy(status: ChatStatus): boolean {
  return status.type === 'loading' || status.type === 'sending' || status.type === 'streaming';
}

/** The failure a status carries, if any. */
export function failureOf(status: ChatStatus): Failure | undefined {
  return status.type === 'failed' ? status.failure : undefined;
}

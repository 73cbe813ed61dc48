import { effect, type Signal } from '@preact/signals';
import type { ChatError } from '../api/errors.js';

/**
 * What a failure lets the visitor repeat: loading the stored history, asking again for the last reply, or sending
 * the message a lost connection gave back.
 */
export type RetryTarget = 'history' | 'reply' | 'send';

/** A failure the widget shows, and whether repeating what failed can help. */
export interface Failure {
  type: 'failed' | 'quota' | 'rate-limited' | 'offline';
  error: ChatError;
  /** Absent when repeating cannot help (a 402, a refused config) or the visitor repeats by sending again. */
  retry: RetryTarget | undefined;
  /** A 429's `Retry-After` as a time (epoch ms): sending waits until then, when the failure ends by itself. */
  until?: number;
  /** The site's own setup refused the request (see setup-fault.ts): the visitor reads `errors.config`. */
  setup?: boolean;
}

/**
 * Everything the widget can be doing, as one value:
 * - `idle`: ready for a message;
 * - `loading`: reading the stored conversation's history;
 * - `sending`: the message is on its way, no reply token yet;
 * - `streaming`: reply tokens are arriving;
 * - `failed`, `rate-limited` (429), `offline` (no connection): the last action failed; the visitor can still type
 *   and send (after a 429 with `Retry-After`, once that has passed), and `retry` says what the single Retry repeats;
 * - `quota` (402): the message limit is reached; the visitor can type, and sending waits until a new conversation.
 */
export type ChatStatus = { type: 'idle' | 'loading' | 'sending' | 'streaming' } | Failure;

/** The status with nothing going on. */
export const IDLE: ChatStatus = Object.freeze({ type: 'idle' });

const FAILURE_TYPES: Partial<Record<ChatError['kind'], Failure['type']>> = {
  quota: 'quota',
  rate_limit: 'rate-limited',
  network: 'offline',
};

/** The status for `error`: its kind picks the type, and `target` is offered only when repeating can help. */
export function toFailure(error: ChatError, target?: RetryTarget): Failure {
  const wait = error.kind === 'rate_limit' ? error.retryAfter : undefined;
  return {
    type: FAILURE_TYPES[error.kind] ?? 'failed',
    error,
    retry: error.retryable ? target : undefined,
    ...(wait && { until: Date.now() + wait * 1000 }),
  };
}

/** The longest delay a timer takes (about 24.8 days); a longer one would fire at once. */
const MAX_DELAY = 2 ** 31 - 1;

/**
 * Ends a failure with `until` (a 429's wait) when its time comes: the notice goes and sending resumes, the draft
 * untouched. Created in a model, the watch is disposed with it.
 */
export function endWaits(status: Signal<ChatStatus>): void {
  effect(() => {
    const failure = failureOf(status.value);
    if (failure?.until === undefined) return;
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
  return 'error' in status ? status : undefined;
}

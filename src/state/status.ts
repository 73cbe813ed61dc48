import { effect, signal, type ReadonlySignal } from '@preact/signals';
import type { ChatError } from '../api/errors.js';
import type { Transitions } from './machine.js';

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
const IDLE: ChatStatus = Object.freeze({ type: 'idle' });

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

/** What a status can be, by its type. */
export type StatusType = ChatStatus['type'];

/**
 * What moves the status:
 * - `load`: the stored history is being read;
 * - `send`: a message (or a question asked again) is on its way;
 * - `stream`: the service accepted it and its reply streams;
 * - `done`: the work in flight ended without failing (a reply committed, a history read, a send stopped);
 * - `fail`: it failed (the failure comes with the event);
 * - `dismiss`: the visitor closed the failure's notice;
 * - `wait-over`: a 429's wait is over;
 * - `clear`: the conversation was put away (a new one, an earlier one resumed): whatever was going on is stale.
 */
export type StatusEvent = 'load' | 'send' | 'stream' | 'done' | 'fail' | 'dismiss' | 'wait-over' | 'clear';

/**
 * The status's transitions. Work starts only from rest (idle, or a failure, which a new attempt replaces); only work
 * under way ends or fails; a failure ends by a new attempt, the visitor's dismissal, its wait, or a clear. A clear
 * puts everything else to rest; at rest already, there is nothing to clear.
 */
export const STATUS_TRANSITIONS: Transitions<StatusType, StatusEvent> = {
  idle: { load: 'loading', send: 'sending' },
  loading: { done: 'idle', fail: 'failed', clear: 'idle' },
  sending: { stream: 'streaming', done: 'idle', fail: 'failed', clear: 'idle' },
  streaming: { done: 'idle', fail: 'failed', clear: 'idle' },
  failed: { load: 'loading', send: 'sending', dismiss: 'idle', 'wait-over': 'idle', clear: 'idle' },
};

/** The status and its one writer. */
export interface StatusMachine {
  /** What the widget is doing; only `go` moves it. */
  readonly status: ReadonlySignal<ChatStatus>;
  /**
   * Moves the status on `event` if `STATUS_TRANSITIONS` lists it for the status now (`fail` with the failure to
   * show); whether it did. A refused event changes nothing.
   */
  go(event: Exclude<StatusEvent, 'fail'>): boolean;
  go(event: 'fail', failure: Failure): boolean;
}

/** The longest delay a timer takes (about 24.8 days); a longer one would fire at once. */
const MAX_DELAY = 2 ** 31 - 1;

/**
 * A model's status, idle. A `wait` failure (a 429's) ends by itself when its time comes: the notice goes and sending
 * resumes, the draft untouched. Created in a model, that watch is disposed with it.
 */
export function createStatusMachine(): StatusMachine {
  const status = signal<ChatStatus>(IDLE);
  function go(event: StatusEvent, failure?: Failure): boolean {
    const to = STATUS_TRANSITIONS[status.peek().type][event];
    if (!to) return false;
    if (to === 'idle') status.value = IDLE;
    else if (to !== 'failed') status.value = { type: to };
    else if (failure) status.value = { type: 'failed', failure };
    else return false;
    return true;
  }
  effect(() => {
    const failure = failureOf(status.value);
    if (failure?.can !== 'wait') return;
    // A status that changes before then (a new conversation, another attempt) clears the timer.
    const timer = setTimeout(() => go('wait-over'), Math.min(failure.until - Date.now(), MAX_DELAY));
    return () => clearTimeout(timer);
  });
  return { status, go };
}

/** Whether a request is in flight, so a second send must wait. */
export function isBusy(status: ChatStatus): boolean {
  return status.type === 'loading' || status.type === 'sending' || status.type === 'streaming';
}

/** The failure a status carries, if any. */
export function failureOf(status: ChatStatus): Failure | undefined {
  return status.type === 'failed' ? status.failure : undefined;
}

import { computed, effect, signal, type ReadonlySignal } from '@preact/signals';
import { MAX_MESSAGE_LENGTH, messageLength } from '../config/schema.js';
import { lastFailedReply, type ChatMessage } from './messages.js';
import { endWaits, failureOf, holdsSending, IDLE, isBusy, type ChatStatus } from './status.js';

/**
 * The model's signals, and what the status lets the visitor do, as one tuple (Terser shortens the names it is
 * taken apart into, never property names). The model hands the tuple itself to its parts, which take the leading
 * signals they use. A `wait` failure ends by itself when its time comes.
 */
export function createChatState(online: ReadonlySignal<boolean>) {
  const messages = signal<readonly ChatMessage[]>([]);
  const streaming = signal('');
  /** Whether no text of the reply in flight has come yet: the log shows the typing dots meanwhile. */
  const silent = computed(() => streaming.value === '');
  const status = signal<ChatStatus>(IDLE);
  const isOpen = signal(false);
  const draft = signal('');
  /** The last completed reply, for the screen-reader live region (tokens are not announced one by one). */
  const announcement = signal<ChatMessage | null>(null);
  /** A short status for the same live region (copied, deleted, rated); a completed reply replaces it. */
  const note = signal('');
  effect(() => void (announcement.value, (note.value = '')));
  const busy = computed(() => isBusy(status.value));
  const failure = computed(() => failureOf(status.value));
  /** Whether sending waits, with the notice as the reason and the draft editable (see `holdsSending`). */
  const held = computed(() => holdsSending(failure.value));
  endWaits(status);
  /** Whether the last reply failed and the single Retry asks again for it (nothing else failing is to repeat). */
  const canRetryReply = computed(
    () => !busy.value && !held.value && failure.value?.can !== 'reload' && Boolean(lastFailedReply(messages.value)),
  );
  const canSend = computed(
    () =>
      !busy.value && !held.value && draft.value.trim().length > 0 && messageLength(draft.value) <= MAX_MESSAGE_LENGTH,
  );
  return [
    online,
    messages,
    status,
    streaming,
    draft,
    announcement,
    isOpen,
    busy,
    silent,
    note,
    failure,
    held,
    canRetryReply,
    canSend,
  ] as const;
}

/** The model's signals its parts read and write, in this order: see `createChatState`. */
export type ModelSignals = ReturnType<typeof createChatState>;

import { computed, effect, signal, type ReadonlySignal } from '@preact/signals';
import { MAX_MESSAGE_LENGTH, messageLength } from '../config/schema.js';
import { lastFailedReply, type ChatMessage } from './messages.js';
import { createStatusMachine, failureOf, holdsSending, isBusy } from './status.js';

/**
 * The model's signals, by name, and what the status lets the visitor do. The model hands this one object to its
 * parts, which read and write the signals they use; the status moves only through `go` (see `STATUS_TRANSITIONS`).
 */
export function createModelState(online: ReadonlySignal<boolean>) {
  const messages = signal<readonly ChatMessage[]>([]);
  const streaming = signal('');
  /** Whether no text of the reply in flight has come yet: the log shows the typing dots meanwhile. */
  const silent = computed(() => streaming.value === '');
  const { status, go } = createStatusMachine();
  const draft = signal('');
  /** The last completed reply, for the screen-reader live region (tokens are not announced one by one). */
  const announcement = signal<ChatMessage | null>(null);
  /** A short status for the same live region (copied, deleted, rated); a completed reply replaces it. */
  const note = signal('');
  effect(() => {
    // Read for its changes: each completed reply (or its clearing) empties the note.
    void announcement.value;
    note.value = '';
  });
  const busy = computed(() => isBusy(status.value));
  const failure = computed(() => failureOf(status.value));
  /** Whether sending waits, with the notice as the reason and the draft editable (see `holdsSending`). */
  const held = computed(() => holdsSending(failure.value));
  /** Whether the last reply failed and the single Retry asks again for it (nothing else failing is to repeat). */
  const canRetryReply = computed(
    () => !busy.value && !held.value && failure.value?.can !== 'reload' && Boolean(lastFailedReply(messages.value)),
  );
  const canSend = computed(
    () =>
      !busy.value && !held.value && draft.value.trim().length > 0 && messageLength(draft.value) <= MAX_MESSAGE_LENGTH,
  );
  return {
    /** Whether the browser is online. */
    online,
    messages,
    streaming,
    silent,
    /** What the widget is doing (see `ChatStatus`). */
    status,
    /** Moves `status`: its one writer. */
    go,
    draft,
    announcement,
    note,
    busy,
    failure,
    held,
    canRetryReply,
    canSend,
  };
}

/** The model's signals its parts read and write: see `createModelState`. */
export type ModelState = ReturnType<typeof createModelState>;

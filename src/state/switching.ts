import { batch } from '@preact/signals';
import type { ConversationRef } from '../api/client.js';
import type { createConversations } from './conversations.js';
import type { Emit } from './events.js';
import type { createOpener } from './opener.js';
import type { Runs } from './runs.js';
import type { createHistory } from './sending.js';
import type { ModelSignals } from './model-state.js';
import type { Session } from './session.js';
import { IDLE } from './status.js';
import type { createUndo } from './undo.js';

/**
 * The panel and the conversation it shows: `clear` empties it and forgets the conversation, or puts `next` in its
 * place (`keep`: first keep it for Undo), which makes the send in flight stale, so nothing of the conversation left
 * behind is written; `resume` shows an earlier conversation; `restore` brings back what `clear` kept; `open` reads
 * the stored history the first time, and `close`.
 */
export function createSwitching(
  session: Session,
  conversations: ReturnType<typeof createConversations>,
  undo: ReturnType<typeof createUndo>,
  runs: Runs,
  opener: ReturnType<typeof createOpener>,
  history: ReturnType<typeof createHistory>,
  emit: Emit,
  [, messages, status, streaming, , announcement, isOpen, busy]: ModelSignals,
) {
  function clear(keep: boolean, next?: ConversationRef) {
    undo.keep(keep ? messages.value : []);
    runs.invalidate();
    if (next) session.save(next);
    else session.forget();
    // A fresh conversation: its proof of work, if the proxy asks for one, is solved ahead.
    opener.warm();
    batch(() => {
      messages.value = [];
      streaming.value = '';
      status.value = IDLE;
      announcement.value = null;
      conversations.shown.value = false;
    });
  }

  /** Shows `earlier`, one of the visitor's conversations, its history loaded anew; Undo is given up. */
  function resume(earlier: ConversationRef) {
    if (earlier.id === session.current()?.id) return conversations.show(false);
    clear(false, earlier);
    history.loaded = false;
    void history.load();
  }

  /** Brings back what the last "new conversation" cleared, as long as the visitor has not sent since. */
  function restore() {
    const restored = undo.restore();
    if (!restored) return;
    history.loaded = true;
    messages.value = restored;
  }

  /** Opens the panel: the stored history is read the first time, and a first conversation's proof solved ahead. */
  function open() {
    if (isOpen.value) return;
    isOpen.value = true;
    emit('open', undefined);
    if (!history.loaded && !busy.value) void history.load();
    opener.warm();
  }

  function close() {
    if (!isOpen.value) return;
    isOpen.value = false;
    emit('close', undefined);
  }

  return [clear, resume, restore, open, close] as const;
}

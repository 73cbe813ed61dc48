import { batch } from '@preact/signals';
import type { ConversationRef } from '../api/client.js';
import type { Conversations } from './conversations.js';
import type { Emit } from './events.js';
import type { History } from './history.js';
import type { ModelState } from './model-state.js';
import type { Opener } from './opener.js';
import type { PanelView } from './panel.js';
import type { Runs } from './runs.js';
import type { Session } from './session.js';
import type { createUndo } from './undo.js';

interface SwitchingDeps {
  session: Session;
  conversations: Conversations;
  undo: ReturnType<typeof createUndo>;
  runs: Runs;
  opener: Opener;
  history: History;
  emit: Emit;
  state: ModelState;
  panel: PanelView;
  /**
   * Called as the visitor leaves what the panel shows (it closes, or another conversation takes its place): a
   * thumbs-down still waiting for its comment is sent then (see `feedback.flush`).
   */
  leave: () => void;
}

/**
 * The panel and the conversation it shows: `clear` empties it and forgets the conversation, or puts `next` in its
 * place (`keep`: first keep it for Undo), which makes the send in flight stale, so nothing of the conversation left
 * behind is written; `resume` shows an earlier conversation; `restore` brings back what `clear` kept; `open` reads
 * the stored history the first time, and `close`.
 */
export function createSwitching({
  session,
  conversations,
  undo,
  runs,
  opener,
  history,
  emit,
  state,
  panel,
  leave,
}: SwitchingDeps) {
  function clear(keep: boolean, next?: ConversationRef) {
    leave();
    undo.keep(keep ? state.messages.value : []);
    runs.invalidate();
    if (next) session.save(next);
    else session.forget();
    // A fresh conversation: its proof of work, if the proxy asks for one, is solved ahead.
    opener.warm();
    batch(() => {
      state.messages.value = [];
      state.streaming.value = '';
      state.go('clear');
      state.announcement.value = null;
      conversations.shown.value = false;
    });
  }

  /** Shows `earlier`, one of the visitor's conversations, its history loaded anew; Undo is given up. */
  function resume(earlier: ConversationRef) {
    if (earlier.id === session.current()?.id) return conversations.show(false);
    clear(false, earlier);
    history.go('resumed');
    void history.load();
  }

  /** Brings back what the last "new conversation" cleared, as long as the visitor has not sent since. */
  function restore() {
    const restored = undo.restore();
    if (!restored) return;
    history.go('restored');
    state.messages.value = restored;
  }

  /** Opens the panel: the stored history is read the first time, and a first conversation's proof solved ahead. */
  function open() {
    if (panel.isOpen.value) return;
    panel.setOpen(true);
    emit('open', undefined);
    if (!history.loaded && !state.busy.value) void history.load();
    opener.warm();
  }

  function close() {
    if (!panel.isOpen.value) return;
    leave();
    panel.setOpen(false);
    emit('close', undefined);
  }

  return { clear, resume, restore, open, close };
}

import { action, batch, effect } from '@preact/signals';
import { MAX_MESSAGE_LENGTH, messageLength } from '../config/schema.js';
import type { Emit } from './events.js';
import type { History } from './history.js';
import { localMessage } from './messages.js';
import type { ModelState } from './model-state.js';
import type { Ask } from './sending.js';
import type { Session } from './session.js';
import { append, lastAsked } from './thread.js';
import type { createUndo } from './undo.js';

interface AskingDeps {
  state: ModelState;
  session: Session;
  history: History;
  undo: ReturnType<typeof createUndo>;
  emit: Emit;
  /** Asks the service for a reply (see `createSending`). */
  ask: (asked: Ask) => Promise<void>;
  /** Whether the visitor's consent lets a message go (see consent.ts). */
  allowed: () => boolean;
}

/**
 * The visitor's two ways of asking: `send` a message, and `retry` what failed; and the connection's return, which
 * sends (or reads back) the message it held, while a failure while online waits for Retry.
 */
export function createAsking({ state, session, history, undo, emit, ask, allowed }: AskingDeps) {
  const { messages, draft } = state;

  /**
   * Sends `text` (default: the draft). Resolves when the reply is complete or has failed. Before the visitor's
   * consent nothing is sent: text given by the page goes into an empty box (what the visitor typed stays), sent only
   * if the visitor sends it after accepting.
   */
  const send = action(async (text?: string) => {
    const content = (text ?? draft.value).trim();
    if (!allowed()) {
      if (text !== undefined && !draft.value.trim()) draft.value = text;
      return;
    }
    if (!content || state.busy.value || state.held.value) return;
    if (messageLength(content) > MAX_MESSAGE_LENGTH) {
      // Too long to send: text given by the page goes into the box, for the visitor to shorten.
      if (text !== undefined) draft.value = text;
      return;
    }
    if (!history.loaded && session.current()) await history.load();
    const user = localMessage('user', content, 'pending');
    batch(() => {
      undo.drop();
      append(messages, user);
      if (text === undefined || text.trim() === draft.value.trim()) draft.value = '';
    });
    emit('send', { text: content });
    await ask({ content, pending: user });
  });

  /**
   * Repeats what failed: loading the history, sending the message a lost connection held back (unless the service
   * got it after all: what may have reached it is read back, not sent twice), or asking again for the failed reply.
   */
  const retry = action(async () => {
    const can = state.failure.value?.can;
    if (can === 'reload') return history.load();
    const asked = lastAsked(messages);
    if (!asked || (can !== 'resend' && !state.canRetryReply.value)) return;
    await ask({
      content: asked.text,
      pending: asked.status === 'pending' ? asked : undefined,
      check: can === 'resend',
    });
  });

  effect(() => {
    if (state.online.value && state.failure.peek()?.can === 'resend') void retry();
  });

  return { send, retry };
}

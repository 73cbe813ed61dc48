import { action, batch, createModel, effect, type ReadonlySignal } from '@preact/signals';
import type { ChatClient } from '../api/client.js';
import { MAX_MESSAGE_LENGTH, messageLength, type WidgetConfig } from '../config/schema.js';
import { localMessage } from './messages.js';
import { createOpener } from './opener.js';
import { createRuns } from './runs.js';
import { createSession, storageKey } from './session.js';
import { createConversations } from './conversations.js';
import { createUndo } from './undo.js';
import { createStallWatch } from './stall.js';
import { IDLE } from './status.js';
import { createChatState } from './model-state.js';
import type { Emit } from './events.js';
import { createFail } from './fail.js';
import { createFeedback } from './feedback.js';
import { createRemoval } from './removal.js';
import { createHandoff } from './handoff.js';
import { append, lastAsked } from './thread.js';
import { createHistory, createSending } from './sending.js';
import { createSwitching } from './switching.js';
import type { KeyValueStore } from './storage.js';

/** What the model reaches the outside world through. */
export interface ChatModelDeps {
  client: ChatClient;
  storage: KeyValueStore;
  config: WidgetConfig;
  emit: Emit;
  /** Whether the browser is online (`navigator.onLine`, then its `online` and `offline` events). */
  online: ReadonlySignal<boolean>;
}

/**
 * The widget's state and actions. `status` is the one source of what the widget is doing (see `ChatStatus`);
 * `retry()` is the one way to repeat what failed. Nothing touches the network or storage before the visitor
 * engages: the stored conversation is read when the panel first opens (history) or the first message is sent, and
 * a conversation is created only with that first message.
 */
export const ChatModel = createModel((deps: ChatModelDeps) => {
  const { client, config, emit, online } = deps;
  const session = createSession(deps.storage, storageKey('conversation', config));
  const conversations = createConversations(deps.storage, storageKey('conversations', config));
  const signals = createChatState(online);
  const [, messages, status, streaming, draft, announcement, isOpen, busy, silent, note, failure, held, ...gates] =
    signals;
  const [canRetryReply, canSend] = gates;
  const undo = createUndo(session);
  const { stalled, watch: watchStall } = createStallWatch();

  const runs = createRuns();
  const fail = createFail({ config, online, status, emit });
  // A conversation created here has no earlier history to fetch.
  const opener = createOpener(client, config, session, () => (history.loaded = true), conversations.drop);
  const history = createHistory(client, session, conversations, runs, fail, signals);
  const ask = createSending(client, session, conversations, opener, runs, emit, fail, watchStall, signals);
  const switching = createSwitching(session, conversations, undo, runs, opener, history, emit, signals);
  const [clear, resume, restore, open, close] = switching;
  /** Sends `text` (default: the draft). Resolves when the reply is complete or has failed. */
  const send = action(async (text?: string) => {
    const content = (text ?? draft.value).trim();
    if (!content || busy.value || held.value) return;
    if (messageLength(content) > MAX_MESSAGE_LENGTH) return void (text !== undefined && (draft.value = text));
    if (!history.loaded && session.current()) await history.load();
    const user = localMessage('user', content, 'pending');
    batch(() => {
      undo.drop();
      append(messages, user);
      if (text === undefined || text.trim() === draft.value.trim()) draft.value = '';
    });
    emit('send', { text: content });
    await ask(content, user);
  });

  /**
   * Repeats what failed: loading the history, sending the message a lost connection held back (unless the service
   * got it after all: what may have reached it is read back, not sent twice), or asking again for the failed reply.
   */
  const retry = action(async () => {
    const can = failure.value?.can;
    if (can === 'reload') return history.load();
    const asked = lastAsked(messages);
    if (asked && (can === 'resend' || canRetryReply.value))
      await ask(asked.text, asked.status === 'pending' ? asked : undefined, can === 'resend');
  });
  // The connection's return sends (or reads back) the message it held; a failure while online waits for Retry.
  effect(() => void (online.value && failure.peek()?.can === 'resend' && retry()));
  const conversation = () => session.current();
  const feedback = createFeedback({ client, storage: deps.storage, config, emit, conversation });
  const discard = () => (conversations.drop(conversation()?.id ?? ''), feedback.forget(messages.value), clear(false));
  const removal = createRemoval({ client, conversation, discard });

  return {
    messages,
    streaming,
    silent,
    note,
    feedback,
    removal,
    /** Fires `handoff` as the visitor takes the way to a person. */
    handoff: createHandoff(emit, conversation),
    /** The conversation in use, if the visitor has one. */
    conversation,
    status,
    failure,
    canRetryReply,
    isOpen,
    draft,
    announcement,
    cleared: undo.cleared,
    stalled,
    busy,
    held,
    canSend,
    online,
    open: action(open),
    close: action(close),
    setDraft: action((value: string) => void (draft.value = value)),
    send,
    stop: action(runs.abort),
    retry,
    dismiss: action(() => void (failure.value && !held.value && (status.value = IDLE))),
    /** Forgets the current conversation; the next message starts a new one. `undoNewConversation` brings it back. */
    newConversation: action(() => clear(true)),
    /** Says `text` once through the panel's live region. */
    say: action((text: string) => void (note.value = text)),
    conversations,
    /** Shows `earlier`, one of the visitor's conversations, its history loaded anew; Undo is given up. */
    resume: action(resume),
    /** Brings back what the last "new conversation" cleared, as long as the visitor has not sent since. */
    undoNewConversation: action(restore),
  };
});

/** One widget's model instance. */
export type ChatModelInstance = InstanceType<typeof ChatModel>;

import { action, computed, createModel, type ReadonlySignal } from '@preact/signals';
import type { ChatClient } from '../api/client.js';
import type { WidgetConfig } from '../config/schema.js';
import { createAsking } from './asking.js';
import { createConsent } from './consent.js';
import { createConversations } from './conversations.js';
import type { Emit } from './events.js';
import { createFail } from './fail.js';
import { createFeedback } from './feedback.js';
import { createHandoff } from './handoff.js';
import { createHistory } from './history.js';
import { createModelState } from './model-state.js';
import { createOpener } from './opener.js';
import { createPersonList } from './person-list.js';
import { createPanelView, type PanelStore } from './panel.js';
import { createRemoval } from './removal.js';
import { createRuns } from './runs.js';
import { createSending } from './sending.js';
import { createSession, storageKey } from './session.js';
import { createStallWatch } from './stall.js';
import { createMemoryStore, type KeyValueStore } from './storage.js';
import { createSwitching } from './switching.js';
import { createUndo } from './undo.js';

/** What the model reaches the outside world through. */
export interface ChatModelDeps {
  client: ChatClient;
  storage: KeyValueStore;
  config: WidgetConfig;
  emit: Emit;
  /** Whether the browser is online (`navigator.onLine`, then its `online` and `offline` events). */
  online: ReadonlySignal<boolean>;
  /** Where the panel's open state is held: the launcher's widget model (see `PanelStore`). */
  panel: PanelStore;
}

/**
 * Where the visitor's conversation, ratings and list are kept: the browser's storage for an anonymous visitor. Nothing
 * about a signed-in person is written to the browser's storage: their conversation and ratings are held in memory,
 * and their list, theirs on every device, is the proxy's.
 */
function visitorStores({ client, config, storage: browser }: ChatModelDeps) {
  const storage = config.user ? createMemoryStore() : browser;
  const conversations = config.user
    ? createPersonList({ client, conversationName: config.conversationName })
    : createConversations(storage, storageKey('conversations', config));
  return { storage, session: createSession(storage, storageKey('conversation', config)), conversations };
}

/**
 * The widget's state and actions. `status` is the one source of what the widget is doing (see `ChatStatus`);
 * `retry()` is the one way to repeat what failed. Nothing touches the network or storage before the visitor
 * engages: the stored conversation is read when the panel first opens (history) or the first message is sent, and
 * a conversation is created only with that first message.
 */
export const ChatModel = createModel((deps: ChatModelDeps) => {
  const { client, config, emit, online } = deps;
  const { storage, session, conversations } = visitorStores(deps);
  const state = createModelState(online);
  // Accepted, the chat gets ready as an open panel does. Before, nothing reaches the proxy or storage: not a message,
  // a history, a proof, the panel's state.
  const consent = createConsent({ storage: deps.storage, config, emit, accepted: () => switching.prepare() });
  const allowed = () => consent.allows.peek();
  const panel = createPanelView(deps.panel, allowed);
  const undo = createUndo(session);
  const stall = createStallWatch();
  const runs = createRuns();
  const fail = createFail({ config, online, go: state.go, emit });
  // A conversation created here has no earlier history to fetch.
  const created = () => void history.go('created');
  const opener = createOpener({ client, config, session, created, gone: conversations.drop, allowed });
  const history = createHistory({ client, session, conversations, runs, fail, state, allowed });
  const ask = createSending({
    client,
    session,
    conversations,
    opener,
    runs,
    emit,
    fail,
    watchStall: stall.watch,
    state,
  });
  const conversation = () => session.current();
  const feedback = createFeedback({ client, storage, config, emit, conversation });
  const leave = feedback.flush;
  const switching = createSwitching({ session, conversations, undo, runs, opener, history, emit, state, panel, leave });
  const { send, retry } = createAsking({ state, session, history, undo, emit, ask, allowed });
  const discard = () => {
    conversations.drop(conversation()?.id ?? '');
    feedback.forget(state.messages.value);
    switching.clear(false);
  };

  return {
    messages: state.messages,
    streaming: state.streaming,
    silent: state.silent,
    note: state.note,
    feedback,
    removal: createRemoval({ client, conversation, discard }),
    /** Fires `handoff` as the visitor takes the way to a person. */
    handoff: createHandoff(emit, conversation),
    /** The conversation in use, if the visitor has one. */
    conversation,
    status: state.status,
    failure: state.failure,
    canRetryReply: state.canRetryReply,
    isOpen: panel.isOpen,
    draft: state.draft,
    announcement: state.announcement,
    cleared: undo.cleared,
    stalled: stall.stalled,
    busy: state.busy,
    held: state.held,
    canSend: computed(() => consent.allows.value && state.canSend.value),
    /** The consent gate (`config.consent`): where the visitor stands, and Accept, Decline, and a second look. */
    consent,
    online,
    open: action(switching.open),
    close: action(switching.close),
    setDraft: action((value: string) => {
      state.draft.value = value;
    }),
    send,
    stop: action(runs.abort),
    retry,
    /** Closes the failure's notice, unless it is why sending waits (see `holdsSending`). */
    dismiss: action(() => {
      if (!state.held.value) state.go('dismiss');
    }),
    /** Forgets the current conversation; the next message starts a new one. `undoNewConversation` brings it back. */
    newConversation: action(() => switching.clear(true)),
    /** Says `text` once through the panel's live region. */
    say: action((text: string) => {
      state.note.value = text;
    }),
    conversations,
    /** Shows `earlier`, one of the visitor's conversations, its history loaded anew; Undo is given up. */
    resume: action(switching.resume),
    /** Brings back what the last "new conversation" cleared, as long as the visitor has not sent since. */
    undoNewConversation: action(switching.restore),
  };
});

/** One widget's model instance. */
export type ChatModelInstance = InstanceType<typeof ChatModel>;

import { action, batch, computed, createModel, effect, signal, type ReadonlySignal } from '@preact/signals';
import type { ChatClient, ConversationRef } from '../api/client.js';
import { ChatError, toChatError } from '../api/errors.js';
import type { ApiMessage } from '../api/types.js';
import { MAX_MESSAGE_LENGTH, messageLength, type WidgetConfig } from '../config/schema.js';
import { collapseRetries, findExchange, type StoredExchange } from './exchange.js';
import { lastFailedReply, localMessage, toChatMessage, type ChatMessage } from './messages.js';
import { createOpener } from './opener.js';
import { createRuns, type Run } from './runs.js';
import { createSession, storageKey } from './session.js';
import { createConversations } from './conversations.js';
import { createUndo } from './undo.js';
import { createStallWatch } from './stall.js';
import { endWaits, failureOf, IDLE, isBusy, type ChatStatus, type RetryTarget } from './status.js';
import type { Emit } from './events.js';
import { createFail } from './setup-fault.js';
import { createFeedback } from './feedback.js';
import { createRemoval } from './removal.js';
import { createHandoff } from './handoff.js';
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
  const undo = createUndo(session);
  const { stalled, watch: watchStall } = createStallWatch();
  const busy = computed(() => isBusy(status.value));
  const failure = computed(() => failureOf(status.value));
  /**
   * Sending waits, with the notice as the reason and the draft editable: after the service's message limit (402)
   * until the visitor starts a new conversation or reloads (re-sending into the same wall helps nobody); after a 429
   * with `Retry-After` until that has passed (`endWaits`); while a message the connection lost waits to be sent.
   */
  const limited = computed(
    () => status.value.type === 'quota' || failure.value?.until !== undefined || failure.value?.retry === 'send',
  );
  endWaits(status);
  /** What the single Retry repeats: a failed history load, or the last reply when it failed. */
  const retryTarget = computed<RetryTarget | undefined>(() => {
    if (failure.value?.retry) return failure.value.retry;
    return !busy.value && !limited.value && failedReply() ? 'reply' : undefined;
  });
  const canSend = computed(
    () =>
      !busy.value &&
      !limited.value &&
      draft.value.trim().length > 0 &&
      messageLength(draft.value) <= MAX_MESSAGE_LENGTH,
  );

  let historyLoaded = false;
  const runs = createRuns();
  const { begin, invalidate } = runs;

  effect(() => () => (invalidate(), watchStall(false)));

  const fail = createFail({ config, online, status, emit });

  const append = (message: ChatMessage) => void (messages.value = [...messages.value, message]);
  const replace = (id: string, next: ChatMessage | null) => {
    messages.value = messages.value.flatMap((m) => (m.id !== id ? [m] : next ? [next] : []));
  };
  const knownIds = () => new Set(messages.value.map((m) => m.id));

  const failedReply = () => lastFailedReply(messages.value);

  async function loadHistory(): Promise<void> {
    // Without a stored conversation there is nothing to load; reading the session again later costs nothing.
    const stored = session.current();
    if (!stored) return;
    const run = begin();
    status.value = { type: 'loading' };
    try {
      const list = await client.listAllMessages(stored, run.signal);
      if (!run.live()) return;
      historyLoaded = true;
      batch(() => {
        messages.value = collapseRetries(list).map(toChatMessage);
        status.value = IDLE;
      });
    } catch (caught) {
      if (!run.live()) return;
      const err = toChatError(caught, run.signal);
      if (err.kind === 'not_found' || err.status === 401 || err.status === 422) {
        // Deleted upstream, or its grant expired or is not this visitor's: start afresh rather than show an error.
        conversations.drop(stored.id);
        session.forget();
        status.value = IDLE;
      } else if (err.kind === 'aborted') {
        status.value = IDLE;
      } else {
        fail(err, 'history');
      }
    }
  }

  // A conversation created here has no earlier history to fetch.
  const opener = createOpener(client, config, session, () => (historyLoaded = true), conversations.drop);

  /**
   * Asks the service for a reply to `content`. `pendingUser` is the visitor's new bubble; without it, the last
   * question is asked again, and the failed reply it had is replaced once the service accepts. `check`: the message
   * may have reached the service already (a lost connection), so what it stored is read back first; it is sent only
   * if it is not there, and not at all if that cannot be read.
   */
  async function ask(content: string, pendingUser?: ChatMessage, check?: boolean): Promise<void> {
    const run = begin();
    const previous = pendingUser ? undefined : failedReply();
    let text = '';
    let accepted = false;
    status.value = { type: 'sending' };
    try {
      const stored = check && (await readExchange(run, content, true));
      if (!run.live()) return;
      if (stored) return showStored(stored);
      if (!online.value) throw new ChatError('network', 'Offline');
      const reply = await opener.open(content, run.signal);
      if (!run.live()) return;
      accepted = true;
      conversations.touch(reply.conversation, content);
      batch(() => {
        if (pendingUser) replace(pendingUser.id, { ...pendingUser, status: 'done' });
        if (previous) replace(previous.id, null);
        status.value = { type: 'streaming' };
      });
      for (let step = reply.first; !step.done; step = await reply.events.next()) {
        if (!run.live()) return;
        if (step.value.type === 'chunk') streaming.value = text += step.value.text;
        watchStall(true);
      }
      watchStall(false);
      await finishReply(run, content, text);
    } catch (caught) {
      if (!run.live()) return;
      const err = toChatError(caught, run.signal);
      if (!accepted) await refused(run, err, content, pendingUser);
      else if (err.kind === 'aborted') {
        if (text) append(localMessage('assistant', text, 'stopped'));
      } else await recoverReply(run, content, text, err);
    } finally {
      if (run.live()) watchStall(false);
      if (run.live() && busy.value)
        batch(() => {
          status.value = IDLE;
          streaming.value = '';
        });
    }
  }

  /**
   * What the service stored for `content`, read from the conversation's newest messages; undefined if nothing (or,
   * unless `strict`, if they cannot be read; offline, they are not tried).
   */
  async function readExchange(run: Run, content: string, strict?: boolean): Promise<StoredExchange | undefined> {
    const conversation = session.current();
    if (!online.value || !conversation) return undefined;
    try {
      return findExchange(await client.recentMessages(conversation, run.signal), content, knownIds());
    } catch (error) {
      if (strict) throw error;
      return undefined;
    }
  }

  /** The visitor's latest bubble is the stored question: it takes the stored id, so no later read takes it for new. */
  function adopt(question: ApiMessage) {
    const asked = messages.value.findLast((m) => m.role === 'user');
    if (asked) replace(asked.id, { ...asked, id: question.id, status: 'done' });
  }

  /**
   * The service did not accept the message. After a 5xx it may have stored the question and a failed reply all the
   * same (cody-api.md, Send Message: 500), and a lost connection may have cut the answer to a message it took: they
   * are read back and shown as stored, so that Retry asks again without a second bubble. After a lost connection
   * the visitor's bubble waits, pending, to be sent (or read back) once it returns (`resend`); otherwise the visitor
   * gets their text back instead of losing it.
   */
  async function refused(run: Run, err: ChatError, content: string, pendingUser: ChatMessage | undefined) {
    const exchange = (err.status ?? 0) >= 500 || err.kind === 'network' ? await readExchange(run, content) : undefined;
    if (!run.live()) return;
    if (exchange) return showStored(exchange);
    if (pendingUser && err.kind !== 'network') {
      replace(pendingUser.id, null);
      if (!draft.value.trim()) draft.value = content;
    }
    if (err.kind !== 'aborted') fail(err);
  }

  /** Shows an exchange the service stored; its reply (or, with none, a failed one) replaces a failed reply shown. */
  function showStored({ question, reply }: StoredExchange) {
    const failed = failedReply();
    if (failed) replace(failed.id, null);
    commitReply(reply ? toChatMessage(reply) : localMessage('assistant', '', 'failed'), question);
  }

  /** Replaces the streamed text with the stored reply, which carries the real id, sources and flags. */
  async function finishReply(run: Run, content: string, text: string): Promise<void> {
    const exchange = await readExchange(run, content);
    if (!run.live()) return;
    commitReply(
      exchange?.reply ? toChatMessage(exchange.reply) : localMessage('assistant', text, 'done'),
      exchange?.question,
    );
  }

  /**
   * The stream broke after the service took the message; it may still have stored the whole reply. Only a reply to
   * this question counts: an earlier reply the widget never showed is not this one.
   */
  async function recoverReply(run: Run, content: string, text: string, err: ChatError): Promise<void> {
    const exchange = await readExchange(run, content);
    if (!run.live()) return;
    if (exchange?.reply) return commitReply(toChatMessage(exchange.reply), exchange.question);
    // The failed reply carries the one Retry (as a failed_responding reply does); the notice says what happened.
    batch(() => {
      if (exchange) adopt(exchange.question);
      append(localMessage('assistant', text, 'failed'));
      fail(err, undefined, true);
    });
  }

  /** Shows `reply`; `question` is the stored question it answers, whose id the visitor's bubble takes. */
  function commitReply(reply: ChatMessage, question?: ApiMessage) {
    // One batch: the finished reply replaces the streaming bubble and the composer is ready in the same frame.
    batch(() => {
      if (question) adopt(question);
      append(reply);
      announcement.value = reply;
      status.value = IDLE;
      streaming.value = '';
    });
    if (reply.status === 'failed') emit('error', { kind: 'http', message: reply.text });
    emit('reply', { message: reply });
  }

  /** Sends `text` (default: the draft). Resolves when the reply is complete or has failed. */
  const send = action(async (text?: string) => {
    const content = (text ?? draft.value).trim();
    if (!content || busy.value || limited.value) return;
    if (messageLength(content) > MAX_MESSAGE_LENGTH) {
      if (text !== undefined) draft.value = text;
      return;
    }
    if (!historyLoaded && session.current()) await loadHistory();
    const user = localMessage('user', content, 'pending');
    batch(() => {
      undo.drop();
      append(user);
      if (text === undefined || text.trim() === draft.value.trim()) draft.value = '';
    });
    emit('send', { text: content });
    await ask(content, user);
  });

  /**
   * Repeats what failed (see `retryTarget`): loading the history, asking again for the last reply, or sending the
   * message a lost connection held back (or asking again for the reply it cut off) unless the service got it after
   * all: what may have reached the service is read back from the conversation, not sent twice.
   */
  const retry = action(async () => {
    const target = retryTarget.value;
    if (target === 'history') return loadHistory();
    const asked = messages.value.findLast((m) => m.role === 'user');
    if (target && asked) await ask(asked.text, asked.status === 'pending' ? asked : undefined, target === 'send');
  });
  // Back online, that is done by itself.
  online.subscribe((up) => void (up && retryTarget.value === 'send' && retry()));

  /**
   * Empties the panel (the list shown no more) and forgets the conversation, or puts `next` in its place; `keep`:
   * first keep it for Undo (else nothing comes back).
   */
  function clear(keep: boolean, next?: ConversationRef) {
    undo.keep(keep ? messages.value : []);
    invalidate();
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
    retryTarget,
    isOpen,
    draft,
    announcement,
    cleared: undo.cleared,
    stalled,
    busy,
    limited,
    canSend,
    online,
    open: action(() => {
      if (isOpen.value) return;
      isOpen.value = true;
      emit('open', undefined);
      if (!historyLoaded && !busy.value) void loadHistory();
      opener.warm();
    }),
    close: action(() => {
      if (!isOpen.value) return;
      isOpen.value = false;
      emit('close', undefined);
    }),
    setDraft: action((value: string) => void (draft.value = value)),
    send,
    stop: action(runs.abort),
    retry,
    dismiss: action(() => {
      if (failure.value && !limited.value) status.value = IDLE;
    }),
    /** Forgets the current conversation; the next message starts a new one. `undoNewConversation` brings it back. */
    newConversation: action(() => clear(true)),
    /** Says `text` once through the panel's live region. */
    say: action((text: string) => void (note.value = text)),
    conversations,
    /** Shows `earlier`, one of the visitor's conversations, its history loaded anew; Undo is given up. */
    resume: action((earlier: ConversationRef) => {
      if (earlier.id === conversation()?.id) return conversations.show(false);
      clear(false, earlier);
      historyLoaded = false;
      void loadHistory();
    }),
    /** Brings back what the last "new conversation" cleared, as long as the visitor has not sent since. */
    undoNewConversation: action(() => {
      const restored = undo.restore();
      if (!restored) return;
      historyLoaded = true;
      messages.value = restored;
    }),
  };
});

/** One widget's model instance. */
export type ChatModelInstance = InstanceType<typeof ChatModel>;

import { action, batch, computed, createModel, effect, signal } from '@preact/signals';
import type { ChatClient, ConversationRef } from '../api/client';
import { ChatError, toChatError } from '../api/errors';
import { MAX_MESSAGE_LENGTH, type WidgetConfig } from '../config/schema';
import { localId, toChatMessage, type ChatMessage } from './messages';
import type { KeyValueStore } from './storage';

/** What the widget is doing: `loading` history, `sending` (waiting for the first token) or `streaming`. */
export type ChatStatus = 'idle' | 'loading' | 'sending' | 'streaming';

/** Lifecycle events, for analytics and page logic (`handle.on(...)`). */
export interface WidgetEvents {
  open: undefined;
  close: undefined;
  send: { text: string };
  reply: { message: ChatMessage };
  error: { kind: ChatError['kind']; message: string };
}

/** Emits a lifecycle event; `mount()` forwards these to `handle.on` listeners. */
export type Emit = <K extends keyof WidgetEvents>(type: K, detail: WidgetEvents[K]) => void;

/** What the model reaches the outside world through. */
export interface ChatModelDeps {
  client: ChatClient;
  storage: KeyValueStore;
  config: WidgetConfig;
  emit: Emit;
}

/** A shown error, with whether `retry()` can repeat what failed. */
export interface ShownError {
  error: ChatError;
  canRetry: boolean;
}

/**
 * The widget's state and actions. Nothing touches the network or storage before the visitor engages: the stored
 * conversation is read when the panel first opens (history) or the first message is sent, and a conversation is
 * created only with that first message.
 */
export const ChatModel = createModel((deps: ChatModelDeps) => {
  const { client, storage, config, emit } = deps;
  const storageKey = `conversation:${config.botId}@${config.proxyUrl}`;

  const messages = signal<readonly ChatMessage[]>([]);
  const streaming = signal('');
  const status = signal<ChatStatus>('idle');
  const error = signal<ShownError | null>(null);
  const isOpen = signal(false);
  const draft = signal('');
  /** The last completed reply, for the screen-reader live region (tokens are not announced one by one). */
  const announcement = signal<ChatMessage | null>(null);
  const busy = computed(() => status.value !== 'idle');
  const canSend = computed(
    () => !busy.value && draft.value.trim().length > 0 && draft.value.length <= MAX_MESSAGE_LENGTH,
  );

  let conversation: ConversationRef | undefined;
  /** The visitor's latest grant, kept after "new conversation" so the proxy still knows who is asking. */
  let lastGrant: string | undefined;
  let history: 'unloaded' | 'loading' | 'loaded' = 'unloaded';
  let controller: AbortController | undefined;
  let retryLast: (() => Promise<void>) | undefined;
  // Bumped by newConversation() and dispose: async work started under an older generation must not write state.
  let generation = 0;

  effect(() => () => {
    generation += 1;
    controller?.abort();
  });

  const fail = (err: ChatError, retry?: () => Promise<void>) => {
    retryLast = retry;
    error.value = { error: err, canRetry: Boolean(retry) && err.retryable };
    emit('error', { kind: err.kind, message: err.detail ?? err.message });
  };

  const append = (message: ChatMessage) => {
    messages.value = [...messages.value, message];
  };
  const replace = (id: string, next: ChatMessage | null) => {
    messages.value = messages.value.flatMap((m) => (m.id !== id ? [m] : next ? [next] : []));
  };

  /**
   * The stored conversation, or undefined. A value without a valid grant (stored by an older widget, or tampered
   * with) is dropped, so the visitor starts afresh instead of meeting a 404.
   */
  function restore(): ConversationRef | undefined {
    const raw = storage.get(storageKey);
    if (raw === undefined) return undefined;
    const ref = parseStored(raw);
    if (!ref) {
      storage.remove(storageKey);
      return undefined;
    }
    lastGrant = ref.grant;
    return ref;
  }

  async function loadHistory(): Promise<void> {
    conversation ??= restore();
    if (!conversation) {
      history = 'loaded';
      return;
    }
    const gen = generation;
    history = 'loading';
    status.value = 'loading';
    try {
      const list = await client.listAllMessages(conversation);
      if (gen !== generation) return;
      messages.value = list.map(toChatMessage);
      history = 'loaded';
    } catch (caught) {
      if (gen !== generation) return;
      const err = toChatError(caught);
      if (err.kind === 'not_found') {
        // The conversation was deleted upstream: start afresh rather than show an error.
        forgetConversation();
        history = 'loaded';
      } else {
        history = 'unloaded';
        fail(err, loadHistory);
      }
    } finally {
      if (gen === generation) status.value = 'idle';
    }
  }

  async function ensureConversation(): Promise<ConversationRef> {
    if (conversation) return conversation;
    const created = await client.createConversation({
      name: config.conversationName,
      botId: config.botId,
      documentIds: config.documentIds,
      grant: lastGrant,
    });
    conversation = created;
    lastGrant = created.grant;
    // A conversation created here has no earlier history to fetch.
    history = 'loaded';
    storage.set(storageKey, JSON.stringify({ id: created.id, grant: created.grant }));
    return created;
  }

  /**
   * Asks the service for a reply to `content`. `pendingUser` is the visitor's new bubble; it is absent when a
   * failed reply is asked again, in which case the visitor's message is already shown and is not duplicated.
   */
  async function ask(content: string, pendingUser: ChatMessage | undefined, afresh = false): Promise<void> {
    const gen = generation;
    const ctrl = new AbortController();
    controller = ctrl;
    let accepted = false;
    let text = '';
    batch(() => {
      status.value = 'sending';
      streaming.value = '';
      error.value = null;
    });
    try {
      const current = await ensureConversation();
      for await (const event of client.streamReply({ conversation: current, content }, ctrl.signal)) {
        if (gen !== generation) return;
        if (!accepted) {
          accepted = true;
          if (pendingUser) replace(pendingUser.id, { ...pendingUser, status: 'done' });
          status.value = 'streaming';
        }
        if (event.type === 'chunk') {
          text += event.text;
          streaming.value = text;
        }
      }
      await finishReply(gen, current, text);
    } catch (caught) {
      if (gen !== generation) return;
      const err = toChatError(caught, ctrl.signal);
      const gone = err.kind === 'not_found' || (err.status === 422 && err.fields.includes('conversation_id'));
      if (!accepted && !afresh && conversation && gone) {
        // The conversation was deleted upstream, or its grant expired, since it was stored: start a new one and
        // deliver the message there.
        forgetConversation();
        await ask(content, pendingUser, true);
        return;
      }
      if (!accepted) {
        // The service never took the message: give the visitor their text back instead of losing it.
        if (pendingUser) {
          replace(pendingUser.id, null);
          if (!draft.value.trim()) draft.value = content;
        }
        if (err.kind !== 'aborted') fail(err, pendingUser ? undefined : () => ask(content, undefined));
      } else if (err.kind === 'aborted') {
        if (text) append({ id: localId(), role: 'assistant', text, status: 'stopped', flagged: false, sources: [] });
      } else {
        await recoverReply(gen, text, err);
      }
    } finally {
      if (gen === generation) {
        batch(() => {
          status.value = 'idle';
          streaming.value = '';
        });
        if (controller === ctrl) controller = undefined;
      }
    }
  }

  const knownIds = () => new Set(messages.value.map((m) => m.id));

  function forgetConversation() {
    conversation = undefined;
    storage.remove(storageKey);
  }

  /** Replaces the streamed text with the stored reply, which carries the real id, sources and flags. */
  async function finishReply(gen: number, current: ConversationRef, text: string): Promise<void> {
    const stored = await client.latestReply(current, knownIds()).catch(() => undefined);
    if (gen !== generation) return;
    const reply = stored
      ? toChatMessage(stored)
      : { id: localId(), role: 'assistant' as const, text, status: 'done' as const, flagged: false, sources: [] };
    commitReply(reply);
  }

  /** The stream broke after the service took the message; it may still have stored the whole reply. */
  async function recoverReply(gen: number, text: string, err: ChatError): Promise<void> {
    const stored = conversation ? await client.latestReply(conversation, knownIds()).catch(() => undefined) : undefined;
    if (gen !== generation) return;
    if (stored) {
      commitReply(toChatMessage(stored));
      return;
    }
    append({ id: localId(), role: 'assistant', text, status: 'failed', flagged: false, sources: [] });
    // The failed reply carries the one Retry (as a failed_responding reply does); the notice only says what happened.
    fail(err);
  }

  function commitReply(reply: ChatMessage) {
    // One batch: the finished reply replaces the streaming bubble and the composer is ready in the same frame.
    batch(() => {
      append(reply);
      announcement.value = reply;
      status.value = 'idle';
      streaming.value = '';
    });
    if (reply.status === 'failed') emit('error', { kind: 'http', message: reply.text });
    emit('reply', { message: reply });
  }

  /**
   * Asks again for the visitor's last question after a failed reply (live or from history): the failed reply is
   * dropped and the visitor's message is not added a second time.
   */
  async function retryReply(): Promise<void> {
    const last = messages.value.at(-1);
    const question = messages.value.findLast((m) => m.role === 'user');
    if (busy.value || !question || last?.role !== 'assistant' || last.status !== 'failed') return;
    replace(last.id, null);
    await ask(question.text, undefined);
  }

  return {
    messages,
    streaming,
    status,
    error,
    isOpen,
    draft,
    announcement,
    busy,
    canSend,
    open: action(() => {
      if (isOpen.value) return;
      isOpen.value = true;
      emit('open', undefined);
      if (history === 'unloaded') void loadHistory();
    }),
    close: action(() => {
      if (!isOpen.value) return;
      isOpen.value = false;
      emit('close', undefined);
    }),
    setDraft: action((value: string) => {
      draft.value = value;
    }),
    /** Sends `text` (default: the draft). Resolves when the reply is complete or has failed. */
    send: action(async (text?: string) => {
      const content = (text ?? draft.value).trim();
      if (!content || busy.value) return;
      if (content.length > MAX_MESSAGE_LENGTH) {
        if (text !== undefined) draft.value = text;
        return;
      }
      if (history === 'unloaded' && (conversation ??= restore())) await loadHistory();
      const user: ChatMessage = {
        id: localId(),
        role: 'user',
        text: content,
        status: 'pending',
        flagged: false,
        sources: [],
      };
      batch(() => {
        append(user);
        if (text === undefined || text.trim() === draft.value.trim()) draft.value = '';
      });
      emit('send', { text: content });
      await ask(content, user);
    }),
    stop: action(() => controller?.abort()),
    /** Repeats what failed last: loading the history or asking for a reply again. */
    retry: action(async () => {
      const again = retryLast;
      retryLast = undefined;
      error.value = null;
      if (again) await again();
    }),
    retryReply: action(retryReply),
    dismissError: action(() => {
      error.value = null;
    }),
    /** Forgets the current conversation; the next message starts a new one. */
    newConversation: action(() => {
      generation += 1;
      controller?.abort();
      controller = undefined;
      forgetConversation();
      retryLast = undefined;
      history = 'loaded';
      batch(() => {
        messages.value = [];
        streaming.value = '';
        status.value = 'idle';
        error.value = null;
        announcement.value = null;
      });
    }),
  };
});

const STORED_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A stored `{id, grant}`, checked; null for anything else (an older widget stored the bare id). */
function parseStored(raw: string): ConversationRef | null {
  try {
    const value = JSON.parse(raw) as { id?: unknown; grant?: unknown } | null;
    const { id, grant } = value ?? {};
    return typeof id === 'string' && STORED_ID.test(id) && typeof grant === 'string' && grant.length > 0
      ? { id, grant }
      : null;
  } catch {
    return null;
  }
}

/** One widget's model instance. */
export type ChatModelInstance = InstanceType<typeof ChatModel>;

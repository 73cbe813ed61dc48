import { batch, effect } from '@preact/signals';
import type { ChatClient } from '../api/client.js';
import { ChatError, toChatError } from '../api/errors.js';
import type { ApiMessage } from '../api/types.js';
import type { createConversations } from './conversations.js';
import type { Emit } from './events.js';
import { collapseRetries, findExchange, type StoredExchange } from './exchange.js';
import { lastFailedReply, localMessage, toChatMessage, type ChatMessage } from './messages.js';
import type { createOpener } from './opener.js';
import type { Run, Runs } from './runs.js';
import { createSendFlow, type SendFlow } from './send-flow.js';
import type { Session } from './session.js';
import { IDLE, isBusy, type Repeat } from './status.js';
import { append, lastAsked, replace } from './thread.js';
import type { ModelSignals } from './model-state.js';

type Fail = (error: ChatError, repeat?: Repeat, midReply?: boolean) => void;

/**
 * The stored conversation's history: read once, when the panel first opens or the first message is sent, and
 * again for a conversation resumed. `loaded` is also set when there is nothing earlier to read (a conversation
 * just created, or brought back by Undo).
 */
export function createHistory(
  client: ChatClient,
  session: Session,
  conversations: ReturnType<typeof createConversations>,
  runs: Runs,
  fail: Fail,
  [, thread, status]: ModelSignals,
) {
  const history = {
    loaded: false,
    async load(): Promise<void> {
      // Without a stored conversation there is nothing to load; reading the session again later costs nothing.
      const stored = session.current();
      if (!stored) return;
      const run = runs.begin();
      status.value = { type: 'loading' };
      try {
        const list = await client.listAllMessages(stored, run.signal);
        if (!run.live()) return;
        history.loaded = true;
        batch(() => {
          thread.value = collapseRetries(list).map(toChatMessage);
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
          fail(err, 'reload');
        }
      }
    },
  };
  return history;
}

/**
 * The read-back of what the service stored, and the commit of a reply: shown as stored when that can be read, as
 * streamed (or failed) when it cannot.
 */
function createReplies(
  client: ChatClient,
  session: Session,
  emit: Emit,
  fail: Fail,
  [online, thread, status, streaming, draft, announcement]: ModelSignals,
) {
  /**
   * What the service stored for `content`, read from the conversation's newest messages; undefined if nothing (or,
   * unless `strict`, if they cannot be read; offline, they are not tried).
   */
  async function readExchange(run: Run, content: string, strict?: boolean): Promise<StoredExchange | undefined> {
    const conversation = session.current();
    if (!online.value || !conversation) return undefined;
    try {
      return findExchange(
        await client.recentMessages(conversation, run.signal),
        content,
        new Set(thread.value.map((m) => m.id)),
      );
    } catch (error) {
      if (strict) throw error;
      return undefined;
    }
  }

  /** The visitor's latest bubble is the stored question: it takes the stored id, so no later read takes it for new. */
  function adopt(question: ApiMessage) {
    const asked = lastAsked(thread);
    if (asked) replace(thread, asked.id, { ...asked, id: question.id, status: 'done' });
  }

  /** Shows `reply`; `question` is the stored question it answers, whose id the visitor's bubble takes. */
  function commitReply(reply: ChatMessage, question?: ApiMessage) {
    // One batch: the finished reply replaces the streaming bubble and the composer is ready in the same frame.
    batch(() => {
      if (question) adopt(question);
      append(thread, reply);
      announcement.value = reply;
      status.value = IDLE;
      streaming.value = '';
    });
    if (reply.status === 'failed') emit('error', { kind: 'http', message: reply.text });
    emit('reply', { message: reply });
  }

  /** Shows an exchange the service stored; its reply (or, with none, a failed one) replaces a failed reply shown. */
  function showStored({ question, reply }: StoredExchange) {
    const failed = lastFailedReply(thread.value);
    if (failed) replace(thread, failed.id, null);
    commitReply(reply ? toChatMessage(reply) : localMessage('assistant', '', 'failed'), question);
  }

  /**
   * The service did not accept the message. After a 5xx it may have stored the question and a failed reply all the
   * same (cody-api.md, Send Message: 500), and a lost connection may have cut the answer to a message it took: they
   * are read back and shown as stored, so that Retry asks again without a second bubble. After a lost connection
   * the visitor's bubble waits, pending, to be sent (or read back) once it returns; otherwise the visitor gets their
   * text back instead of losing it.
   */
  async function refused(flow: SendFlow, run: Run, err: ChatError, content: string, pendingUser?: ChatMessage) {
    const lost = err.kind === 'network';
    const exchange = (err.status ?? 0) >= 500 || lost ? await readExchange(run, content) : undefined;
    if (exchange) return void (flow.go('read-back') && showStored(exchange));
    if (!flow.go(lost ? 'waiting' : err.kind === 'aborted' ? 'stopped' : 'failed')) return;
    if (pendingUser && !lost) {
      replace(thread, pendingUser.id, null);
      if (!draft.value.trim()) draft.value = content;
    }
    if (err.kind !== 'aborted') fail(err, lost ? 'resend' : undefined);
  }

  /** Replaces the streamed text with the stored reply, which carries the real id, sources and flags. */
  async function finishReply(flow: SendFlow, run: Run, content: string, text: string): Promise<void> {
    const exchange = await readExchange(run, content);
    if (!flow.go('committed')) return;
    commitReply(
      exchange?.reply ? toChatMessage(exchange.reply) : localMessage('assistant', text, 'done'),
      exchange?.question,
    );
  }

  /**
   * The stream broke after the service took the message; it may still have stored the whole reply. Only a reply to
   * this question counts: an earlier reply the widget never showed is not this one.
   */
  async function recoverReply(flow: SendFlow, run: Run, content: string, text: string, err: ChatError) {
    const exchange = await readExchange(run, content);
    if (exchange?.reply)
      return void (flow.go('read-back') && commitReply(toChatMessage(exchange.reply), exchange.question));
    // The failed reply carries the one Retry (as a failed_responding reply does); the notice says what happened. A
    // lost connection's return reads the reply back (or asks again), as it sends a message it held.
    const lost = err.kind === 'network';
    if (flow.go(lost ? 'waiting' : 'failed'))
      batch(() => {
        if (exchange) adopt(exchange.question);
        append(thread, localMessage('assistant', text, 'failed'));
        fail(err, lost ? 'resend' : undefined, true);
      });
  }

  return [readExchange, showStored, refused, finishReply, recoverReply] as const;
}

/**
 * The send, stream and read-back flow: `ask`. Each send moves through `SEND_TRANSITIONS` (send-flow.ts) and writes
 * state only as it moves, so a send made stale (a new conversation) writes nothing. The model's parts come as
 * parameters (its signals as one tuple), not as one object: Terser shortens parameter names, never property names.
 */
export function createSending(
  client: ChatClient,
  session: Session,
  conversations: ReturnType<typeof createConversations>,
  opener: ReturnType<typeof createOpener>,
  runs: Runs,
  emit: Emit,
  fail: Fail,
  watchStall: (on: boolean) => void,
  signals: ModelSignals,
) {
  const [online, thread, status, streaming] = signals;
  // Disposing the model makes its work stale.
  effect(() => () => (runs.invalidate(), watchStall(false)));
  const [readExchange, showStored, refused, finishReply, recoverReply] = createReplies(
    client,
    session,
    emit,
    fail,
    signals,
  );

  /**
   * Asks the service for a reply to `content`. `pendingUser` is the visitor's new bubble; without it, the last
   * question is asked again, and the failed reply it had is replaced once the service accepts. `check`: the message
   * may have reached the service already (a lost connection), so what it stored is read back first; it is sent only
   * if it is not there, and not at all if that cannot be read.
   */
  async function ask(content: string, pendingUser?: ChatMessage, check?: boolean): Promise<void> {
    const run = runs.begin();
    const flow = createSendFlow(run.live);
    const previous = pendingUser ? undefined : lastFailedReply(thread.value);
    let text = '';
    status.value = { type: 'sending' };
    try {
      if (check) {
        const stored = await readExchange(run, content, true);
        if (stored) return void (flow.go('read-back') && showStored(stored));
        if (!run.live()) return;
      }
      if (!online.value) throw new ChatError('network', 'Offline');
      const reply = await opener.open(content, run.signal);
      if (!flow.go('accepted')) return;
      conversations.touch(reply.conversation, content);
      batch(() => {
        if (pendingUser) replace(thread, pendingUser.id, { ...pendingUser, status: 'done' });
        if (previous) replace(thread, previous.id, null);
        status.value = { type: 'streaming' };
      });
      flow.go('streaming');
      for (let step = reply.first; !step.done; step = await reply.events.next()) {
        if (!run.live()) return;
        if (step.value.type === 'chunk') streaming.value = text += step.value.text;
        watchStall(true);
      }
      watchStall(false);
      await finishReply(flow, run, content, text);
    } catch (caught) {
      const err = toChatError(caught, run.signal);
      // Accepted, the reply is streaming: what broke it is the stream's; else the service did not take the message.
      if (flow.phase !== 'streaming') await refused(flow, run, err, content, pendingUser);
      else if (err.kind !== 'aborted') await recoverReply(flow, run, content, text, err);
      else if (flow.go('stopped') && text) append(thread, localMessage('assistant', text, 'stopped'));
    } finally {
      if (run.live()) watchStall(false);
      if (run.live() && isBusy(status.value))
        batch(() => {
          status.value = IDLE;
          streaming.value = '';
        });
    }
  }

  return ask;
}

import { batch, effect } from '@preact/signals';
import type { ChatClient } from '../api/client.js';
import { ChatError, toChatError } from '../api/errors.js';
import type { ApiMessage } from '../api/types.js';
import type { Conversations } from './conversations.js';
import type { Emit } from './events.js';
import { findExchange, type StoredExchange } from './exchange.js';
import type { Fail } from './fail.js';
import { lastFailedReply, localMessage, toChatMessage, type ChatMessage } from './messages.js';
import type { ModelState } from './model-state.js';
import type { Opener } from './opener.js';
import type { Run, Runs } from './runs.js';
import { createSendFlow, type SendFlow } from './send-flow.js';
import type { Session } from './session.js';
import { append, lastAsked, replace } from './thread.js';

/** One send under way: its place in `SEND_TRANSITIONS`, its run (abort, staleness) and the text asked. */
interface Attempt {
  flow: SendFlow;
  run: Run;
  content: string;
}

/** What a send asks: `content`, and how (see `ask`). */
export interface Ask {
  content: string;
  /** The visitor's new bubble; without it, the last question is asked again. */
  pending?: ChatMessage;
  /** The message may have reached the service already (a lost connection): what it stored is read back first. */
  check?: boolean;
}

interface RepliesDeps {
  client: ChatClient;
  session: Session;
  emit: Emit;
  fail: Fail;
  state: ModelState;
}

/**
 * The read-back of what the service stored, and the commit of a reply: shown as stored when that can be read, as
 * streamed (or failed) when it cannot.
 */
function createReplies({ client, session, emit, fail, state }: RepliesDeps) {
  const { messages: thread, streaming } = state;

  /**
   * What the service stored for the attempt's text, read from the conversation's newest messages; undefined if
   * nothing (or, unless `strict`, if they cannot be read; offline, they are not tried).
   */
  async function readExchange({ run, content }: Attempt, strict?: boolean): Promise<StoredExchange | undefined> {
    const conversation = session.current();
    if (!state.online.value || !conversation) return undefined;
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
      state.announcement.value = reply;
      state.go('done');
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
  async function refused(attempt: Attempt, err: ChatError, pending?: ChatMessage) {
    const { flow, content } = attempt;
    const lost = err.kind === 'network';
    const exchange = (err.status ?? 0) >= 500 || lost ? await readExchange(attempt) : undefined;
    if (exchange) {
      if (flow.go('read-back')) showStored(exchange);
      return;
    }
    if (!flow.go(lost ? 'waiting' : err.kind === 'aborted' ? 'stopped' : 'failed')) return;
    if (pending && !lost) {
      replace(thread, pending.id, null);
      if (!state.draft.value.trim()) state.draft.value = content;
    }
    if (err.kind !== 'aborted') fail(err, lost ? 'resend' : undefined);
  }

  /** Replaces the streamed `text` with the stored reply, which carries the real id, sources and flags. */
  async function finishReply(attempt: Attempt, text: string): Promise<void> {
    const exchange = await readExchange(attempt);
    if (!attempt.flow.go('committed')) return;
    commitReply(
      exchange?.reply ? toChatMessage(exchange.reply) : localMessage('assistant', text, 'done'),
      exchange?.question,
    );
  }

  /**
   * The stream broke after the service took the message; it may still have stored the whole reply. Only a reply to
   * this question counts: an earlier reply the widget never showed is not this one.
   */
  async function recoverReply(attempt: Attempt, text: string, err: ChatError) {
    const exchange = await readExchange(attempt);
    if (exchange?.reply) {
      if (attempt.flow.go('read-back')) commitReply(toChatMessage(exchange.reply), exchange.question);
      return;
    }
    // The failed reply carries the one Retry (as a failed_responding reply does); the notice says what happened. A
    // lost connection's return reads the reply back (or asks again), as it sends a message it held.
    const lost = err.kind === 'network';
    if (!attempt.flow.go(lost ? 'waiting' : 'failed')) return;
    batch(() => {
      if (exchange) adopt(exchange.question);
      append(thread, localMessage('assistant', text, 'failed'));
      fail(err, lost ? 'resend' : undefined, true);
    });
  }

  return { readExchange, showStored, refused, finishReply, recoverReply };
}

interface SendingDeps extends RepliesDeps {
  conversations: Conversations;
  opener: Opener;
  runs: Runs;
  /** Starts waiting afresh for the next chunk of a reply (`on`), or stops waiting (see `createStallWatch`). */
  watchStall: (on: boolean) => void;
}

/**
 * The send, stream and read-back flow: `ask`. Each send moves through `SEND_TRANSITIONS` (send-flow.ts) and writes
 * state only as it moves, so a send made stale (a new conversation) writes nothing.
 */
export function createSending(deps: SendingDeps) {
  const { conversations, opener, runs, watchStall, state } = deps;
  const { messages: thread, streaming } = state;
  // Disposing the model makes its work stale.
  effect(() => () => {
    runs.invalidate();
    watchStall(false);
  });
  const replies = createReplies(deps);

  /**
   * Asks the service for a reply to `content`. `pending` is the visitor's new bubble; without it, the last question
   * is asked again, and the failed reply it had is replaced once the service accepts. `check`: the message may have
   * reached the service already (a lost connection), so what it stored is read back first; it is sent only if it is
   * not there, and not at all if that cannot be read.
   */
  async function ask({ content, pending, check }: Ask): Promise<void> {
    const run = runs.begin();
    const attempt: Attempt = { flow: createSendFlow(run.live), run, content };
    const { flow } = attempt;
    const previous = pending ? undefined : lastFailedReply(thread.value);
    let text = '';
    state.go('send');
    try {
      if (check) {
        const stored = await replies.readExchange(attempt, true);
        if (stored) {
          if (flow.go('read-back')) replies.showStored(stored);
          return;
        }
        if (!run.live()) return;
      }
      if (!state.online.value) throw new ChatError('network', 'Offline');
      const reply = await opener.open(content, run.signal);
      if (!flow.go('accepted')) return;
      conversations.touch(reply.conversation, content);
      batch(() => {
        if (pending) replace(thread, pending.id, { ...pending, status: 'done' });
        if (previous) replace(thread, previous.id, null);
        state.go('stream');
      });
      flow.go('streaming');
      for (let step = reply.first; !step.done; step = await reply.events.next()) {
        if (!run.live()) return;
        if (step.value.type === 'chunk') {
          text += step.value.text;
          streaming.value = text;
        }
        watchStall(true);
      }
      watchStall(false);
      await replies.finishReply(attempt, text);
    } catch (caught) {
      const err = toChatError(caught, run.signal);
      // Accepted, the reply is streaming: what broke it is the stream's; else the service did not take the message.
      if (flow.phase !== 'streaming') await replies.refused(attempt, err, pending);
      else if (err.kind !== 'aborted') await replies.recoverReply(attempt, text, err);
      else if (flow.go('stopped') && text) append(thread, localMessage('assistant', text, 'stopped'));
    } finally {
      if (run.live()) {
        watchStall(false);
        // What ended the send without moving the status (Stop, say) puts it to rest; a failure stays.
        batch(() => {
          if (state.go('done')) streaming.value = '';
        });
      }
    }
  }

  return ask;
}

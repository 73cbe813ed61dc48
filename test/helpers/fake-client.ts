import type { ChatClient, ConversationRef } from '../../src/api/client';
import { ChatError } from '../../src/api/errors';
import type { ApiConversation, ApiMessage, StreamEvent } from '../../src/api/types';

/**
 * A ChatClient whose reply stream the test drives event by event: `emit()` pushes an event, `fail()` breaks the
 * stream. `state` scripts the rest: the stored history, what `recentMessages` lists, errors for the next sends
 * (thrown before any event, as a refused request is), conversations the service no longer knows; and it records
 * every call.
 */
export function createFakeClient() {
  const queue: Array<StreamEvent | ChatError> = [];
  let wake: (() => void) | undefined;
  const state = {
    /** The reply the service stored for the last message sent (listed after it by `recentMessages`). */
    storedReply: undefined as ApiMessage | undefined,
    /** What `recentMessages` lists; default: the history, the last message sent unless refused, the stored reply. */
    listing: undefined as ApiMessage[] | undefined,
    /** While set, `recentMessages` throws it. */
    listingError: undefined as ChatError | undefined,
    /** Whether the last message sent was refused (so the service stored nothing of it). */
    refused: false,
    history: [] as ApiMessage[],
    historyError: undefined as ChatError | undefined,
    /** Thrown by the next sends, one per send, before any event. */
    refusals: [] as ChatError[],
    /** Conversations the service answers `not_found` for. */
    gone: new Set<string>(),
    /** Every message sent, in order. */
    sent: [] as string[],
    /** The conversation each message was sent to. */
    sentTo: [] as string[],
    /** Every call, in order: create, list, latest (recentMessages), stream. */
    calls: [] as string[],
    /** The grant each createConversation call brought along. */
    createdWith: [] as (string | undefined)[],
    /** The name each createConversation call asked for. */
    createdNames: [] as string[],
    /** Proofs of work handed out (`prove`), numbered from 1; each conversation records the one it came with. */
    proofs: 0,
    createdProof: [] as (number | undefined)[],
    /** Refusals of the next conversation creations (a 428 for a stale proof), one per creation. */
    createRefusals: [] as ChatError[],
    /** Conversations deleted, and feedback sent, in order. */
    deleted: [] as string[],
    feedback: [] as {
      conversation: string;
      messageId: string;
      rating: string;
      comment?: string | undefined;
      keepalive?: boolean;
    }[],
    /** While set, the next deletions and feedback sends throw it. */
    actionError: undefined as ChatError | undefined,
    /** A signed-in person's conversations, as `listConversations` answers (`GET /conversations`). */
    people: [] as ApiConversation[],
    /** While set, `listConversations` throws it. */
    peopleError: undefined as ChatError | undefined,
    /** While set, history and stored-reply reads wait for it: the test decides when the network answers. */
    gate: undefined as Promise<void> | undefined,
  };
  const push = (item: StreamEvent | ChatError) => {
    queue.push(item);
    wake?.();
  };
  const check = (conversation: ConversationRef) => {
    if (state.gone.has(conversation.id)) throw new ChatError('not_found', 'Not found', { status: 404 });
  };
  const client: ChatClient = {
    prove: async () => ({ challenge: ++state.proofs, solution: { counter: 0, derivedKey: '' } }),
    createConversation: async ({ name, grant, proof }) => {
      state.calls.push('create');
      state.createdNames.push(name);
      state.createdProof.push(proof?.challenge as number | undefined);
      const refusal = state.createRefusals.shift();
      if (refusal) throw refusal;
      state.createdWith.push(grant);
      return { id: `conv0000000${state.createdWith.length}`, grant: `grant-${state.createdWith.length}` };
    },
    listAllMessages: async (conversation, signal) => {
      state.calls.push('list');
      // Like fetch, an abort ends the wait with an error.
      await Promise.race([
        state.gate,
        new Promise<never>((_, reject) =>
          signal?.addEventListener('abort', () => reject(new ChatError('aborted', 'Aborted')), { once: true }),
        ),
      ]);
      check(conversation);
      if (state.historyError) throw state.historyError;
      return state.history;
    },
    recentMessages: async () => {
      state.calls.push('latest');
      await state.gate;
      if (state.listingError) throw state.listingError;
      if (state.listing) return state.listing;
      const last = state.sent.at(-1);
      return [
        ...state.history,
        ...(last !== undefined && !state.refused
          ? [question(`sent${String(state.sent.length).padStart(8, '0')}`, last)]
          : []),
        ...(state.storedReply ? [state.storedReply] : []),
      ];
    },
    listConversations: async () => {
      state.calls.push('people');
      await state.gate;
      if (state.peopleError) throw state.peopleError;
      return state.people;
    },
    deleteConversation: async (conversation) => {
      if (state.actionError) throw state.actionError;
      state.deleted.push(conversation.id);
    },
    sendFeedback: async (conversation, feedback, options) => {
      if (state.actionError) throw state.actionError;
      state.feedback.push({
        conversation: conversation.id,
        ...feedback,
        ...(options?.keepalive && { keepalive: true }),
      });
    },
    async *streamReply({ conversation, content }, signal) {
      state.calls.push('stream');
      state.sent.push(content);
      state.sentTo.push(conversation.id);
      check(conversation);
      const refusal = state.refusals.shift();
      state.refused = refusal !== undefined;
      if (refusal) throw refusal;
      for (;;) {
        while (queue.length === 0) {
          if (signal.aborted) throw new ChatError('aborted', 'Aborted');
          await new Promise<void>((resolve) => {
            wake = resolve;
            signal.addEventListener('abort', () => resolve(), { once: true });
          });
        }
        const item = queue.shift();
        if (item instanceof ChatError) throw item;
        if (!item) continue;
        yield item;
        if (item.type === 'end') return;
      }
    },
  };
  return {
    client,
    state,
    emit: (event: StreamEvent) => push(event),
    chunk: (text: string) => push({ type: 'chunk', text }),
    /** A whole reply: start, the chunks, end. */
    reply: (...chunks: string[]) => {
      push({ type: 'start' });
      for (const text of chunks) push({ type: 'chunk', text });
      push({ type: 'end' });
    },
    fail: (error: ChatError) => push(error),
  };
}

/** A stored machine reply, as `includes=sources` returns it. */
export function storedReply(content: string, extra: Partial<ApiMessage> = {}): ApiMessage {
  return {
    id: 'reply0000001',
    content,
    machine: true,
    failed_responding: false,
    flagged: false,
    created_at: 2,
    sources: [],
    ...extra,
  };
}

/** A stored visitor message. */
export function question(id: string, content: string): ApiMessage {
  return { ...storedReply(content), id, machine: false, created_at: 1 };
}

import type { ChatClient } from '../../src/api/client';
import { ChatError } from '../../src/api/errors';
import type { ApiMessage, StreamEvent } from '../../src/api/types';

/**
 * A ChatClient whose reply stream the test drives event by event: `emit()` pushes an event, `fail()` breaks the
 * stream, `storedReply` is what `latestReply` returns afterwards.
 */
export function createFakeClient() {
  const queue: Array<StreamEvent | ChatError> = [];
  let wake: (() => void) | undefined;
  const state = {
    storedReply: undefined as ApiMessage | undefined,
    history: [] as ApiMessage[],
    sendError: undefined as ChatError | undefined,
    sent: [] as string[],
    /** The grant each createConversation call brought along. */
    createdWith: [] as (string | undefined)[],
  };
  const push = (item: StreamEvent | ChatError) => {
    queue.push(item);
    wake?.();
  };
  const client: ChatClient = {
    createConversation: async ({ grant }) => {
      state.createdWith.push(grant);
      return { id: `conv0000000${state.createdWith.length}`, grant: `grant-${state.createdWith.length}` };
    },
    listAllMessages: async () => state.history,
    latestReply: async () => state.storedReply,
    async *streamReply({ content }, signal) {
      state.sent.push(content);
      if (state.sendError) throw state.sendError;
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
    fail: (error: ChatError) => push(error),
  };
}

/** A stored machine reply, as `includes=sources` returns it. */
export function storedReply(content: string, extra: Partial<ApiMessage> = {}): ApiMessage {
  return {
    id: 'reply0000001',
    content,
    conversation_id: 'conv00000001',
    machine: true,
    failed_responding: false,
    flagged: false,
    created_at: 2,
    ...extra,
  };
}

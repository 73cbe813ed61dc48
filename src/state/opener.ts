import type { ChatClient, ConversationRef } from '../api/client.js';
import { toChatError } from '../api/errors.js';
import type { StreamEvent } from '../api/types.js';
import type { WidgetConfig } from '../config/schema.js';
import type { Session } from './session.js';

/** A reply the service has accepted the message for: the conversation, its first event and the rest. */
interface OpenReply {
  conversation: ConversationRef;
  first: IteratorResult<StreamEvent>;
  events: AsyncIterator<StreamEvent>;
}

/**
 * The model's way of sending a message: `content` goes to the conversation in use, created with the first message
 * (then `created` is called: a new conversation has no history to load). Resolves once the service has accepted it
 * (its first reply event). A conversation in use that the service no longer knows (deleted upstream, or its grant
 * expired) is replaced by a new one, once.
 */
export function createOpener(client: ChatClient, config: WidgetConfig, session: Session, created: () => void) {
  async function createConversation(): Promise<ConversationRef> {
    const conversation = await client.createConversation({
      name: config.conversationName,
      botId: config.botId,
      documentIds: config.documentIds,
      grant: session.lastGrant(),
    });
    session.save(conversation);
    created();
    return conversation;
  }

  return async (content: string, abort: AbortSignal): Promise<OpenReply> => {
    for (;;) {
      const existing = session.current();
      const conversation = existing ?? (await createConversation());
      const events = client.streamReply({ conversation, content }, abort)[Symbol.asyncIterator]();
      try {
        return { conversation, events, first: await events.next() };
      } catch (caught) {
        const err = toChatError(caught, abort);
        const gone = err.kind === 'not_found' || (err.status === 422 && err.fields.includes('conversation_id'));
        if (!existing || !gone) throw err;
        session.forget();
      }
    }
  };
}

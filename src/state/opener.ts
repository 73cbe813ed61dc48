import type { ChatClient, ConversationRef } from '../api/client.js';
import type { Proof } from '../api/proof.js';
import { ChatError, toChatError } from '../api/errors.js';
import type { StreamEvent } from '../api/types.js';
import type { WidgetConfig } from '../config/schema.js';
import { nameOf } from './conversations.js';
import type { Session } from './session.js';

/** A reply the service has accepted the message for: the conversation, its first event and the rest. */
interface OpenReply {
  conversation: ConversationRef;
  first: IteratorResult<StreamEvent>;
  events: AsyncIterator<StreamEvent>;
}

interface OpenerDeps {
  client: ChatClient;
  config: WidgetConfig;
  session: Session;
  /** A conversation was created. */
  created: () => void;
  /** The service no longer knows conversation `id`. */
  gone: (id: string) => void;
  /** Whether the visitor's consent lets the widget reach the proxy (consent.ts): no proof is asked for before. */
  allowed: () => boolean;
}

/**
 * The model's way of sending a message: `content` goes to the conversation in use, created with the first message
 * (then `created` is called: a new conversation has no history to load). Resolves once the service has accepted it
 * (its first reply event). A conversation in use that the service no longer knows (deleted upstream, or its grant
 * expired) is replaced by a new one, once, and `gone` is told its id. `warm` solves the proxy's proof of work ahead,
 * while the visitor types.
 */
export function createOpener({ client, config, session, created, gone, allowed }: OpenerDeps) {
  let proof: Promise<Proof | undefined> | undefined;
  /**
   * Starts the next new conversation's proof of work in the background, when there is no conversation in use and
   * the visitor has consented.
   */
  const warm = () => {
    if (allowed() && !session.current()) proof ??= client.prove(session.lastGrant());
  };

  async function createConversation(question: string, retried = false): Promise<ConversationRef> {
    warm();
    const solved = await proof;
    proof = undefined;
    let conversation: ConversationRef;
    try {
      conversation = await client.createConversation({
        name: nameOf(config.conversationName, question),
        botId: config.botId,
        documentIds: config.documentIds,
        grant: session.lastGrant(),
        proof: solved,
      });
    } catch (caught) {
      // 428: the proof expired while the visitor typed, or the proxy began asking for one; a fresh one, once.
      if (retried || !(caught instanceof ChatError) || caught.status !== 428) throw caught;
      return createConversation(question, true);
    }
    session.save(conversation);
    created();
    return conversation;
  }

  const open = async (content: string, abort: AbortSignal): Promise<OpenReply> => {
    for (;;) {
      const existing = session.current();
      const conversation = existing ?? (await createConversation(content));
      const events = client.streamReply({ conversation, content }, abort)[Symbol.asyncIterator]();
      try {
        return { conversation, events, first: await events.next() };
      } catch (caught) {
        const err = toChatError(caught, abort);
        const lost = err.kind === 'not_found' || (err.status === 422 && err.fields.includes('conversation_id'));
        if (!existing || !lost) throw err;
        gone(existing.id);
        session.forget();
      }
    }
  };
  return { open, warm };
}

/** A model's opener. */
export type Opener = ReturnType<typeof createOpener>;

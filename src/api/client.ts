import type { Identity } from '../config/identity.js';
import { IDENTITY } from '../protocol/contract.js';
import { proxyEndpoint } from './endpoint.js';
import { ChatError, kindForStatus, notProxyError, parseRetryAfter, toChatError } from './errors.js';
import { solveProof, type Proof } from './proof.js';
import {
  own,
  parseConversationList,
  parseCreatedConversation,
  parseDeleted,
  parseErrorBody,
  parseFeedbackTaken,
  parseMessage,
  parseMessagePage,
} from './parse.js';
import { readReplyStream } from './sse.js';
import type { ApiConversation, ApiMessage, ApiMessagePage, ConversationRef, StreamEvent } from './types.js';

export type { ConversationRef } from './types.js';

/** What `createChatClient` needs: the proxy's base URL and a fetch (injected for tests and hostile pages). */
export interface ChatClientOptions {
  proxyUrl: string;
  fetch?: typeof fetch;
  /** How long a reply stream may stay silent before it counts as broken (default: 45 s, see sse.ts). */
  idleMs?: number | undefined;
  /** False: ask for whole replies (`POST /messages`) instead of streams (`data-stream="false"`). */
  stream?: boolean;
  /** The signed-in visitor, whose id and hash go with every request; undefined: an anonymous visitor. */
  user?: Identity | undefined;
}

/** The request header that carries a conversation's grant to the proxy. */
const GRANT_HEADER = 'x-askbox-grant';

/** The widget's whole view of the service, spoken through the token proxy. */
export interface ChatClient {
  /** Creates a conversation; `grant` is the visitor's previous grant, so the proxy keeps knowing who they are. */
  createConversation(input: {
    name: string;
    botId: string;
    documentIds: readonly string[];
    grant?: string | undefined;
    proof?: Proof | undefined;
  }): Promise<ConversationRef>;
  /**
   * A solved proof of work for the next new conversation, when the proxy asks for one (its `challenge` route);
   * undefined when it does not (a 204 without a body), or when there is none to be had: the proxy then decides.
   */
  prove(grant?: string): Promise<Proof | undefined>;
  /** Every message of a conversation, all pages, oldest first, with sources. */
  listAllMessages(conversation: ConversationRef, signal?: AbortSignal): Promise<ApiMessage[]>;
  /** The conversation's newest messages (its first and last pages: their order is undocumented), oldest first. */
  recentMessages(conversation: ConversationRef, signal?: AbortSignal): Promise<ApiMessage[]>;
  /**
   * Sends a message and yields its reply stream's events; without streaming, the whole reply as the one chunk of a
   * stream, so that the model treats both alike.
   */
  streamReply(
    input: { conversation: ConversationRef; content: string },
    signal: AbortSignal,
  ): AsyncIterable<StreamEvent>;
  /** Deletes the conversation, with its messages, at the service (`DELETE /conversations/{id}`, its grant only). */
  deleteConversation(conversation: ConversationRef): Promise<void>;
  /**
   * Hands a rating of a reply to the proxy's `POST /feedback` (the site's `onFeedback`; nothing goes upstream).
   * `keepalive`: the request outlives the page (sent as the visitor leaves it).
   */
  sendFeedback(conversation: ConversationRef, feedback: Feedback, options?: { keepalive?: boolean }): Promise<void>;
  /** A signed-in person's conversations with the proxy's fresh grants, newest first (`GET /conversations`). */
  listConversations(signal?: AbortSignal): Promise<ApiConversation[]>;
}

/** A visitor's rating of one reply, with their comment on a thumbs-down. */
interface Feedback {
  messageId: string;
  rating: 'up' | 'down';
  comment?: string | undefined;
}

const PAGE_SIZE = 50;
/** A runaway paginator (a proxy or upstream bug) must not loop for ever. */
const MAX_PAGES = 200;
const INCLUDES = 'sources';

/**
 * What the Askbox proxy answers with: JSON (its refusals in the service's `{"message": …}` envelope) or a reply
 * stream, else nothing at all (a 204). Any other answer comes from another server.
 */
const PROXY_TYPE = /json|text\/event-stream/i;

/**
 * The client's HTTP layer: requests to the proxy's routes, each carrying a conversation's grant when it has one.
 * A fetch that fails, and a response that is not 2xx or not the JSON asked for, throw a `ChatError`; one that is not
 * the proxy's at all (see `PROXY_TYPE`) throws it with `notProxy`, so that the site owner learns of their setup.
 */
interface ProxyHttp {
  /** The response to `init` at `path` (under the proxy's base URL), when it is 2xx. */
  request(path: string, init?: RequestInit, grant?: string): Promise<Response>;
  /** The response's JSON, unchecked: each caller hands it to its parser (parse.ts). */
  json(path: string, init?: RequestInit, grant?: string): Promise<unknown>;
}

function createProxyHttp(options: ChatClientOptions): ProxyHttp {
  // Bound once: a host page that later wraps or replaces window.fetch does not affect a mounted widget.
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const { user } = options;
  // The person's id and its signature, checked by the proxy on each request: a grant of theirs works only with them.
  const identity: Record<string, string> = user
    ? { [IDENTITY.userHeader]: user.id, [IDENTITY.hashHeader]: user.hash }
    : {};

  async function request(path: string, init: RequestInit = {}, grant?: string): Promise<Response> {
    let response: Response;
    try {
      response = await doFetch(proxyEndpoint(options.proxyUrl, path), {
        ...init,
        headers: {
          accept: 'application/json',
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          ...(grant ? { [GRANT_HEADER]: grant } : {}),
          ...identity,
        },
      });
    } catch (error) {
      throw toChatError(error, init.signal ?? undefined);
    }
    if (!response.ok) throw await toHttpError(response);
    if (response.status !== 204 && !PROXY_TYPE.test(response.headers.get('content-type') ?? ''))
      throw notProxyError(response);
    return response;
  }

  async function json(path: string, init?: RequestInit, grant?: string): Promise<unknown> {
    const response = await request(path, init, grant);
    try {
      return await response.json();
    } catch (error) {
      throw new ChatError('http', 'The response was not JSON', { status: response.status, cause: error });
    }
  }

  return { request, json };
}

/**
 * Creates the API client. Every failure surfaces as one `ChatError`, mapped here and nowhere else.
 *
 * @example
 * const client = createChatClient({ proxyUrl: '/askbox' });
 * const conversation = await client.createConversation({ name: 'Visitor', botId: 'abc', documentIds: [] });
 */
export function createChatClient(options: ChatClientOptions): ChatClient {
  const { request, json } = createProxyHttp(options);
  let warned = false;

  async function listPage(conversation: ConversationRef, page: number, signal?: AbortSignal): Promise<ApiMessagePage> {
    const query = new URLSearchParams({
      conversation_id: conversation.id,
      includes: INCLUDES,
      page: String(page),
      per_page: String(PAGE_SIZE),
    });
    const result = parseMessagePage(await json(`/messages?${query}`, { signal }, conversation.grant));
    // For the site owner, once per widget: the visitor sees the rest of the history, not a console full of noise.
    if (result.dropped > 0 && !warned) {
      warned = true;
      console.warn(`[askbox] Ignored ${result.dropped} malformed message(s) from the chat service`);
    }
    return result;
  }

  return {
    async createConversation({ name, botId, documentIds, grant, proof }) {
      const body: Record<string, unknown> = { name, bot_id: botId, proof };
      if (documentIds.length > 0) body.document_ids = [...documentIds];
      return parseCreatedConversation(
        await json('/conversations', { method: 'POST', body: JSON.stringify(body) }, grant),
      );
    },

    prove: (grant) =>
      json('/challenge', undefined, grant)
        .then((body) => solveProof(own(body, 'data')))
        .catch(() => undefined),

    async listAllMessages(conversation, signal) {
      const all: ApiMessage[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const { messages, nextPage, totalPages } = await listPage(conversation, page, signal);
        all.push(...messages);
        if (nextPage === undefined && page >= totalPages) break;
        // A next page that does not lie ahead (a proxy or upstream bug) would only repeat pages already read.
        if (nextPage !== undefined && nextPage <= page) break;
      }
      return toChronological(all);
    },

    async recentMessages(conversation, signal) {
      const first = await listPage(conversation, 1, signal);
      const pages = [first];
      // The order of list results is undocumented, so the newest messages are on the first or the last page.
      if (first.totalPages > 1) pages.push(await listPage(conversation, first.totalPages, signal));
      return toChronological(pages.flatMap((p) => p.messages));
    },

    async deleteConversation(conversation) {
      const path = `/conversations/${encodeURIComponent(conversation.id)}`;
      parseDeleted(await json(path, { method: 'DELETE' }, conversation.grant));
    },

    async sendFeedback(conversation, { messageId, rating, comment }, { keepalive = false } = {}) {
      const body = { conversation_id: conversation.id, message_id: messageId, rating, ...(comment && { comment }) };
      const init = { method: 'POST', body: JSON.stringify(body), keepalive };
      const answer = await json('/feedback', init, conversation.grant);
      parseFeedbackTaken(answer, messageId);
    },

    listConversations: async (signal) => parseConversationList(await json('/conversations', { signal })),

    async *streamReply({ conversation, content }, signal) {
      const send = { method: 'POST', body: JSON.stringify({ content, conversation_id: conversation.id }), signal };
      if (options.stream === false) {
        const reply = parseMessage(own(await json('/messages', send, conversation.grant), 'data'));
        if (!reply) throw new ChatError('http', 'The proxy sent no reply');
        yield { type: 'start' };
        yield { type: 'chunk', text: reply.content };
        yield { type: 'end' };
        return;
      }
      // Every Askbox proxy answers with a 302 to its own sealed stream route, which fetch follows, keeping the
      // grant header.
      const response = await request('/messages/stream', send, conversation.grant);
      if (!response.headers.get('content-type')?.includes('text/event-stream'))
        throw new ChatError('stream', 'The proxy did not answer with a reply stream');
      if (!response.body) throw new ChatError('stream', 'The reply stream has no body');
      try {
        yield* readReplyStream(response.body, options.idleMs, signal);
      } catch (error) {
        throw toChatError(error, signal);
      }
    },
  };
}

/**
 * Turns a non-2xx response into a ChatError, reading the service's `{message}` envelope, which every refusal of the
 * proxy's comes in. Without it (an HTML error page, a JSON API's `{"detail": …}`), another server answered.
 */
async function toHttpError(response: Response): Promise<ChatError> {
  const body: unknown = await response.json().catch(() => undefined);
  const { detail, fields } = parseErrorBody(body);
  if (!response.headers.get('content-type')?.includes('json') || typeof own(body, 'message') !== 'string')
    return notProxyError(response);
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'), Date.now());
  return new ChatError(kindForStatus(response.status), `HTTP ${response.status}`, {
    status: response.status,
    detail,
    fields,
    retryAfter,
  });
}

/**
 * Sorts messages oldest first. `created_at` has one-second resolution, so a question and its reply often tie;
 * ties keep the service's order, read as newest-first when the list as a whole runs backwards.
 */
export function toChronological(messages: readonly ApiMessage[]): ApiMessage[] {
  const first = messages[0];
  const last = messages.at(-1);
  const list = first && last && first.created_at > last.created_at ? [...messages].reverse() : [...messages];
  return list.sort((a, b) => a.created_at - b.created_at);
}

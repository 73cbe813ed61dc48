import { ChatError, toChatError, toHttpError } from './errors';
import { readReplyStream } from './sse';
import type { ApiConversation, ApiList, ApiMessage, StreamEvent } from './types';

/** What `createChatClient` needs: the proxy's base URL and a fetch (injected for tests and hostile pages). */
export interface ChatClientOptions {
  proxyUrl: string;
  fetch?: typeof fetch;
}

/**
 * A conversation as the widget holds it: its id and the proxy's grant for it, which every call about it carries.
 * SECURITY: the grant is what makes the conversation this visitor's; the id alone opens nothing.
 */
export interface ConversationRef {
  id: string;
  grant: string;
}

/** The request header that carries a conversation's grant to the proxy. */
export const GRANT_HEADER = 'x-askbox-grant';

/** The widget's whole view of the service, spoken through the token proxy. */
export interface ChatClient {
  /** Creates a conversation; `grant` is the visitor's previous grant, so the proxy keeps knowing who they are. */
  createConversation(input: {
    name: string;
    botId: string;
    documentIds: readonly string[];
    grant?: string | undefined;
  }): Promise<ConversationRef>;
  /** Every message of a conversation, all pages, oldest first, with sources. */
  listAllMessages(conversation: ConversationRef, signal?: AbortSignal): Promise<ApiMessage[]>;
  /** The newest bot reply not among `knownIds`, with sources; undefined when the service has none yet. */
  latestReply(conversation: ConversationRef, knownIds: ReadonlySet<string>): Promise<ApiMessage | undefined>;
  /** Sends a message and yields its reply stream's events. */
  streamReply(
    input: { conversation: ConversationRef; content: string },
    signal: AbortSignal,
  ): AsyncIterable<StreamEvent>;
}

const PAGE_SIZE = 50;
/** A runaway paginator (a proxy or upstream bug) must not loop for ever. */
const MAX_PAGES = 200;
const INCLUDES = 'sources';

/**
 * Creates the API client. Every failure surfaces as one `ChatError`, mapped here and nowhere else.
 *
 * @example
 * const client = createChatClient({ proxyUrl: '/askbox' });
 * const conversation = await client.createConversation({ name: 'Visitor', botId: 'abc', documentIds: [] });
 */
export function createChatClient(options: ChatClientOptions): ChatClient {
  const base = options.proxyUrl.replace(/\/+$/, '');
  // Bound once: a host page that later wraps or replaces window.fetch does not affect a mounted widget.
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function request(path: string, init: RequestInit = {}, grant?: string): Promise<Response> {
    let response: Response;
    try {
      response = await doFetch(base + path, {
        ...init,
        headers: {
          accept: 'application/json',
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          ...(grant ? { [GRANT_HEADER]: grant } : {}),
        },
      });
    } catch (error) {
      throw toChatError(error, init.signal ?? undefined);
    }
    if (!response.ok) throw await toHttpError(response);
    return response;
  }

  async function json<T>(path: string, init?: RequestInit, grant?: string): Promise<T> {
    const response = await request(path, init, grant);
    try {
      return (await response.json()) as T;
    } catch (error) {
      throw new ChatError('http', 'The response was not JSON', { status: response.status, cause: error });
    }
  }

  function listPage(conversation: ConversationRef, page: number, signal?: AbortSignal): Promise<ApiList<ApiMessage>> {
    const query = new URLSearchParams({
      conversation_id: conversation.id,
      includes: INCLUDES,
      page: String(page),
      per_page: String(PAGE_SIZE),
    });
    return json<ApiList<ApiMessage>>(`/messages?${query}`, { signal }, conversation.grant);
  }

  return {
    async createConversation({ name, botId, documentIds, grant }) {
      const body: Record<string, unknown> = { name, bot_id: botId };
      if (documentIds.length > 0) body.document_ids = [...documentIds];
      const created = await json<{ data?: Partial<ApiConversation>; meta?: { grant?: unknown } } | null>(
        '/conversations',
        { method: 'POST', body: JSON.stringify(body) },
        grant,
      );
      const id = created?.data?.id;
      const granted = created?.meta?.grant;
      // SECURITY: checked, not cast: a proxy that grants nothing leaves the widget with nothing it could use.
      if (typeof id !== 'string' || !id || typeof granted !== 'string' || !granted)
        throw new ChatError('http', 'The proxy did not grant the new conversation');
      return { id, grant: granted };
    },

    async listAllMessages(conversation, signal) {
      const all: ApiMessage[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const { data, meta } = await listPage(conversation, page, signal);
        all.push(...(Array.isArray(data) ? data : []));
        const next = meta?.pagination?.next_page;
        const totalPages = meta?.pagination?.total_pages ?? 1;
        if (!(next ?? (page < totalPages ? page + 1 : null))) break;
      }
      return toChronological(all);
    },

    async latestReply(conversation, knownIds) {
      const first = await listPage(conversation, 1);
      const pages = [first];
      const totalPages = first.meta?.pagination?.total_pages ?? 1;
      // The order of list results is undocumented, so the newest reply is on the first or the last page.
      if (totalPages > 1) pages.push(await listPage(conversation, totalPages));
      const replies = toChronological(pages.flatMap((p) => p.data)).filter((m) => m.machine && !knownIds.has(m.id));
      return replies.at(-1);
    },

    async *streamReply({ conversation, content }, signal) {
      // The proxy answers with a 302 to its own stream route, which fetch follows (keeping the grant header); a proxy
      // that answers `{data: {stream_url}}` instead is followed by hand.
      let response = await request(
        '/messages/stream',
        { method: 'POST', body: JSON.stringify({ content, conversation_id: conversation.id }), signal },
        conversation.grant,
      );
      if (!response.headers.get('content-type')?.includes('text/event-stream')) {
        const info = (await response.json().catch(() => null)) as { data?: { stream_url?: unknown } } | null;
        const url = info?.data?.stream_url;
        if (typeof url !== 'string') throw new ChatError('stream', 'No stream in the response');
        try {
          response = await doFetch(streamTarget(url, base), {
            headers: { accept: 'text/event-stream', [GRANT_HEADER]: conversation.grant },
            signal,
          });
        } catch (error) {
          throw toChatError(error, signal);
        }
        if (!response.ok) throw await toHttpError(response);
      }
      if (!response.body) throw new ChatError('stream', 'The reply stream has no body');
      try {
        yield* readReplyStream(response.body, undefined, signal);
      } catch (error) {
        throw toChatError(error, signal);
      }
    },
  };
}

/**
 * Where a `stream_url` points: the proxy may answer a path, which belongs to the proxy's origin (an absolute proxy
 * URL) or to the page's (a relative one, like the proxy itself).
 */
export function streamTarget(url: string, proxyBase: string): string {
  return /^https?:\/\//i.test(proxyBase) ? new URL(url, proxyBase).href : url;
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

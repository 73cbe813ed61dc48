import { QUOTA_MESSAGE, error, json, readBody, validationError } from './http';
import type { KnowledgeSource } from './knowledge';
import { estimateTokens, parseIncludes, planReply, toApiMessage, type PlannedReply } from './messages';
import { createScenarioPlayer, type Scenario, type ScenarioReply } from './scenario';
import { createReplyStream } from './stream';
import {
  matchesKeyword,
  newId,
  nowSeconds,
  paginate,
  type Bot,
  type Conversation,
  type Document,
  type StoredMessage,
} from './store';
import { createValidator } from './validate';

/** The demo's bot, and a second one the proxy must refuse. */
export const DEMO_BOT_ID = 'askboxDemo01';
export const OTHER_BOT_ID = 'otherBot0002';

export interface SimulatorOptions {
  /** The Bearer key the simulator accepts. */
  apiKey: string;
  /** Where the simulator is mounted: the API lives at `{basePath}/api/v1`, streams at `{basePath}/stream/…`. */
  basePath?: string;
  /**
   * The origin that serves reply streams (`http://127.0.0.1:8788`), as the real service streams from a host of its
   * own; default: the API's origin. That host must route `{basePath}/stream/…` to this same handler, and is then
   * the only one that serves streams, and serves nothing else.
   */
  streamOrigin?: string;
  knowledge?: KnowledgeSource[];
  scenario?: Scenario;
  now?: () => number;
}

interface StreamSession {
  reply: PlannedReply;
  script: ScenarioReply;
  conversationId: string;
  expires: number;
}

const STREAM_TTL_MS = 10 * 60_000;
const THIRTY_DAYS = 30 * 24 * 3600;

/**
 * A local, in-memory emulation of the Cody API (shared/cody-api.md) for everything a chat widget uses, as one
 * fetch-standard handler. It never throws: any internal failure is a 500 in the service's envelope.
 */
export function createSimulator(options: SimulatorOptions) {
  const now = options.now ?? Date.now;
  const basePath = options.basePath ?? '';
  const apiPrefix = `${basePath}/api/v1/`;
  const created = nowSeconds(now);
  const bots: Bot[] = [
    { id: DEMO_BOT_ID, name: 'Askbox Demo Bot', model: 'gpt-4o-mini', created_at: created },
    { id: OTHER_BOT_ID, name: 'Internal Bot', model: 'gpt-4o', created_at: created },
  ];
  const documents: Document[] = (options.knowledge ?? []).map((doc) => ({
    id: newId(),
    folder_id: 'demoFolder01',
    created_at: created,
    ...doc,
  }));
  const conversations = new Map<string, Conversation>();
  const messages: StoredMessage[] = [];
  const streams = new Map<string, StreamSession>();
  let scenario: Scenario = options.scenario ?? {};
  let player = createScenarioPlayer(scenario);

  const store = (conversationId: string, content: string, machine: boolean, reply?: PlannedReply): StoredMessage => {
    const message: StoredMessage = {
      id: newId(),
      content,
      conversation_id: conversationId,
      machine,
      failed_responding: reply?.failed ?? false,
      flagged: reply?.flagged ?? false,
      created_at: nowSeconds(now),
      source_ids: reply?.sourceIds ?? [],
      tokens: estimateTokens(content),
    };
    messages.push(message);
    return message;
  };

  const quotaReached = () => {
    const since = nowSeconds(now) - THIRTY_DAYS;
    const sent = messages.filter((m) => !m.machine && m.created_at >= since).length;
    return scenario.messageLimit !== undefined && sent >= scenario.messageLimit;
  };

  async function conversationWrite(request: Request, existing?: Conversation): Promise<Response> {
    const body = await readBody(request);
    if (body instanceof Response) return body;
    const v = createValidator(body);
    const name = v.string('name', 255);
    const botId = v.exists('bot_id', (id) => bots.some((b) => b.id === id));
    const documentIds = v.idArray('document_ids', 1000, (id) => documents.some((d) => d.id === id));
    if (!v.ok || !name || !botId) return validationError(v.errors);
    const conversation = existing ?? {
      id: newId(),
      created_at: nowSeconds(now),
      name,
      bot_id: botId,
      document_ids: [],
    };
    Object.assign(conversation, { name, bot_id: botId, document_ids: documentIds });
    conversations.set(conversation.id, conversation);
    return json({ data: conversationJson(conversation, new Set()) });
  }

  /** Validation, quota and scripted HTTP failures shared by both send endpoints. */
  async function acceptMessage(
    request: Request,
  ): Promise<
    { response: Response } | { conversationId: string; reply: PlannedReply; script: ScenarioReply; redirect: boolean }
  > {
    const body = await readBody(request);
    if (body instanceof Response) return { response: body };
    const v = createValidator(body);
    const content = v.string('content', 2000);
    const conversationId = v.exists('conversation_id', (id) => conversations.has(id));
    const redirect = v.boolean('redirect', true);
    if (!v.ok || !content || !conversationId) return { response: validationError(v.errors) };
    if (quotaReached()) return { response: error(402, QUOTA_MESSAGE) };
    const script = player.next(content);
    if (script.status === 402) return { response: error(402, QUOTA_MESSAGE) };
    if (script.status && script.status !== 500 && script.status >= 400) {
      const message = script.message ?? 'The service could not handle this message.';
      const wait: Record<string, string> =
        script.retryAfter === undefined ? {} : { 'retry-after': String(script.retryAfter) };
      return { response: json({ message }, script.status, wait) };
    }
    store(conversationId, content, false);
    const reply = planReply(content, script, documents);
    if (script.status === 500) {
      store(conversationId, reply.text, true, reply);
      return { response: error(500, script.message ?? 'Server Error') };
    }
    return { conversationId, reply, script, redirect };
  }

  async function route(request: Request, url: URL, path: string[]): Promise<Response> {
    const method = request.method;
    const query = url.searchParams;
    const includes = parseIncludes(query);
    const [resource, id, extra] = path;
    const allow = (...methods: string[]) =>
      methods.includes(method)
        ? null
        : error(
            405,
            `The ${method} method is not supported for route api/v1/${path.join('/')}. Supported methods: ${methods.join(', ')}.`,
          );
    if (extra !== undefined) return error(404, `The route api/v1/${path.join('/')} could not be found.`);

    if (resource === 'bots' && id === undefined) {
      return (
        allow('GET') ??
        json(
          paginate(
            bots.filter((b) => matchesKeyword(b.name, query.get('keyword'))),
            query,
          ),
        )
      );
    }

    if (resource === 'conversations' && id === undefined) {
      if (method === 'POST') return conversationWrite(request);
      const list = [...conversations.values()].filter(
        (c) =>
          (!query.get('bot_id') || c.bot_id === query.get('bot_id')) && matchesKeyword(c.name, query.get('keyword')),
      );
      const page = paginate(list, query);
      return allow('GET', 'POST') ?? json({ ...page, data: page.data.map((c) => conversationJson(c, includes)) });
    }

    if (resource === 'conversations' && id !== undefined) {
      const denied = allow('GET', 'POST', 'DELETE');
      if (denied) return denied;
      const conversation = conversations.get(id);
      if (!conversation) return error(404, 'Conversation not found.');
      if (method === 'POST') return conversationWrite(request, conversation);
      if (method === 'DELETE') {
        conversations.delete(id);
        for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.conversation_id === id) messages.splice(i, 1);
        return json({ data: true });
      }
      return json({ data: conversationJson(conversation, includes) });
    }

    if (resource === 'messages' && id === undefined) {
      if (method === 'POST') {
        const accepted = await acceptMessage(request);
        if ('response' in accepted) return accepted.response;
        // The call is synchronous: it answers, and the reply is stored, once the reply is generated.
        const { firstByteDelayMs } = accepted.script;
        if (firstByteDelayMs) await new Promise((resolve) => setTimeout(resolve, firstByteDelayMs));
        const stored = store(accepted.conversationId, accepted.reply.text, true, accepted.reply);
        return json({ data: toApiMessage(stored, new Set(), documents, url.origin, basePath) });
      }
      const conversationId = query.get('conversation_id');
      const list = messages.filter((m) => !conversationId || m.conversation_id === conversationId);
      const page = paginate(list, query);
      return (
        allow('GET', 'POST') ??
        json({ ...page, data: page.data.map((m) => toApiMessage(m, includes, documents, url.origin, basePath)) })
      );
    }

    if (resource === 'messages' && id === 'stream') {
      const denied = allow('POST');
      if (denied) return denied;
      const accepted = await acceptMessage(request);
      if ('response' in accepted) return accepted.response;
      const token = newId(48);
      streams.set(token, {
        reply: accepted.reply,
        script: accepted.script,
        conversationId: accepted.conversationId,
        expires: now() + STREAM_TTL_MS,
      });
      const streamUrl = `${options.streamOrigin ?? url.origin}${basePath}/stream/${token}`;
      return accepted.redirect
        ? new Response(null, { status: 302, headers: { location: streamUrl } })
        : json({ data: { stream_url: streamUrl } });
    }

    if (resource === 'messages' && id !== undefined) {
      const message = messages.find((m) => m.id === id);
      return (
        allow('GET') ??
        (message
          ? json({ data: toApiMessage(message, includes, documents, url.origin, basePath) })
          : error(404, 'Message not found.'))
      );
    }

    return error(404, `The route api/v1/${path.join('/')} could not be found.`);
  }

  /** Serves a stream once: the reply is stored as it starts (the service finishes generating on its own). */
  async function serveStream(token: string): Promise<Response> {
    const session = streams.get(token);
    streams.delete(token);
    if (!session || session.expires < now()) return error(404, 'This stream does not exist or has already been read.');
    const { reply, script, conversationId } = session;
    const faulty = script.cutAfter !== undefined || script.stallAfter !== undefined;
    if (!faulty || script.stored !== false) store(conversationId, reply.text, true, reply);
    if (script.firstByteDelayMs) await new Promise((resolve) => setTimeout(resolve, script.firstByteDelayMs));
    const body = createReplyStream({
      text: reply.text,
      chunkSize: script.chunkSize ?? 12,
      delayMs: script.delayMs ?? 25,
      cutAfter: script.cutAfter,
      stallAfter: script.stallAfter,
    });
    return new Response(body, {
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
    });
  }

  async function handle(request: Request): Promise<Response> {
    try {
      const url = new URL(request.url);
      const path = url.pathname;
      // As the real service: with a stream host of its own, streams are served there and only there.
      const streamHost = options.streamOrigin ?? url.origin;
      if (url.origin === streamHost && path.startsWith(`${basePath}/stream/`) && request.method === 'GET')
        return await serveStream(path.slice(basePath.length + 8));
      if (url.origin === options.streamOrigin) return error(404, 'Not found.');
      if (path.startsWith(`${basePath}/documents/`) && request.method === 'GET') {
        const doc = documents.find((d) => d.id === path.slice(basePath.length + 11));
        return doc
          ? new Response(doc.content, { headers: { 'content-type': 'text/plain; charset=utf-8' } })
          : error(404, 'Document not found.');
      }
      if (!path.startsWith(apiPrefix)) return error(404, 'Not found.');
      if (request.headers.get('authorization') !== `Bearer ${options.apiKey}`) return error(401, 'Unauthenticated.');
      return await route(request, url, path.slice(apiPrefix.length).split('/').filter(Boolean));
    } catch {
      return error(500, 'Server Error');
    }
  }

  return {
    handle,
    bots,
    documents,
    /** Replaces the scenario (and restarts its queue of scripted replies). */
    setScenario(next: Scenario) {
      scenario = next;
      player = createScenarioPlayer(next);
    },
  };
}

function conversationJson(c: Conversation, includes: Set<string>) {
  const { document_ids, ...rest } = c;
  // cody-api.md §5.3: the plain-array form, which the strictest client found accepts.
  return includes.has('document_ids') ? { ...rest, document_ids } : rest;
}

/** One simulator instance. */
export type Simulator = ReturnType<typeof createSimulator>;

import { fail, invalid, json, passThrough, pick, readJson } from './respond';
import { createSealer } from './seal';

/** Options of `createProxy`. */
export interface ProxyOptions {
  /** The Cody API key. SECURITY: it is added to upstream requests only and never appears in a response. */
  apiKey: string;
  /** The bots visitors may talk to; conversations of any other bot are refused. */
  botIds: readonly string[];
  /** The service's base URL (default `https://getcody.ai/api/v1`). */
  upstream?: string;
  /** Where the proxy is mounted (default `/askbox`); requests outside it get a 404. */
  basePath?: string;
  /** Origins of pages on other hosts that may call the proxy (CORS). `*` is refused. Same-host pages always may. */
  allowedOrigins?: readonly string[];
  /** Key for sealing stream URLs; set it when several proxy instances serve one site. Default: random per process. */
  secret?: string;
  /** The proxy's public origin (e.g. `https://example.com`), for `stream_url` behind a TLS-terminating proxy. */
  publicUrl?: string;
  fetch?: typeof fetch;
  /** Called with unexpected errors (upstream unreachable, bugs); never given the key. */
  onError?: (error: unknown) => void;
}

/** A fetch-standard handler: the whole proxy. */
export type ProxyHandler = (request: Request) => Promise<Response>;

const DEFAULT_UPSTREAM = 'https://getcody.ai/api/v1';
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const STREAM_TTL_MS = 5 * 60_000;
/** How many conversation → bot answers are remembered, to spare an upstream call per message. */
const OWNER_CACHE_SIZE = 10_000;

/**
 * Creates the token proxy: a policy gateway in front of the Cody API that exposes only the routes the widget
 * needs, under the service's own paths and shapes, adds the key, pins the bot and serves reply streams from its
 * own sealed route. Throws at once on a misconfiguration.
 *
 * @example
 * const proxy = createProxy({ apiKey: process.env.CODY_API_KEY!, botIds: ['yiu456ytyUjk'] });
 * export default { fetch: proxy }; // Cloudflare Workers, Deno, Bun
 */
export function createProxy(options: ProxyOptions): ProxyHandler {
  if (!options.apiKey) throw new Error('createProxy: apiKey is required');
  if (!options.botIds.length || !options.botIds.every((id) => ID.test(id))) throw new Error('createProxy: botIds must list at least one valid bot id');
  const origins = new Set(options.allowedOrigins ?? []);
  if (origins.has('*')) throw new Error('createProxy: "*" is not allowed in allowedOrigins; list the sites that embed the widget');
  for (const origin of origins) if (new URL(origin).origin !== origin) throw new Error(`createProxy: "${origin}" is not an origin (scheme://host[:port])`);

  const upstream = (options.upstream ?? DEFAULT_UPSTREAM).replace(/\/+$/, '');
  const upstreamOrigin = new URL(upstream).origin;
  const base = `/${(options.basePath ?? '/askbox').replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
  const bots = new Set(options.botIds);
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const sealer = createSealer(options.secret);
  const owners = new Map<string, string>();

  const call = (path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}) =>
    doFetch(upstream + path, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'manual',
      signal: init.signal,
    });

  const remember = (conversationId: string, botId: string) => {
    if (owners.size >= OWNER_CACHE_SIZE) owners.delete(owners.keys().next().value as string);
    owners.set(conversationId, botId);
  };

  /**
   * Null when the conversation belongs to an allowed bot; otherwise the refusal to send: a 422 in the service's
   * wording for a message body, a 404 for a read.
   */
  async function checkOwner(conversationId: unknown, as: 'body' | 'read' = 'body'): Promise<Response | null> {
    const refuse = () => (as === 'read' ? fail(404, 'Conversation not found.') : invalid('conversation_id', 'The selected conversation id is invalid.'));
    if (typeof conversationId !== 'string' || !ID.test(conversationId)) return refuse();
    const bot = owners.get(conversationId);
    if (bot !== undefined) return ownedBy(conversationId, bot) ? null : refuse();
    const response = await call(`/conversations/${conversationId}`);
    if (response.status === 404 || response.status === 422) {
      await response.body?.cancel();
      return refuse();
    }
    if (!response.ok) return passThrough(response);
    const body = (await response.json()) as { data?: { bot_id?: unknown } };
    return ownedBy(conversationId, body.data?.bot_id) ? null : refuse();
  }

  /**
   * Remembers which bot a conversation belongs to and says whether it is one of ours.
   * SECURITY: a visitor must not read or write another bot's conversations through this proxy.
   */
  function ownedBy(conversationId: string, botId: unknown): boolean {
    const bot = String(botId ?? '');
    remember(conversationId, bot);
    return bots.has(bot);
  }

  /** The JSON body of a message request, once its conversation is known to be ours; else the refusal. */
  async function readOwnedBody(request: Request): Promise<Record<string, unknown> | Response> {
    const body = await readJson(request);
    if (body instanceof Response) return body;
    return (await checkOwner(body.conversation_id)) ?? body;
  }

  async function createConversation(request: Request): Promise<Response> {
    const body = await readJson(request);
    if (body instanceof Response) return body;
    // With a single bot configured, the widget may leave bot_id out.
    const botId = body.bot_id ?? (bots.size === 1 ? options.botIds[0] : undefined);
    if (typeof botId !== 'string' || !bots.has(botId)) return invalid('bot_id', 'The selected bot id is invalid.');
    const response = await call('/conversations', { method: 'POST', body: { ...pick(body, ['name', 'document_ids']), bot_id: botId } });
    return guarded(response, async (data) => {
      if (typeof data.id === 'string') remember(data.id, botId);
      return null;
    });
  }

  async function sendForStream(request: Request, url: URL): Promise<Response> {
    const body = await readOwnedBody(request);
    if (body instanceof Response) return body;
    const wantsRedirect = ![false, 0, '0', 'false'].includes(body.redirect as never);
    const response = await call('/messages/stream', { method: 'POST', body: { ...pick(body, ['content', 'conversation_id']), redirect: false } });
    let streamUrl: unknown;
    if (response.status >= 300 && response.status < 400) streamUrl = response.headers.get('location');
    else if (response.ok) streamUrl = ((await response.json().catch(() => null)) as { data?: { stream_url?: unknown } } | null)?.data?.stream_url;
    else return passThrough(response);
    if (typeof streamUrl !== 'string') return fail(502, 'The chat service did not return a stream.');
    const token = await sealer.seal(new URL(streamUrl, upstream).href, STREAM_TTL_MS);
    const path = `${base}/stream/${token}`;
    // A path-relative Location survives TLS-terminating reverse proxies; `stream_url` must be absolute.
    if (wantsRedirect) return new Response(null, { status: 302, headers: { location: path, 'cache-control': 'no-store' } });
    return json({ data: { stream_url: `${(options.publicUrl ?? url.origin).replace(/\/+$/, '')}${path}` } });
  }

  async function stream(token: string, request: Request): Promise<Response> {
    const target = await sealer.open(token);
    if (!target) return fail(404, 'This stream does not exist or has expired.');
    const sameOrigin = new URL(target).origin === upstreamOrigin;
    const response = await doFetch(target, {
      // SECURITY: the key goes only to the service's own origin; a separate stream host gets the sealed URL alone.
      headers: { accept: 'text/event-stream', ...(sameOrigin ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      signal: request.signal,
    });
    if (!response.ok || !response.body) return passThrough(response);
    return new Response(response.body, {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-store', 'x-accel-buffering': 'no' },
    });
  }

  async function route(request: Request, url: URL, path: string[]): Promise<Response> {
    const [resource, id, extra] = path;
    const method = request.method;
    const only = (allowed: string, run: () => Promise<Response>) => (method === allowed ? run() : Promise.resolve(notAllowed(allowed)));
    if (extra !== undefined) return fail(404, 'Not found.');
    if (resource === 'conversations' && id === undefined) return only('POST', () => createConversation(request));
    if (resource === 'conversations' && id !== undefined) {
      // The conversation itself names its bot: no second upstream call to check it.
      const owned = async (d: Record<string, unknown>) => (ownedBy(id, d.bot_id) ? null : fail(404, 'Not found.'));
      return only('GET', async () => (ID.test(id) ? guarded(await call(`/conversations/${id}${query(url, ['includes'])}`), owned) : fail(404, 'Not found.')));
    }
    if (resource === 'messages' && id === 'stream') return only('POST', () => sendForStream(request, url));
    if (resource === 'messages' && id !== undefined) {
      return only('GET', async () => (ID.test(id) ? guarded(await call(`/messages/${id}${query(url, ['includes'])}`), (d) => checkOwner(d.conversation_id)) : fail(404, 'Not found.')));
    }
    if (resource === 'messages' && method === 'GET') {
      if (!url.searchParams.get('conversation_id')) return invalid('conversation_id', 'The conversation id field is required.');
      const refusal = await checkOwner(url.searchParams.get('conversation_id'), 'read');
      return refusal ?? passThrough(await call(`/messages${query(url, ['conversation_id', 'includes', 'page', 'per_page'])}`));
    }
    if (resource === 'messages' && method === 'POST') {
      const body = await readOwnedBody(request);
      return body instanceof Response ? body : passThrough(await call('/messages', { method: 'POST', body: pick(body, ['content', 'conversation_id']) }));
    }
    if (resource === 'messages') return notAllowed('GET, POST');
    if (resource === 'stream' && id !== undefined) return only('GET', () => stream(id, request));
    return fail(404, 'Not found.');
  }

  return async function proxy(request: Request): Promise<Response> {
    try {
      const url = new URL(request.url);
      if (!url.pathname.startsWith(`${base}/`)) return fail(404, 'Not found.');
      const origin = request.headers.get('origin');
      // An opaque origin ("null": sandboxed frames, data: URLs) is never same-host, and can never be listed.
      const crossSite = origin !== null && safeHost(origin) !== url.host;
      if (crossSite && !origins.has(origin)) return fail(403, 'This site is not allowed to use this chat.');
      const cors: Record<string, string> = crossSite ? { vary: 'Origin', 'access-control-allow-origin': origin } : { vary: 'Origin' };
      if (request.method === 'OPTIONS') {
        return new Response(null, {
          status: 204,
          headers: { ...cors, 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'content-type', 'access-control-max-age': '600' },
        });
      }
      const response = await route(request, url, url.pathname.slice(base.length).split('/').filter(Boolean));
      for (const [name, value] of Object.entries(cors)) response.headers.set(name, value);
      return response;
    } catch (error) {
      if (request.signal.aborted) return fail(499, 'The client went away.');
      options.onError?.(error);
      return fail(502, 'The chat service could not be reached.');
    }
  };
}

/** Forwards a JSON answer after checking that the resource it names belongs to an allowed bot. */
async function guarded(response: Response, owner: (data: Record<string, unknown>) => Promise<Response | null>): Promise<Response> {
  if (!response.ok || !response.headers.get('content-type')?.includes('json')) return passThrough(response);
  const body = (await response.json()) as { data?: Record<string, unknown> };
  const refusal = await owner(body.data ?? {});
  if (refusal) return fail(404, 'Not found.');
  return json(body, response.status);
}

/** A 405 in the service's envelope, naming the methods the route takes. */
function notAllowed(allow: string): Response {
  const response = fail(405, 'Method not allowed.');
  response.headers.set('allow', allow);
  return response;
}

/** The listed query parameters of `url`, as a query string. */
function query(url: URL, keys: readonly string[]): string {
  const out = new URLSearchParams();
  for (const key of keys) {
    const value = url.searchParams.get(key);
    if (value !== null) out.set(key, value);
  }
  const text = out.toString();
  return text ? `?${text}` : '';
}

function safeHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

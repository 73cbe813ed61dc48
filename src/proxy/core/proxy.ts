import { clientIp } from './client-ip.js';
import { newVisitorId } from './grant.js';
import { ID, resolveOptions, type ProxyContext, type ProxyLogEntry, type ProxyOptions } from './options.js';
import { createPolicy, GRANT_HEADER, LimitStoreError } from './policy.js';
import { noteRefusal } from './refusal.js';
import { BASE_HEADERS, busy, field, json, notAllowed, passThrough, readJson, refuse } from './respond.js';
import { allowedStreamUrl, isServedHost } from './hosts.js';
import { createProofOfWork } from './proof.js';
import { createSealer } from './seal.js';
import { fetchStream } from './stream-fetch.js';
import { createStreamCap } from './stream-cap.js';
import { createValidator } from './validate.js';
import { logPath, query, safeHost } from './request-url.js';
import { FIELDS, ROUTES } from '../../protocol/contract.js';
import { createVisitorActions } from './visitor-actions.js';
import { createTelemetry, type RequestTelemetry } from './telemetry.js';
import { fetchWithin, onBodyEnd, UpstreamTimeout, watchBody } from './upstream.js';

export type { ProxyOptions } from './options.js';

/** A fetch-standard handler: the whole proxy. The context carries what only the runtime knows (the socket's IP). */
export type ProxyHandler = (request: Request, context?: ProxyContext) => Promise<Response>;

const ALLOW_HEADERS = `content-type, ${GRANT_HEADER}`;

/** A request on its way through the proxy. */
interface Call {
  request: Request;
  url: URL;
  ip: string;
  seen: RequestTelemetry;
}

/**
 * Creates the token proxy: a policy gateway in front of the Cody API that exposes only the routes the widget
 * needs, under the service's own paths and shapes, adds the key, pins the bot, binds every conversation to the
 * visitor who created it (signed grants), limits abuse, and serves reply streams from its own sealed route.
 * Under `basePath` it answers exactly: POST conversations, GET messages (one conversation's, with its grant),
 * POST messages/stream (answered with a 302 to GET stream/{token}), GET stream/{token}, POST messages (the
 * non-streaming send), GET health, GET challenge (a proof of work, with `proofOfWork` on), and CORS preflights;
 * anything else is a 404 or 405. Throws at once on a misconfiguration.
 *
 * @example
 * const proxy = createProxy({ apiKey: Deno.env.get('CODY_API_KEY'), botIds: ['yiu456ytyUjk'], secret: Deno.env.get('ASKBOX_SECRET') });
 * Deno.serve((request, info) => proxy(request, { clientIp: info.remoteAddr.hostname }));
 */
export function createProxy(options: ProxyOptions): ProxyHandler {
  const config = resolveOptions(options);
  const { timeouts, base } = config;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const sealer = createSealer(config.secrets, config.now);
  const policy = createPolicy(config, options.onLimit);
  const proof = createProofOfWork({ ...config, settings: config.proofOfWork, guard: policy.guard });
  const streamCap = createStreamCap(config.maxStreams);
  const telemetry = createTelemetry(base);
  const log = options.log ?? (() => undefined);
  // SECURITY: whatever an error says, the key and the secrets never reach a log line.
  const redact = (text: string) =>
    [config.apiKey, ...config.secrets].reduce((out, secret) => out.split(secret).join('[redacted]'), text);
  if (options.secret === undefined) {
    log({
      level: 'warn',
      event: 'config',
      message:
        'No secret set: conversations and stream tokens will not survive a restart, nor be shared by several instances.',
    });
  }

  const watch = (firstMs: number, totalMs: number, onFirst?: () => void) => (body: ReadableStream<Uint8Array>) =>
    watchBody(
      body,
      { firstMs, idleMs: timeouts.idleMs, totalMs },
      (what) => log({ level: 'warn', event: 'upstream', message: `Upstream ${what}.` }),
      onFirst,
    );
  const watchJson = watch(timeouts.idleMs, timeouts.maxStreamMs);

  /** One upstream call with the key; `slow` for a synchronous reply, which the bot must think through first. */
  const upstream = (call: Call, path: string, init: { method?: string; body?: unknown; slow?: boolean } = {}) =>
    telemetry.upstream(call.seen.route, () =>
      fetchWithin(
        doFetch,
        config.upstream + path,
        {
          method: init.method ?? 'GET',
          headers: {
            authorization: `Bearer ${config.apiKey}`,
            accept: 'application/json',
            ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          // JSON.stringify(undefined) is undefined: no body.
          body: JSON.stringify(init.body),
          redirect: 'manual',
        },
        init.slow ? timeouts.firstByteMs : timeouts.connectMs,
        call.request.signal,
      ),
    );

  const actions = createVisitorActions({
    policy,
    onFeedback: options.onFeedback,
    onDelete: options.onDelete,
    log,
    redact,
    remove: async (call: Call, id: string) =>
      passThrough(await upstream(call, `/conversations/${id}`, { method: 'DELETE' }), watchJson),
  });

  async function createConversation(call: Call): Promise<Response> {
    const body = await readJson(call.request);
    if (body instanceof Response) return body;
    // The service's rules, in its order: both fields are required, and the bot must be one this proxy serves.
    const v = createValidator(body);
    const rawName = v.text('name');
    const botId = await v.exists('bot_id', async (id) => [...config.bots].find((bot) => bot === id) ?? null);
    const refused = v.failed();
    if (refused) return refused;
    // A visitor keeps its id across conversations, so starting afresh does not reset its limits.
    const visitorId = (await policy.visitorOf(call.request)) ?? newVisitorId();
    const refusal = (await policy.limit('conversation', call.ip, visitorId)) ?? (await proof.check(body.proof));
    if (refusal) return refusal;
    // Cut on code points, never inside a surrogate pair (which the service would store as a broken character).
    const name = Array.from(rawName!.trim()).slice(0, FIELDS.nameMax).join('');
    const documentIds = focus(body.document_ids, config.documentIds);
    const response = await upstream(call, '/conversations', {
      method: 'POST',
      body: { name, bot_id: botId!, ...(documentIds && { document_ids: documentIds }) },
    });
    if (!response.ok) return passThrough(response, watchJson);
    const data = field(await response.json().catch(() => undefined), 'data');
    const id = field(data, 'id');
    if (typeof id !== 'string' || !ID.test(id)) return refuse('unexpectedAnswer');
    return json({ data, meta: { grant: await policy.mint(id, botId!, visitorId) } });
  }

  /**
   * A message body whose conversation the visitor holds a grant for, past the limits; else the refusal. Checked as
   * the service checks it (content, then conversation_id, then redirect), before any limit is spent or upstream call
   * made; a conversation without the visitor's grant is "invalid", as one that does not exist.
   */
  async function readMessage(call: Call, forStream = false) {
    const body = await readJson(call.request);
    if (body instanceof Response) return body;
    const v = createValidator(body);
    const content = v.text('content', FIELDS.contentMax);
    const grant = await v.exists('conversation_id', (id) => policy.grantFor(call.request, id));
    // A synchronous send takes no redirect, so none is checked (nor used).
    const redirect = forStream && v.flag('redirect', true);
    const refused = v.failed();
    if (refused) return refused;
    return (
      (await policy.limit('message', call.ip, grant!.visitorId)) ?? {
        content: content!,
        conversation_id: grant!.conversationId,
        redirect,
      }
    );
  }

  /** A synchronous send: the service answers with the reply once the bot has thought it through. */
  async function sendMessage(call: Call): Promise<Response> {
    const body = await readMessage(call);
    if (body instanceof Response) return body;
    const response = await upstream(call, '/messages', {
      method: 'POST',
      body: { content: body.content, conversation_id: body.conversation_id },
      slow: true,
    });
    return passThrough(response, watchJson);
  }

  async function sendForStream(call: Call): Promise<Response> {
    const body = await readMessage(call, true);
    if (body instanceof Response) return body;
    const response = await upstream(call, '/messages/stream', {
      method: 'POST',
      body: { content: body.content, conversation_id: body.conversation_id, redirect: false },
    });
    // The service is asked for `{data: {stream_url}}`, but cody-api.md leaves open whether every deployment honours
    // `redirect: false`, so its 302 is read as well.
    let streamUrl: unknown;
    if (response.status >= 300 && response.status < 400) streamUrl = response.headers.get('location');
    else if (response.ok) streamUrl = field(await response.json().catch(() => undefined), 'data', 'stream_url');
    else return passThrough(response, watchJson);
    const target =
      typeof streamUrl === 'string' ? allowedStreamUrl(streamUrl, config.upstream, config.streamHosts) : undefined;
    if (!target) return refuse('noStream');
    const token = await sealer.seal({ url: target.href, conversationId: body.conversation_id }, config.streamTtlMs);
    // SECURITY: a path, so a forged Host header cannot point the visitor elsewhere; fetch follows it with the grant.
    const path = `${base}/stream/${token}`;
    if (body.redirect) return new Response(null, { status: 302, headers: { location: path } });
    // The service's `redirect: false` answer wants an absolute URL: the public origin, else the Host (which
    // `handle` has already checked against the served hosts).
    return json({ data: { stream_url: `${config.publicOrigin ?? call.url.origin}${path}` } });
  }

  async function stream(call: Call, token: string): Promise<Response> {
    const sealed = await sealer.open(token);
    // SECURITY: a stream URL alone is not enough; the visitor's grant for its conversation must come with it.
    // The token's IV (its first 16 characters) is random per token: it names the token in the store.
    if (
      !sealed ||
      !(await policy.grantFor(call.request, sealed.conversationId)) ||
      !(await policy.firstUse(token.slice(0, 16)))
    )
      return refuse('streamGone');
    const first = allowedStreamUrl(sealed.url, config.upstream, config.streamHosts);
    if (!first) return refuse('noStream');
    // SECURITY: the key goes only to the service's own origin; a separate stream host gets the sealed URL alone.
    const response = await telemetry.upstream(call.seen.route, () =>
      fetchStream(first, config.streamHosts, (url, withKey) =>
        fetchWithin(
          doFetch,
          url,
          {
            headers: { accept: 'text/event-stream', ...(withKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
            redirect: 'manual',
          },
          timeouts.connectMs,
          call.request.signal,
        ),
      ),
    );
    if (!response.ok || !response.body) return passThrough(response, watchJson);
    const live = telemetry.stream(call.seen.started);
    const body = watch(timeouts.firstByteMs, timeouts.maxStreamMs, live.first)(response.body);
    onBodyEnd(body, live.end);
    return new Response(body, {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'x-accel-buffering': 'no' },
    });
  }

  /** One conversation's messages: only with the visitor's grant for it. */
  async function listMessages(call: Call): Promise<Response> {
    const conversationId = call.url.searchParams.get('conversation_id');
    const v = createValidator({ conversation_id: conversationId });
    v.text('conversation_id');
    const refused = v.failed();
    if (refused) return refused;
    if (!(await policy.grantFor(call.request, conversationId))) return refuse('conversationNotFound');
    const keys = ['conversation_id', 'includes', 'page', 'per_page'];
    return passThrough(await upstream(call, `/messages${query(call.url, keys)}`), watchJson);
  }

  function route(call: Call, path: string[]): Promise<Response> | Response {
    const [resource, id, extra] = path;
    const method = call.request.method;
    // The methods each route takes are the wire contract's; any other is a 405 naming them.
    const only = ({ methods }: { methods: readonly string[] }, run: () => Promise<Response>) =>
      // Stryker disable next-line StringLiteral: every route guarded here takes one method (messages, two, is below).
      methods.includes(method) ? run() : notAllowed(methods.join(', '));
    if (extra !== undefined || (id !== undefined && !ID.test(id) && resource !== 'stream')) return refuse('notFound');
    if (resource === 'health' && id === undefined) return only(ROUTES.health, async () => health(call.url));
    if (resource === 'challenge' && id === undefined)
      return only(ROUTES.challenge, async () => proof.challenge(call.ip, await policy.visitorOf(call.request)));
    if (resource === 'conversations' && id === undefined)
      return only(ROUTES.conversations, () => createConversation(call));
    if (resource === 'conversations') return only(ROUTES.conversation, () => actions.remove(call, id!));
    if (resource === 'feedback' && id === undefined) return only(ROUTES.feedback, () => actions.feedback(call));
    if (resource === 'messages' && id === 'stream') return only(ROUTES.messageStream, () => sendForStream(call));
    if (resource === 'messages' && id === undefined && method === 'GET') return listMessages(call);
    if (resource === 'messages' && id === undefined && method === 'POST') return sendMessage(call);
    if (resource === 'messages' && id === undefined) return notAllowed(ROUTES.messages.methods.join(', '));
    if (resource === 'stream' && id !== undefined) return only(ROUTES.stream, () => streamCap(() => stream(call, id)));
    return refuse('notFound');
  }

  /**
   * `GET health`: up, and an Askbox proxy (for load balancers and the widget's self-diagnosis); with `?bot_id=`,
   * whether that bot is one it serves. The bot id is no secret: every page with the widget carries it.
   */
  function health(url: URL): Response {
    const bot = url.searchParams.get('bot_id');
    return json({ status: 'ok', proxy: 'askbox', ...(bot !== null && { bot: config.bots.has(bot) }) });
  }

  async function handle(request: Request, url: URL, ip: string, seen: RequestTelemetry): Promise<Response> {
    if (!url.pathname.startsWith(`${base}/`)) return refuse('notFound');
    if (!isServedHost(url.host, config.hosts)) return refuse('wrongHost');
    const origin = request.headers.get('origin');
    // Same host (and port) as the proxy's public address; an opaque origin ("null") is never same-host or listed.
    const crossSite = origin !== null && safeHost(origin) !== (config.publicHost ?? url.host);
    if (crossSite && !config.origins.has(origin)) return refuse('originRefused');
    // A page on another origin may read only the response headers listed here; the widget needs Retry-After.
    const cors: Record<string, string> = crossSite
      ? { vary: 'Origin', 'access-control-allow-origin': origin, 'access-control-expose-headers': 'retry-after' }
      : { vary: 'Origin' };
    let response: Response;
    if (request.method === 'OPTIONS') {
      response = new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-methods': 'GET, POST, DELETE',
          'access-control-allow-headers': ALLOW_HEADERS,
          'access-control-max-age': '600',
        },
      });
    } else {
      // The health route answers load balancers, which carry no login or captcha.
      const open = url.pathname === `${base}/health`;
      const verdict = options.authorize && !open ? await options.authorize(request) : true;
      if (verdict instanceof Response)
        response = noteRefusal(new Response(verdict.body, verdict), { reason: 'notAuthorized' });
      else if (verdict !== true) response = refuse('notAuthorized');
      else
        response = await route({ request, url, ip, seen }, url.pathname.slice(base.length).split('/').filter(Boolean));
    }
    for (const [name, value] of Object.entries({ ...BASE_HEADERS, ...cors })) response.headers.set(name, value);
    return response;
  }

  return async function proxy(request: Request, context?: ProxyContext): Promise<Response> {
    const started = Date.now();
    const ip = clientIp(request, context, options.clientIp);
    const url = new URL(request.url);
    const seen = telemetry.request(request, url);
    let response: Response;
    try {
      response = await seen.run(() => handle(request, url, ip, seen));
    } catch (error) {
      if (request.signal.aborted) response = refuse('clientGone');
      else if (error instanceof UpstreamTimeout) response = refuse('timeout');
      // SECURITY: fail closed, and in words for the visitor: nothing about the store reaches the page.
      else if (error instanceof LimitStoreError) response = busy();
      else response = refuse('unreachable');
      const message = redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      const event = error instanceof LimitStoreError ? 'limits' : 'upstream';
      log({ level: 'error', event, method: request.method, path: logPath(url), message });
    }
    const entry: ProxyLogEntry = {
      level: 'info',
      event: 'request',
      method: request.method,
      path: logPath(url),
      status: response.status,
      ms: Date.now() - started,
      ip,
    };
    log(response.status === 429 ? { ...entry, level: 'warn', event: 'limit' } : entry);
    seen.finish(response);
    return response;
  };
}

/**
 * The focus documents to forward: the visitor's choice when every id is in the allowlist; otherwise the
 * configured set, or none.
 * SECURITY: a visitor must not focus the bot on documents the site owner did not offer.
 */
function focus(requested: unknown, allowed: readonly string[]): readonly string[] | undefined {
  const chosen =
    Array.isArray(requested) &&
    requested.length > 0 &&
    requested.every((id) => allowed.some((document) => document === id));
  if (chosen) return requested as string[];
  return allowed.length ? allowed : undefined;
}

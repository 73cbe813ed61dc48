import type { IncomingRequest } from './call.js';
import { clientIp } from './client-ip.js';
import { createDeps } from './deps.js';
import { gate } from './gate.js';
import type { ProxyContext, ProxyLogEntry, ProxyOptions } from './options.js';
import { StoreError } from './policy.js';
import { logPath } from './request-url.js';
import { busy, refuse } from './respond.js';
import { UpstreamTimeout } from './upstream.js';

export type { ProxyOptions } from './options.js';

/** A fetch-standard handler: the whole proxy. The context carries what only the runtime knows (the socket's IP). */
export type ProxyHandler = (request: Request, context?: ProxyContext) => Promise<Response>;

/** The proxy on an `IncomingRequest` whose URL is parsed already (`url` is `new URL(request.url)`). */
export type IncomingHandler = (
  request: IncomingRequest,
  context: ProxyContext | undefined,
  url: URL,
) => Promise<Response>;

/** Each handler `createProxy` made, and the proxy behind it. */
const INCOMING = new WeakMap<ProxyHandler, IncomingHandler>();

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
  const deps = createDeps(options);
  const { log, redact, telemetry } = deps;
  if (options.secret === undefined) {
    log({
      level: 'warn',
      event: 'config',
      message:
        'No secret set: conversations and stream tokens will not survive a restart, nor be shared by several instances.',
    });
  }

  const handle: IncomingHandler = async (request, context, url) => {
    const started = Date.now();
    const ip = clientIp(request, context, options.clientIp);
    const seen = telemetry.request(request, url);
    let response: Response;
    try {
      response = await seen.run(() => gate(deps, { request, url, ip, seen }));
    } catch (error) {
      if (request.signal.aborted) response = refuse('clientGone');
      else if (error instanceof UpstreamTimeout) response = refuse('timeout');
      // SECURITY: fail closed, and in words for the visitor: nothing about the store reaches the page.
      else if (error instanceof StoreError) response = busy();
      else response = refuse('unreachable');
      const message = redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      const event = error instanceof StoreError ? error.store : 'upstream';
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
  const proxy: ProxyHandler = (request, context) => handle(request, context, new URL(request.url));
  INCOMING.set(proxy, handle);
  return proxy;
}

/**
 * The proxy behind a handler `createProxy` made, taking an `IncomingRequest` and its parsed URL, so that a runtime
 * adapter that is not handed fetch Requests need not construct one (see `IncomingRequest`); undefined for any other
 * handler.
 */
export function incomingHandlerOf(handler: ProxyHandler): IncomingHandler | undefined {
  return INCOMING.get(handler);
}

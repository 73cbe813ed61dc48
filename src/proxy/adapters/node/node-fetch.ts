import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { webBody } from './web-body.js';

/**
 * The upstream client for Node: `fetch` on `node:http`, for the calls the proxy makes (a string URL, a string body,
 * `redirect: 'manual'`); any other call goes to `globalThis.fetch`. Its response bodies stay Node streams until
 * someone reads them as web streams, so the Node adapter can relay a reply stream natively: each chunk read from
 * the service's socket is written once to the visitor's, with no web stream, promise or timer per chunk.
 */

/** The Node stream behind each body `nodeFetch` made. */
const SOURCES = new WeakMap<ReadableStream<Uint8Array>, IncomingMessage>();
const AGENTS = { 'http:': new Agent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };
/** Statuses whose responses have no body. */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** The Node stream behind a body made by `nodeFetch`, if it has not been read as a web stream. */
export function nodeSourceOf(body: ReadableStream<Uint8Array>): IncomingMessage | undefined {
  return SOURCES.get(body);
}

/**
 * `fetch` over `node:http`/`node:https` with kept-alive connections. Like fetch with `redirect: 'manual'`, it
 * returns a redirect as it is; it adds no `accept-encoding`, so bodies come uncompressed.
 *
 * @example
 * const proxy = createProxy({ apiKey, botIds, secret, fetch: nodeFetch });
 * http.createServer(toNodeListener(proxy)).listen(8787);
 */
export const nodeFetch: typeof fetch = (input, init = {}) => send(input, init, true);

/** One exchange; `retry` once when a kept-alive connection turns out closed by the service before it answered. */
function send(input: Parameters<typeof fetch>[0], init: RequestInit, retry: boolean): Promise<Response> {
  const url = typeof input === 'string' || input instanceof URL ? new URL(input) : undefined;
  const plain = init.body === undefined || init.body === null || typeof init.body === 'string';
  if (!url || !(url.protocol in AGENTS) || !plain || init.redirect !== 'manual') return globalThis.fetch(input, init);
  const { signal } = init;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const protocol = url.protocol as keyof typeof AGENTS;
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: the agent picks the protocol.
    const open = protocol === 'https:' ? httpsRequest : httpRequest;
    let answered = false;
    // Stryker disable next-line StringLiteral: Node sends an empty method as GET.
    const req = open(url, { method: init.method ?? 'GET', headers, agent: AGENTS[protocol] }, (res) => {
      answered = true;
      res.once('close', () => signal?.removeEventListener('abort', abort));
      const status = res.statusCode ?? 502;
      const out = new Headers();
      for (let i = 0; i < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      // fetch's Response takes no body for these, nor a status outside 200–599 (a service speaking nonsense).
      const empty = NULL_BODY.has(status) || init.method === 'HEAD';
      if (empty || status < 200 || status > 599) res.resume();
      if (status < 200 || status > 599) return reject(new TypeError(`fetch failed: status ${status}`));
      // Stryker disable next-line StringLiteral: Node's client always sets a status message.
      resolve(new Response(empty ? null : toWeb(res), { status, statusText: res.statusMessage ?? '', headers: out }));
    });
    // Stryker disable next-line OptionalChaining,StringLiteral: the call rejects with the signal's reason, not this.
    const abort = () => req.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: the signal is this call's; abort fires once.
    signal?.addEventListener('abort', abort, { once: true });
    // Errors after the response arrived (a connection reset mid-body) reach the body; this only settles the call.
    req.on('error', (error: NodeJS.ErrnoException) => {
      signal?.removeEventListener('abort', abort);
      // The service closed an idle kept-alive connection as it was reused: the request never reached it.
      const stale = req.reusedSocket && !answered && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      if (retry && stale && !signal?.aborted) resolve(send(input, init, false));
      else reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
    });
    req.end(init.body ?? undefined);
  });
}

/**
 * A web stream over `res` that reads nothing until it is read, so that until then the Node stream can be relayed
 * natively instead; once read, it is no longer relayable.
 */
function toWeb(res: IncomingMessage): ReadableStream<Uint8Array> {
  const body = webBody(res, () => SOURCES.delete(body));
  SOURCES.set(body, res);
  return body;
}

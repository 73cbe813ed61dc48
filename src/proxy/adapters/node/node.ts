import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { asFetchRequest } from '../../core/call.js';
import { incomingHandlerOf, type ProxyHandler } from '../../core/proxy.js';
import { connInfo } from './conninfo.js';
import { nodeSourceOf } from './node-fetch.js';
import { readRequest } from './request.js';
import { startDeadlines, takeWatch } from '../../core/upstream.js';

/** Options of `toNodeListener`. */
export interface NodeListenerOptions {
  /** Called when the handler throws; may return the Response to send instead of a bare 500. */
  onError?: (error: unknown) => Response | void | Promise<Response | void>;
}

/**
 * Turns a fetch-standard handler into a `node:http` request listener (also usable as Express/Connect
 * middleware). The Request's signal aborts when the client disconnects, which cancels upstream streams; response
 * bodies are streamed back chunk by chunk with backpressure, never buffered. A reply stream fetched with
 * `nodeFetch` is relayed natively, socket to socket. A malformed or repeated Host is a 400 in the envelope.
 *
 * @example
 * http.createServer(toNodeListener(createProxy({ apiKey, botIds: ['yiu456ytyUjk'], fetch: nodeFetch }))).listen(8787);
 */
export function toNodeListener(handler: ProxyHandler, options: NodeListenerOptions = {}) {
  // A proxy `createProxy` made takes the request as read, without a fetch Request constructed around it.
  const incoming = incomingHandlerOf(handler);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    let response: Response;
    try {
      const read = readRequest(req, controller.signal);
      if (read instanceof Response) response = read;
      else if (incoming) response = await incoming(read.request, connInfo(req), read.url);
      else response = await handler(asFetchRequest(read.request), connInfo(req));
    } catch (error) {
      response =
        (await options.onError?.(error)) ??
        new Response(JSON.stringify({ message: 'Internal error.' }), {
          status: 500,
          headers: { 'content-type': 'application/json' },
        });
    }
    await send(response, res, controller.signal);
  };
}

/**
 * Writes the response: the headers, then each body chunk once, as it arrives, with backpressure. A client that
 * leaves cancels the body, and so the upstream stream behind it.
 */
async function send(response: Response, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const headers: OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    headers[name] = name === 'set-cookie' ? response.headers.getSetCookie() : value;
  });
  const { body, status } = response;
  if (!body) return void res.writeHead(status, headers).end();
  // An event stream's headers go out at once, so the browser sees the stream open before its first event; other
  // bodies go out with their first chunk, in one write.
  if (!response.headers.get('content-type')?.startsWith('text/event-stream'))
    return pump(res, { body, signal }, { status, headers });
  res.writeHead(status, headers).flushHeaders();
  const watch = takeWatch(body, (source) => nodeSourceOf(source) !== undefined);
  if (watch) return relay(nodeSourceOf(watch.source)!, res, watch);
  return pump(res, { body, signal });
}

/**
 * Writes `body` to `res` chunk by chunk with backpressure; with `head` (headers not yet written), a body of one
 * chunk (a JSON answer) goes out with its length instead of chunked: no size line or closing chunk to frame (either
 * way Node's cork hands the headers and the body to the socket in one write).
 */
async function pump(
  res: ServerResponse,
  { body, signal }: { body: ReadableStream<Uint8Array>; signal: AbortSignal },
  head?: { status: number; headers: OutgoingHttpHeaders },
): Promise<void> {
  const reader = body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  // The client may have left while the handler worked: the signal has fired already, and would not again.
  if (signal.aborted) cancel();
  else
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: the signal is this request's; abort fires once.
    signal.addEventListener('abort', cancel, { once: true });
  try {
    let chunk = await reader.read();
    if (head) {
      // One chunk read ahead: a body that ends after it goes out whole.
      const first = chunk;
      chunk = first.done ? first : await reader.read();
      const length = first.value?.byteLength ?? 0;
      if (chunk.done)
        return void res.writeHead(head.status, { ...head.headers, 'content-length': length }).end(first.value);
      res.writeHead(head.status, head.headers);
      if (!res.write(first.value!)) await drained(res);
    }
    for (; !chunk.done && !signal.aborted; chunk = await reader.read()) if (!res.write(chunk.value)) await drained(res);
    res.end();
  } catch {
    // The body broke off (an upstream cut): end the socket abruptly so the client sees an incomplete response.
    // Stryker disable BlockStatement: the finally only tidies: the signal is this request's, and fires once.
    res.destroy();
  } finally {
    // Stryker restore BlockStatement
    // Stryker disable next-line StringLiteral: as above.
    signal.removeEventListener('abort', cancel);
  }
}

/** Resolves when `res` can take more, or has closed; it leaves no listener behind either way. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/**
 * Relays a reply stream from the service's socket to the visitor's, natively: each chunk is written once as it
 * arrives, the source pauses while the visitor's socket is full, and one timer keeps the body's deadlines. A
 * visitor who leaves, a service that breaks off or a deadline that passes ends both sides.
 */
function relay(
  source: IncomingMessage,
  res: ServerResponse,
  watch: NonNullable<ReturnType<typeof takeWatch>>,
): Promise<void> {
  return new Promise((resolve) => {
    // Once the headers are out, a chunked body's frames go straight to the socket, one write each: through the
    // response, a chunk costs a cork, four buffered writes, a tick and a writev (most of the relay's CPU).
    const socket = res.headersSent && res.chunkedEncoding ? res.socket : null;
    const sink = socket ?? res;
    let over = false;
    const finish = (whole: boolean) => {
      if (over) return;
      // Stryker disable BooleanLiteral,StringLiteral: nothing fires after the end; the guard and the off(…) only tidy.
      over = true;
      clock.stop();
      source.off('data', onData).off('end', onEnd).off('close', onClose);
      sink.off('drain', onDrain);
      res.off('close', onClose);
      // Stryker restore BooleanLiteral,StringLiteral
      watch.end();
      if (whole) res.end();
      else {
        // An abrupt end, so the visitor sees an incomplete response, as when a web-stream body errors.
        source.destroy();
        res.destroy();
      }
      resolve();
    };
    const clock = startDeadlines(
      watch.deadlines,
      (what) => {
        watch.onTimeout(what);
        finish(false);
      },
      watch.onFirst,
    );
    const onData = (chunk: Buffer) => {
      clock.chunk();
      if (!(socket ? chunk.length === 0 || socket.write(frame(chunk)) : res.write(chunk))) source.pause();
    };
    const onDrain = () => source.resume();
    const onEnd = () => finish(true);
    const onClose = () => finish(false);
    source.on('data', onData).once('end', onEnd).once('close', onClose);
    sink.on('drain', onDrain);
    // Stryker disable next-line StringLiteral: an aborted request cuts the service, whose end then ends the relay.
    res.once('close', onClose);
    if (res.destroyed) finish(false);
  });
}

/** The line end of chunked framing. */
const CRLF = Uint8Array.of(13, 10);

/** `chunk` as one frame of a chunked body (RFC 9112 §7.1): its size in hex, CRLF, the bytes, CRLF. */
function frame(chunk: Buffer): Buffer {
  const size = chunk.length.toString(16);
  const out = Buffer.allocUnsafe(size.length + chunk.length + 4);
  // Byte by byte and with `set`, which the JIT inlines, rather than calls into C++ for a few bytes.
  for (let i = 0; i < size.length; i++) out[i] = size.charCodeAt(i);
  out.set(CRLF, size.length);
  out.set(chunk, size.length + 2);
  out.set(CRLF, out.length - 2);
  return out;
}

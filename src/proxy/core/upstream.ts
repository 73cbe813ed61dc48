/**
 * Calls to the service with bounds: a deadline for the response headers, a byte cap on JSON answers, and a watch
 * over every body so a service that goes silent, or a stream that never ends, cannot hold a connection (and a
 * visitor) for ever.
 */

import { refuse } from './respond.js';
import { SERVICE } from '../../protocol/contract.js';

/** Thrown when the service does not answer within its deadline. */
export class UpstreamTimeout extends Error {
  override readonly name = 'UpstreamTimeout';
}

/** The largest JSON answer read from the service: its largest answer, a page of messages, is far below it. */
export const MAX_JSON_BYTES = SERVICE.jsonMaxBytes;

/** One bounded call: what to fetch, and the bounds it must keep. */
export interface BoundedFetch {
  fetch: typeof fetch;
  url: string;
  init: RequestInit;
  /** The deadline for the response headers, and for a JSON body read whole, in milliseconds. */
  ms: number;
  /** The visitor's request signal: when the visitor leaves, the call is given up. */
  signal?: AbortSignal | undefined;
  /** The largest JSON answer read (default `MAX_JSON_BYTES`). */
  maxJsonBytes?: number;
}

/**
 * `fetch` that gives up when the response headers take longer than `ms`, or when `signal` (the visitor) aborts.
 * A JSON answer is read whole within the same deadline, and at most `maxJsonBytes` of it: past that it becomes a
 * 502 in the service's envelope, having buffered no more than the cap. Any other body (a reply stream) is returned
 * unread; a visitor who leaves then cancels it, which cancels the upstream stream.
 */
export async function fetchWithin(call: BoundedFetch): Promise<Response> {
  const { fetch: doFetch, url, init, ms, signal, maxJsonBytes = MAX_JSON_BYTES } = call;
  const controller = new AbortController();
  // Stryker disable next-line OptionalChaining: forward runs only once signal has aborted, so signal is there.
  const forward = () => controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  // No `once`: the listener goes in `finally` below, and a signal aborts only once.
  signal?.addEventListener('abort', forward);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ms);
  try {
    const response = await doFetch(url, { ...init, signal: controller.signal });
    return response.headers.get('content-type')?.includes('json') ? await readCapped(response, maxJsonBytes) : response;
  } catch (error) {
    if (timedOut) throw new UpstreamTimeout(`no answer within ${ms} ms`);
    // SECURITY: a stream URL is a capability; an error that quotes it must not carry it into a log line.
    if (error instanceof Error && error.message.includes(url))
      throw Object.assign(new Error(error.message.split(url).join('[upstream URL]')), { name: error.name });
    throw error;
  } finally {
    clearTimeout(timer);
    // Past this point the body, if any, is cancelled by whoever reads it: a listener left here would pile up on a
    // signal shared by every call of the request.
    signal?.removeEventListener('abort', forward);
  }
}

/** `response` with its body read into memory, if it is at most `max` bytes (declared or counted); else a 502. */
async function readCapped(response: Response, max: number): Promise<Response> {
  if (!response.body) return response;
  if (Number(response.headers.get('content-length') ?? 0) > max) {
    await response.body.cancel();
    return refuse('unexpectedAnswer');
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > max) {
      await reader.cancel();
      return refuse('unexpectedAnswer');
    }
    chunks.push(chunk.value);
  }
  const body = new Uint8Array(size);
  chunks.reduce((at, chunk) => (body.set(chunk, at), at + chunk.byteLength), 0);
  const { status, statusText, headers } = response;
  return new Response(body, { status, statusText, headers });
}

/** Deadlines for a body: the first chunk, each later chunk, and the whole body. */
export interface BodyDeadlines {
  firstMs: number;
  idleMs: number;
  totalMs: number;
}

/** What a watched body exposes: the callbacks run when it ends, and how a native relay takes its watch over. */
interface Watch {
  ends: (() => void)[];
  source: ReadableStream<Uint8Array>;
  deadlines: BodyDeadlines;
  onTimeout: (what: string) => void;
  /** Told when the first chunk arrives. */
  onFirst: (() => void) | undefined;
  /** Stops this watch (its timer and its reads) without ending the body: another relay now keeps the deadlines. */
  detach(): void;
  /** Ends the body, running `ends`. */
  end(): void;
}
const WATCHES = new WeakMap<ReadableStream<Uint8Array>, Watch>();

/**
 * Runs `fn` once when `body`, made by `watchBody`, ends: read to its end, broken, timed out or cancelled. False when
 * `body` is not such a body (so the caller must watch it some other way).
 */
export function onBodyEnd(body: ReadableStream<Uint8Array>, fn: () => void): boolean {
  const watch = WATCHES.get(body);
  watch?.ends.push(fn);
  return watch !== undefined;
}

/**
 * For a runtime adapter that relays a watched body natively (without reading it as a web stream): the body's
 * source, deadlines and timeout report, with its own watch stopped; `end` must be called when the relay ends.
 * Undefined for any other body, one already being read, or one whose source `relayable` turns down.
 */
export function takeWatch(
  body: ReadableStream<Uint8Array>,
  relayable: (source: ReadableStream<Uint8Array>) => boolean,
): Pick<Watch, 'source' | 'deadlines' | 'onTimeout' | 'onFirst' | 'end'> | undefined {
  const watch = WATCHES.get(body);
  if (!watch || body.locked || !relayable(watch.source)) return undefined;
  WATCHES.delete(body);
  watch.detach();
  return watch;
}

/** A running set of body deadlines: `chunk()` on every chunk, `stop()` once the body ends. */
interface Deadlines {
  chunk(): void;
  stop(): void;
}

/**
 * Starts the deadlines of a body, calling `expire` with what passed. One timer serves all three: a chunk only notes
 * the time, and the timer, when it fires, sleeps again for whatever the last chunk left (the first chunk re-arms
 * it, as the idle deadline may come sooner than the first-byte one). A stream of thousands of chunks thus sets a
 * timer about once per idle period, not once per chunk. `onFirst` hears of the first chunk.
 */
export function startDeadlines(
  deadlines: BodyDeadlines,
  expire: (what: string) => void,
  onFirst?: () => void,
): Deadlines {
  const started = Date.now();
  let last = started;
  let first = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    const now = Date.now();
    const total = started + deadlines.totalMs - now;
    const idle = last + (first ? deadlines.firstMs : deadlines.idleMs) - now;
    if (total > 0 && idle > 0) timer = setTimeout(check, Math.min(total, idle));
    else
      expire(
        total <= 0
          ? 'the stream reached its maximum duration'
          : first
            ? 'no first byte in time'
            : 'the stream went silent',
      );
  };
  timer = setTimeout(check, Math.min(deadlines.firstMs, deadlines.totalMs));
  return {
    chunk() {
      last = Date.now();
      if (!first) return;
      first = false;
      clearTimeout(timer);
      check();
      onFirst?.();
    },
    stop: () => clearTimeout(timer),
  };
}

/** Who hears of a watched body: `onTimeout` of a deadline that passed, and `onFirst` of the first chunk. */
export interface BodyHooks {
  onTimeout: (what: string) => void;
  onFirst?: (() => void) | undefined;
}

/**
 * Hands `body` on chunk by chunk as it arrives (no buffering: it reads only when its reader asks), and errors it —
 * which the runtime turns into a cut connection — when a deadline passes. `onTimeout` hears about it, and `onFirst`
 * of the first chunk.
 */
export function watchBody(
  body: ReadableStream<Uint8Array>,
  deadlines: BodyDeadlines,
  { onTimeout, onFirst }: BodyHooks,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const ends: (() => void)[] = [];
  let over = false;
  let output: ReadableStreamDefaultController<Uint8Array>;
  const finish = () => {
    over = true;
    clock.stop();
    for (const end of ends.splice(0)) end();
  };
  const clock = startDeadlines(
    deadlines,
    (what) => {
      finish();
      onTimeout(what);
      void reader.cancel().catch(() => undefined);
      output.error(new UpstreamTimeout(what));
    },
    onFirst,
  );
  const pass = (result: ReadableStreamReadResult<Uint8Array>) => {
    if (over) return;
    if (result.done) {
      finish();
      output.close();
    } else {
      clock.chunk();
      output.enqueue(result.value);
    }
  };
  const broke = (error: unknown) => {
    if (over) return;
    finish();
    output.error(error);
  };
  const watched = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        output = controller;
      },
      pull: () => reader.read().then(pass, broke),
      cancel(reason) {
        finish();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const detach = () => {
    over = true;
    clock.stop();
    reader.releaseLock();
  };
  WATCHES.set(watched, { ends, source: body, deadlines, onTimeout, onFirst, detach, end: finish });
  return watched;
}

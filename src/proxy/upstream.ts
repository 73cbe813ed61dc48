/**
 * Calls to the service with timeouts: a deadline for the response headers, and a watch over every body so a
 * service that goes silent, or a stream that never ends, cannot hold a connection (and a visitor) for ever.
 */

/** Thrown when the service does not answer within its deadline. */
export class UpstreamTimeout extends Error {
  override readonly name = 'UpstreamTimeout';
}

/**
 * `fetch` that gives up when the response headers take longer than `ms`, or when `signal` (the visitor) aborts.
 * The returned body stays tied to `signal`, so a visitor who leaves cancels the upstream stream.
 */
export async function fetchWithin(
  doFetch: typeof fetch,
  url: string,
  init: RequestInit,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<Response> {
  const controller = new AbortController();
  const forward = () => controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  signal?.addEventListener('abort', forward, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ms);
  try {
    return await doFetch(url, { ...init, signal: controller.signal });
  } catch (error) {
    if (timedOut) throw new UpstreamTimeout(`no answer within ${ms} ms`);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Deadlines for a body: the first chunk, each later chunk, and the whole body. */
export interface BodyDeadlines {
  firstMs: number;
  idleMs: number;
  totalMs: number;
}

/**
 * Hands `body` on chunk by chunk (no buffering: it reads only when its reader asks), and errors it — which the
 * runtime turns into a cut connection — when a deadline passes. `onTimeout` hears about it.
 */
export function watchBody(
  body: ReadableStream<Uint8Array>,
  deadlines: BodyDeadlines,
  onTimeout: (what: string) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const started = Date.now();
  let first = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const left = deadlines.totalMs - (Date.now() - started);
        const wait = Math.max(0, Math.min(first ? deadlines.firstMs : deadlines.idleMs, left));
        let timer: ReturnType<typeof setTimeout> | undefined;
        const deadline = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), wait);
        });
        const result = await Promise.race([reader.read(), deadline]).finally(() => clearTimeout(timer));
        if (result === 'timeout') {
          const what =
            wait === left
              ? 'the stream reached its maximum duration'
              : first
                ? 'no first byte in time'
                : 'the stream went silent';
          onTimeout(what);
          void reader.cancel().catch(() => undefined);
          controller.error(new UpstreamTimeout(what));
        } else if (result.done) {
          controller.close();
        } else {
          first = false;
          controller.enqueue(result.value);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/**
 * A cap on the reply streams one process relays at once: past it, a new stream is refused at once with a 503 the
 * widget retries, rather than slowing every stream and call the process serves.
 */
import { busy } from './respond.js';
import { onBodyEnd } from './upstream.js';

/** Runs a stream route under the cap: its answer, or a 503 when `max` streams are open already. */
export type StreamCap = (open: () => Promise<Response>) => Promise<Response>;

/**
 * A cap of `max` concurrent reply streams (none when undefined). A stream counts from its request until its body
 * ends (read to the end, cut, timed out, or cancelled by a visitor who left); any other answer frees its place at once.
 *
 * @example
 * const cap = createStreamCap(1000);
 * const response = await cap(() => stream(call, token));
 */
export function createStreamCap(max: number | undefined): StreamCap {
  let open = 0;
  return async (run) => {
    if (max !== undefined && open >= max) return busy();
    open++;
    let held = true;
    const release = () => {
      if (held) open--;
      held = false;
    };
    let response: Response;
    try {
      response = await run();
    } catch (error) {
      release();
      throw error;
    }
    const body = response.body;
    if (!body || !response.headers.get('content-type')?.startsWith('text/event-stream')) release();
    else if (!onBodyEnd(body, release)) return new Response(tracked(body, release), response);
    return response;
  };
}

/** `body`, calling `end` once it ends; for a body `watchBody` did not make (the handler always uses it). */
function tracked(body: ReadableStream<Uint8Array>, end: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const chunk = await reader.read();
          if (chunk.done) {
            end();
            controller.close();
          } else controller.enqueue(chunk.value);
        } catch (error) {
          end();
          controller.error(error);
        }
      },
      cancel(reason) {
        end();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

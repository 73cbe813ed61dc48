import { createParser } from 'eventsource-parser';
import { ChatError } from './errors.js';
import { parseChunk } from './parse.js';
import type { StreamEvent } from './types.js';

/** How long a reply stream may stay silent before it counts as stalled. */
const STREAM_IDLE_TIMEOUT_MS = 45_000;

/**
 * Decodes a Cody reply stream (`data: [START]`, `data: {"chunk": "…"}`…, `data: [END]`) into events.
 * Multibyte characters split across reads are left to TextDecoderStream, the framing (CR/LF/CRLF line ends, `data`
 * lines joined, comments and other fields ignored) to eventsource-parser. The iterator ends after `[END]`; a stream
 * that closes before it, carries an undecodable event or stays silent past `idleMs` throws a `ChatError('stream')`.
 */
export async function* readReplyStream(
  body: ReadableStream<Uint8Array>,
  idleMs: number = STREAM_IDLE_TIMEOUT_MS,
  signal?: AbortSignal,
): AsyncGenerator<StreamEvent> {
  const reader = body
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .getReader();
  const received: string[] = [];
  // The parser is fed from this loop rather than piped as a stream, so that every read keeps its own idle timeout.
  const parser = createParser({ onEvent: ({ data }) => void received.push(data) });
  try {
    for (;;) {
      // Checked here as well as by fetch: a polyfilled fetch may not tie the body to the signal.
      if (signal?.aborted) throw new ChatError('aborted', 'Aborted');
      const { done, value } = await readWithin(reader, idleMs, signal);
      // At EOF, a blank line dispatches the last event: a server that closes right after `data: [END]` (no blank
      // line), or ends on a lone CR, would otherwise leave it undispatched and the reply would count as cut.
      parser.feed(done ? '\n\n' : value);
      for (const data of received.splice(0)) {
        const event = decode(data);
        if (!event) continue;
        yield event;
        if (event.type === 'end') return;
      }
      if (done) throw new ChatError('stream', 'The reply stream ended before [END]');
    }
  } finally {
    // Releases the connection on every exit: [END], an error, or the consumer breaking out early.
    reader.cancel().catch(() => undefined);
  }
}

/** Returns null for a JSON event without a `chunk` string: the service may add keys, and they are not ours to fail on. */
function decode(data: string): StreamEvent | null {
  const trimmed = data.trim();
  if (trimmed === '[START]') return { type: 'start' };
  if (trimmed === '[END]') return { type: 'end' };
  try {
    const chunk = parseChunk(JSON.parse(data));
    return chunk === undefined ? null : { type: 'chunk', text: chunk };
  } catch (error) {
    throw new ChatError('stream', 'Undecodable stream event', { cause: error });
  }
}

/** One read, failing when the stream stays silent for `ms` or `signal` aborts. */
function readWithin<T>(
  reader: ReadableStreamDefaultReader<T>,
  ms: number,
  signal?: AbortSignal,
): Promise<ReadableStreamReadResult<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const interrupted = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChatError('stream', `No data for ${ms} ms`)), ms);
    onAbort = () => reject(new ChatError('aborted', 'Aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([reader.read(), interrupted]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  });
}

import { ChatError } from './errors.js';
import { parseChunk } from './parse.js';
import type { StreamEvent } from './types.js';

/** How long a reply stream may stay silent before it counts as stalled. */
const STREAM_IDLE_TIMEOUT_MS = 45_000;

/**
 * Decodes a Cody reply stream (`data: [START]`, `data: {"chunk": "…"}`…, `data: [END]`) into events.
 * Multibyte characters split across reads are left to TextDecoderStream, the framing to `createDataParser`. The iterator ends after `[END]`; a stream that closes before it,
 * carries an undecodable event or stays silent past `idleMs` throws a `ChatError('stream')`.
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
  const feed = createDataParser((data) => received.push(data));
  try {
    for (;;) {
      // Checked here as well as by fetch: a polyfilled fetch may not tie the body to the signal.
      if (signal?.aborted) throw new ChatError('aborted', 'Aborted');
      const { done, value } = await readWithin(reader, idleMs, signal);
      // At EOF, a blank line dispatches the last event: a server that closes right after `data: [END]` (no blank
      // line), or ends on a lone CR, would otherwise leave it undispatched and the reply would count as cut.
      feed(done ? '\n\n' : value);
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

/** A line ending: CRLF, LF, or a CR not at the end of the text read so far (the first half of a CRLF, maybe). */
const LINE_END = /\r\n|\n|\r(?!$)/;

/**
 * Calls `onData` with the data of each event of a `text/event-stream` fed to it in pieces of any size, by the HTML
 * spec's parsing rules for the one field Cody's stream uses (TextDecoderStream has already dropped a byte-order
 * mark):
 * - lines end at CRLF, LF or CR; a piece ending in CR waits for the next, which may start with the LF;
 * - `data` lines (one space after the colon dropped) join with LF into the event dispatched at the next blank line,
 *   if it has any; comments and the other fields (event, id, retry) are ignored.
 *
 * It stands in for eventsource-parser, whose general parser (named events, ids, retry, errors) cost the widget's
 * bundle 1.1 KB gzipped for what these lines do.
 */
export function createDataParser(onData: (data: string) => void): (text: string) => void {
  let pending = '';
  let data: string[] = [];
  return (text) => {
    const lines = (pending + text).split(LINE_END);
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line) {
        if (data.length > 0) onData(data.join('\n'));
        data = [];
      }
      const colon = line.indexOf(':');
      if ((colon < 0 ? line : line.slice(0, colon)) === 'data')
        data.push(colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1)));
    }
  };
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

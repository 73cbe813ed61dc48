// Many concurrent reply streams on one proxy process, against the same load straight at the simulator: the proxy's
// CPU per relayed event, the latency of the calls made meanwhile, and how much longer streams run through it.
// Clients use node:http (keep-alive, no fetch), so that the load generator costs as little as it can.
import { Agent, request, type IncomingMessage } from 'node:http';
import { DEMO_BOT_ID } from '../../demo/simulator/index';

/** The reply each stream carries: 250 small chunks, one every `CHUNK_DELAY_MS` (about 16 s in all). */
const STREAM_CHUNKS = 250;
const CHUNK_DELAY_MS = 64;
/** The simulator's scenario reply for the load: matched by the message `load`. */
export const LOAD_REPLY = { match: 'load', text: 'word '.repeat(STREAM_CHUNKS), chunkSize: 5, delayMs: CHUNK_DELAY_MS };
/** `[START]`, the chunks, `[END]`. */
const EVENTS_PER_STREAM = STREAM_CHUNKS + 2;
/** Streams are started over this long, as visitors arrive, not in one instant. */
export const RAMP_MS = 1000;
/** A create-conversation call and a JSON call each this often while the streams run. */
const PROBE_EVERY_MS = 40;

const PROBE_CONVERSATION = JSON.stringify({ name: 'probe', bot_id: DEMO_BOT_ID });
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
}

/** What every stream read so far has received: its events, the streams that began and the streams that ended. */
const tally = { events: 0, began: 0, ended: 0 };

/** A copy of the running tally of every stream read: events received, streams begun (first event) and ended. */
export const streamTally = () => ({ ...tally });

/** One HTTP exchange, its whole body read; with `events`, each reply event counted as it arrives. */
function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; events?: boolean } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        // From a little before the chunk, so an event's `data:` split between two chunks counts once.
        const from = Math.max(0, text.length - 4);
        if (init.events && text === '') tally.began++;
        text += chunk;
        if (init.events)
          for (let at = text.indexOf('data:', from); at >= 0; at = text.indexOf('data:', at + 5)) tally.events++;
      });
      res.on('end', () => {
        if (init.events) tally.ended++;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** How one side is spoken to: the proxy, or the simulator with the key. */
export interface Side {
  /** The API base: `{proxy}/askbox` or `{simulator}/api/v1`. */
  base: string;
  headers: Record<string, string>;
  /** The conversation streams are asked in, and one with a single message for the JSON calls. */
  conversationId: string;
  listPath: string;
  /** The headers of the JSON calls (through the proxy, the listed conversation's grant). */
  listHeaders: Record<string, string>;
  /** The headers of the GET for the stream URL. */
  streamHeaders: Record<string, string>;
}

/**
 * Starts a reply (to `content`: by default the load's long one) and reads it to the end: its duration and whether
 * it arrived whole.
 */
export async function oneStream(side: Side, content = 'load'): Promise<{ ms: number; whole: boolean; status: number }> {
  const started = performance.now();
  const asked = await call(`${side.base}/messages/stream`, {
    method: 'POST',
    headers: side.headers,
    body: JSON.stringify({ content, conversation_id: side.conversationId, redirect: false }),
  });
  const location =
    asked.status === 302
      ? new URL(asked.headers.location ?? '', side.base).href
      : (JSON.parse(asked.text) as { data?: { stream_url?: string } }).data?.stream_url;
  if (!location) return { ms: performance.now() - started, whole: false, status: asked.status };
  const streamed = await call(location, { headers: side.streamHeaders, events: true });
  const whole = streamed.status === 200 && streamed.text.trimEnd().endsWith('data: [END]');
  return { ms: performance.now() - started, whole, status: streamed.status };
}

/** A call's latency, and when it was made (ms since the load began). */
export interface Sample {
  at: number;
  ms: number;
}

/** Calls made while the streams run, every `PROBE_EVERY_MS`: their latencies. */
function probe(side: Side, began: number, until: Promise<unknown>) {
  const create: Sample[] = [];
  const list: Sample[] = [];
  const failures: string[] = [];
  const timed = async (into: Sample[], run: () => Promise<Answer>) => {
    const started = performance.now();
    const answer = await run().catch((error: Error) => ({ status: 0, text: error.message }) as Answer);
    if (answer.status >= 300) failures.push(`${answer.status} ${answer.text.slice(0, 80)}`);
    else into.push({ at: started - began, ms: performance.now() - started });
  };
  const pending: Promise<void>[] = [];
  const timer = setInterval(() => {
    pending.push(
      timed(create, () =>
        call(`${side.base}/conversations`, { method: 'POST', headers: side.headers, body: PROBE_CONVERSATION }),
      ),
      timed(list, () => call(`${side.base}${side.listPath}`, { headers: side.listHeaders })),
    );
  }, PROBE_EVERY_MS);
  return until.then(async () => {
    clearInterval(timer);
    await Promise.all(pending);
    return { create, list, failures };
  });
}

/** What a run of `count` concurrent streams measured. */
export interface LoadResult {
  streams: { ms: number; whole: boolean; status: number }[];
  create: Sample[];
  list: Sample[];
  failures: string[];
  wallMs: number;
}

/**
 * `total` streams, the `i`th started `i * gapMs` after the first, with calls probed meanwhile; resolves when every
 * stream has ended.
 */
async function startEvery(side: Side, total: number, gapMs: number): Promise<LoadResult> {
  const started = performance.now();
  const all = Promise.all(
    Array.from({ length: total }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * gapMs));
      return oneStream(side).catch(() => ({ ms: NaN, whole: false, status: 0 }));
    }),
  );
  const probes = await probe(side, started, all);
  return { streams: await all, ...probes, wallMs: performance.now() - started };
}

/** A crowd: `count` streams started over `RAMP_MS`, as if every visitor asked within the same second. */
export const streamLoad = (side: Side, count: number) => startEvery(side, count, RAMP_MS / count);

/**
 * The steady state of `count` concurrent streams: visitors arrive at the rate that keeps `count` streams open
 * (Little's law: `count` per stream length, 62.5 a second for 1,000 streams of 16 s), for two stream lengths. From
 * `STEADY_WINDOW[0]` to `STEADY_WINDOW[1]` ms, `count` streams are open while new ones start and old ones end.
 */
export const steadyLoad = (side: Side, count: number) => startEvery(side, 2 * count, IDEAL_STREAM_MS / count);

/** The samples taken while every stream was open: after the ramp (and a second), before the first could end. */
export const whileAllOpen = (samples: Sample[]) =>
  samples.filter((sample) => sample.at > RAMP_MS + 1000 && sample.at < IDEAL_STREAM_MS - 1000).map((s) => s.ms);

/** The events relayed by the streams that arrived whole. */
export const eventsOf = (result: LoadResult) => result.streams.filter((s) => s.whole).length * EVENTS_PER_STREAM;

/** The ideal length of one stream: its chunks' delays. */
export const IDEAL_STREAM_MS = (STREAM_CHUNKS + 1) * CHUNK_DELAY_MS;

/**
 * When `steadyLoad`'s steady state holds (ms since it began): once the first streams have ended (a stream runs a
 * little longer than its chunks' delays) until the last arrival.
 */
export const STEADY_WINDOW = [IDEAL_STREAM_MS + 2000, 2 * IDEAL_STREAM_MS] as const;

/** The latencies of the samples taken in the steady state's window. */
export const inSteadyState = (samples: Sample[]) =>
  samples.filter((sample) => sample.at >= STEADY_WINDOW[0] && sample.at < STEADY_WINDOW[1]).map((s) => s.ms);

/** Closes the kept-alive sockets so the process can exit. */
export function closeClients(): void {
  agent.destroy();
}

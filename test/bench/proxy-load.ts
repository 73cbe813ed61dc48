// The proxy's cost, measured on loopback (`npm run bench`): what it adds to a JSON request and to a stream's first
// chunk over calling the simulator directly, its throughput, its memory per open stream, and how it relays 1,000
// concurrent reply streams (its CPU per event, the latency of calls meanwhile, the streams' length) next to the same
// load straight at the simulator and through the floor, a reverse proxy on node:http with no policy (what Node itself
// costs to relay the same bytes). The simulator, the proxy and the floor each run in their own process, so their CPU
// and memory are measured apart from the load generator; every run is bounded in time or count and everything stops by itself.
// `--streams` runs the concurrent-stream part alone; `STREAMS=n` changes its count; `BENCH_FETCH=global` runs the
// proxy on the runtime's fetch instead of `nodeFetch`; `BENCH_SEAL=web` seals its stream tokens with Web Crypto
// instead of `nodeAesGcm`; `--seal` measures sealing and opening one token with each, alone, in this process;
// `--setup` measures a stream's set-up alone (the relay's CPU per short stream: the proxy's against the floor's, and
// against the fetch-standard floor's, the same relay on the Node adapter; `BENCH_VS=<dir>` adds the proxy of another
// checkout, such as main's, to the same rounds); `BENCH_PROF=proxy` (or `floor`, `fetch-floor`) writes its CPU
// profile to $TMPDIR/askbox-profiles.
import { fork } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { concurrentStreams, cpuMs, type Server } from './proxy-report';
import { sealCosts } from './proxy-seal';
import { setupCosts } from './proxy-setup';

const KEY = 'bench-api-key';
const SECONDS = 4;
const STREAM_SAMPLES = 150;
const JSON_SAMPLES = 1000;
const OPEN_STREAMS = 1000;
/** The whole benchmark's bound: past it, it gives up rather than hang. */
const GIVE_UP_MS = 10 * 60_000;

/** Starts `serve.ts` with `args`: this checkout's, or that of the checkout at `from`. */
function startFrom(from: string | undefined, ...args: string[]): Promise<Server> {
  const serve = from ? `${from}/test/bench/serve.ts` : fileURLToPath(new URL('./serve.ts', import.meta.url));
  const child = fork(serve, args, {
    execArgv: [
      '--import',
      'tsx',
      '--expose-gc',
      ...(process.env.BENCH_PROF === args[0] ? ['--cpu-prof', `--cpu-prof-dir=${tmpdir()}/askbox-profiles`] : []),
    ],
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', (message) =>
      resolve({ process: child, url: `http://127.0.0.1:${(message as { port: number }).port}` }),
    );
  });
}
const start = (...args: string[]) => startFrom(undefined, ...args);

function memory(child: Server): Promise<NodeJS.MemoryUsage> {
  return new Promise((resolve) => {
    child.process.once('message', (message) => resolve((message as { memory: NodeJS.MemoryUsage }).memory));
    child.process.send('memory');
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const p99 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))] ?? NaN;
const ms = (value: number) => `${value.toFixed(2)} ms`;
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** Throughput under load, with autocannon (whose latencies are whole milliseconds). */
async function load(url: string, headers: Record<string, string>, connections: number) {
  const result = await autocannon({ url, headers, connections, duration: SECONDS });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
  };
}

/** Latency of one request at a time, to the microsecond: `samples` sequential requests after a warm-up. */
async function latency(url: string, headers: Record<string, string>): Promise<number[]> {
  const times: number[] = [];
  for (let i = -100; i < JSON_SAMPLES; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    if (i >= 0) times.push(performance.now() - started);
  }
  return times;
}

/** Milliseconds from sending a message to the first bytes of its reply stream, over `samples` sequential asks. */
async function firstChunk(post: () => Promise<Response>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < STREAM_SAMPLES; i++) {
    const started = performance.now();
    const response = await post();
    const reader = response.body!.getReader();
    await reader.read();
    times.push(performance.now() - started);
    await reader.cancel();
  }
  return times;
}

if (process.argv.includes('--seal')) {
  await sealCosts();
  process.exit(0);
}
const simulator = await start('simulator', KEY);
const proxy = await start('proxy', KEY, `${simulator.url}/api/v1`);
const floor = await start('floor', KEY, simulator.url);
// The same relay as the floor, through the Node adapter: what the fetch-standard design costs before any rule.
const fetchFloor = await start('fetch-floor', KEY, simulator.url);
const giveUp = setTimeout(() => {
  console.error(`gave up after ${GIVE_UP_MS / 1000} s`);
  process.exit(1);
}, GIVE_UP_MS);
try {
  if (process.argv.includes('--setup')) {
    // A second proxy that seals with Web Crypto, measured in the same rounds: what node:crypto's sealing saves.
    const proxyWeb = await start('proxy-web', KEY, `${simulator.url}/api/v1`);
    // `BENCH_VS=<another checkout>`: its proxy too, in the same rounds (a change against the build before it).
    const vs = process.env.BENCH_VS;
    const before = vs ? { dir: vs, ...(await startFrom(vs, 'proxy', KEY, `${simulator.url}/api/v1`)) } : undefined;
    await setupCosts({ simulator, proxy, floor, fetchFloor, proxyWeb, before }, KEY);
    proxyWeb.process.kill();
    before?.process.kill();
    process.exit(0);
  }
  if (process.argv.includes('--streams')) {
    await concurrentStreams({ simulator, proxy, floor }, KEY);
    process.exit(0);
  }
  const json = { 'content-type': 'application/json' };
  const created = await fetch(`${proxy.url}/askbox/conversations`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name: 'bench', bot_id: DEMO_BOT_ID }),
  });
  const { data, meta } = (await created.json()) as { data: { id: string }; meta: { grant: string } };
  const viaProxy = { ...json, 'x-askbox-grant': meta.grant };
  const direct = { ...json, authorization: `Bearer ${KEY}` };
  await fetch(`${proxy.url}/askbox/messages`, {
    method: 'POST',
    headers: viaProxy,
    body: JSON.stringify({ content: 'shipping?', conversation_id: data.id }),
  });

  const list = `/messages?conversation_id=${data.id}&includes=sources`;
  const jsonDirect = await latency(`${simulator.url}/api/v1${list}`, direct);
  const jsonProxy = await latency(`${proxy.url}/askbox${list}`, viaProxy);
  const busyDirect = await load(`${simulator.url}/api/v1${list}`, direct, 10);
  const proxyCpu = await cpuMs(proxy.process);
  const busyProxy = await load(`${proxy.url}/askbox${list}`, viaProxy, 10);
  // The proxy's own CPU per request under load: what its per-request work (and its telemetry) costs.
  const cpuPerRequest = (((await cpuMs(proxy.process)) - proxyCpu) * 1000) / busyProxy.requests;

  const ask = (base: string, headers: Record<string, string>) => () =>
    fetch(`${base}/messages/stream`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content: 'returns?', conversation_id: data.id }),
    });
  const streamDirect = await firstChunk(ask(`${simulator.url}/api/v1`, direct));
  const streamProxy = await firstChunk(ask(`${proxy.url}/askbox`, viaProxy));

  const before = await memory(proxy);
  const held = await Promise.all(
    Array.from({ length: OPEN_STREAMS }, async () => {
      const response = await fetch(`${proxy.url}/askbox/messages/stream`, {
        method: 'POST',
        headers: viaProxy,
        body: JSON.stringify({ content: 'hold', conversation_id: data.id }),
      });
      const reader = response.body!.getReader();
      await reader.read();
      return reader;
    }),
  );
  const during = await memory(proxy);
  await Promise.all(held.map((reader) => reader.cancel()));
  const perStream = (during.rss - before.rss) / OPEN_STREAMS;
  const heapPerStream = (during.heapUsed + during.external - before.heapUsed - before.external) / OPEN_STREAMS;

  const addedJson = median(jsonProxy) - median(jsonDirect);
  const addedFirst = median(streamProxy) - median(streamDirect);
  const rows = [
    [
      'JSON GET, one at a time',
      `${ms(median(jsonDirect))} / ${ms(p99(jsonDirect))}`,
      `${ms(median(jsonProxy))} / ${ms(p99(jsonProxy))}`,
      `${JSON_SAMPLES} requests`,
    ],
    [
      'JSON GET, 10 connections (autocannon)',
      `${ms(busyDirect.p50)} / ${ms(busyDirect.p99)}`,
      `${ms(busyProxy.p50)} / ${ms(busyProxy.p99)}`,
      `${busyDirect.rps.toFixed(0)} → ${busyProxy.rps.toFixed(0)} req/s`,
    ],
    [
      'stream, time to first chunk',
      `${ms(median(streamDirect))} / ${ms(p99(streamDirect))}`,
      `${ms(median(streamProxy))} / ${ms(p99(streamProxy))}`,
      `${STREAM_SAMPLES} asks`,
    ],
  ];
  console.log(`\nProxy load benchmark (loopback, bot ${DEMO_BOT_ID}; p50 / p99)`);
  console.table(
    rows.map(([what, directly, proxied, note]) => ({ what, directly, 'through the proxy': proxied, note })),
  );
  console.log(`added median per JSON request: ${ms(addedJson)} (target ≤ 1 ms: ${verdict(addedJson <= 1)})`);
  console.log(`proxy CPU per JSON request under load: ${cpuPerRequest.toFixed(1)} µs`);
  console.log(`added median to the first chunk: ${ms(addedFirst)} (target ≤ 5 ms: ${verdict(addedFirst <= 5)})`);
  console.log(
    `memory per open stream, ${OPEN_STREAMS} held: ${(perStream / 1024).toFixed(1)} KB RSS, ${(heapPerStream / 1024).toFixed(1)} KB heap (target ≤ 200 KB: ${verdict(perStream <= 200 * 1024)})`,
  );
  await setupCosts({ simulator, proxy, floor, fetchFloor }, KEY);
  await concurrentStreams({ simulator, proxy, floor }, KEY);
} finally {
  clearTimeout(giveUp);
  floor.process.kill();
  fetchFloor.process.kill();
  proxy.process.kill();
  simulator.process.kill();
}

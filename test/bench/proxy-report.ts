// The concurrent-stream part of the proxy load benchmark (see proxy-load.ts): the same load straight at the
// simulator, then through the proxy, then through the floor (Node relaying the same bytes with no policy, see
// floor-relay.ts), and the figures side by side with the goals.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import {
  closeClients,
  eventsOf,
  IDEAL_STREAM_MS,
  inSteadyState,
  STEADY_WINDOW,
  steadyLoad,
  streamLoad,
  streamTally,
  RAMP_MS,
  whileAllOpen,
  type LoadResult,
  type Sample,
  type Side,
} from './proxy-streams';

/** Asks a child for something over IPC: `cpu` (process.cpuUsage) or `memory` (after a full GC). */
function ask<T>(child: ChildProcess, what: 'cpu' | 'memory'): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve((message as Record<string, T>)[what]!));
    child.send(what);
  });
}
/** A child's CPU time so far (user and kernel), in milliseconds. */
export const cpuMs = async (child: ChildProcess) => {
  const { user, system } = await ask<NodeJS.CpuUsage>(child, 'cpu');
  return (user + system) / 1000;
};

/**
 * The kernel's counts of connections dropped because a listen queue was full, and of SYNs sent again (Linux,
 * machine-wide; NaN elsewhere). A dropped connection is tried again after 1 s, then 3 s more: calls that take whole
 * seconds while streams open.
 */
function listenDrops(): [overflows: number, synRetransmits: number] {
  try {
    const [names, values] = readFileSync('/proc/net/netstat', 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('TcpExt:'))
      .map((line) => line.split(/\s+/).slice(1));
    const count = (name: string) => Number(values?.[names?.indexOf(name) ?? -1] ?? NaN);
    return [count('ListenOverflows'), count('TCPSynRetrans')];
  } catch {
    return [NaN, NaN];
  }
}

/** `run`'s result, with the listen-queue drops and SYNs sent again meanwhile (see `listenDrops`). */
async function counted(run: Promise<LoadResult>): Promise<LoadResult & { drops: string }> {
  const before = listenDrops();
  const result = await run;
  const after = listenDrops();
  return { ...result, drops: after.map((count, i) => count - before[i]!).join(' / ') };
}

/** Resolves once `done()` holds (checked every 100 ms), or after `ms` at most. */
async function until(done: () => boolean, ms: number): Promise<void> {
  for (const end = performance.now() + ms; !done() && performance.now() < end;)
    await new Promise((resolve) => setTimeout(resolve, 100));
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? NaN;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

async function post(url: string, headers: Record<string, string>, body: object) {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { data: { id: string }; meta?: { grant: string } };
}

/** A server of the benchmark in its own process, and where it listens. */
export interface Server {
  process: ChildProcess;
  url: string;
}

/**
 * A side spoken to with the service's key (the simulator itself, or the floor in front of it): a conversation to
 * stream in, and another with one message for the JSON calls.
 */
export async function keyedSide(origin: string, key: string): Promise<Side> {
  const keyed = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const api = `${origin}/api/v1`;
  const [streamIn, listed] = await Promise.all([
    post(`${api}/conversations`, keyed, { name: 'load', bot_id: DEMO_BOT_ID }),
    post(`${api}/conversations`, keyed, { name: 'list', bot_id: DEMO_BOT_ID }),
  ]);
  await post(`${api}/messages`, keyed, { content: 'shipping?', conversation_id: listed.data.id });
  return {
    base: api,
    headers: keyed,
    conversationId: streamIn.data.id,
    listPath: `/messages?conversation_id=${listed.data.id}`,
    listHeaders: keyed,
    streamHeaders: { authorization: keyed.authorization },
  };
}

/** The proxy's side: the same two conversations, each with the visitor's grant. */
export async function proxySide(proxyUrl: string): Promise<Side> {
  const json = { 'content-type': 'application/json' };
  const base = `${proxyUrl}/askbox`;
  const proxyStream = await post(`${base}/conversations`, json, { name: 'load', bot_id: DEMO_BOT_ID });
  const proxyList = await post(`${base}/conversations`, json, { name: 'list', bot_id: DEMO_BOT_ID });
  const listGrant = { ...json, 'x-askbox-grant': proxyList.meta!.grant };
  await post(`${base}/messages`, listGrant, { content: 'shipping?', conversation_id: proxyList.data.id });
  const grant = { ...json, 'x-askbox-grant': proxyStream.meta!.grant };
  return {
    base,
    // The JSON calls carry the listed conversation's grant; the streams their own.
    headers: grant,
    conversationId: proxyStream.data.id,
    listPath: `/messages?conversation_id=${proxyList.data.id}`,
    streamHeaders: { 'x-askbox-grant': grant['x-askbox-grant'] },
    listHeaders: listGrant,
  };
}

/** What runs between the load and the simulator: Askbox's proxy, and the floor (Node relaying with no policy). */
interface Relay {
  what: string;
  side: Side;
  process: ChildProcess;
}

/** The median and the p99 of `values`, in ms. */
const pair = (values: number[]) => `${ms(quantile(values, 0.5))} / ${ms(quantile(values, 0.99))}`;
const spread = (samples: Sample[]) => pair(samples.map((sample) => sample.ms));

/** The lengths of a run's streams that arrived whole. */
const wholeDurations = (result: LoadResult) => result.streams.filter((s) => s.whole).map((s) => s.ms);

/** How much longer a run's streams took than the same load's straight at the simulator (medians). */
const ratio = (result: LoadResult, direct: LoadResult) =>
  quantile(wholeDurations(result), 0.5) / quantile(wholeDurations(direct), 0.5);

/** A row's columns about the streams themselves: how many arrived whole, how long they ran, against direct ones. */
function streamColumns(result: LoadResult, direct: LoadResult) {
  const durations = wholeDurations(result);
  return {
    'whole streams': `${durations.length}/${result.streams.length}`,
    'stream p50 / p99': pair(durations),
    '× direct': `×${ratio(result, direct).toFixed(3)}`,
  };
}

/** What a crowd measured, and through a relay, what that relay's process spent. */
interface Crowd {
  result: LoadResult & { drops: string };
  /** CPU time over the whole run, in ms. */
  cpu: { simulator: number; relay?: number };
  relay?: {
    /** The share of the relay's CPU spent in the kernel. */
    kernel: number;
    /** CPU per relayed event while every stream was open, in µs. */
    openPerEvent: number;
    /** Memory per open stream, in bytes. */
    rss: number;
    heap: number;
  };
}

/**
 * The relay's memory once every stream is open (or, on a machine that cannot keep up, halfway through), and its
 * CPU per event from then, after that GC, until the first stream ends or for 6 s: the relay without set-ups.
 */
async function whileOpen(relay: ChildProcess, before: NodeJS.MemoryUsage, began: number, count: number) {
  await until(() => streamTally().began - began >= count, IDEAL_STREAM_MS / 2);
  const during = await ask<NodeJS.MemoryUsage>(relay, 'memory');
  await new Promise((resolve) => setTimeout(resolve, 500));
  const open = { cpu: await cpuMs(relay), tally: streamTally() };
  await until(() => streamTally().ended > open.tally.ended, 6000);
  return {
    openPerEvent: (((await cpuMs(relay)) - open.cpu) * 1000) / (streamTally().events - open.tally.events),
    rss: (during.rss - before.rss) / count,
    // RSS rarely shrinks: after an earlier part of the benchmark it may understate; the heap's figure does not.
    heap: (during.heapUsed + during.external - before.heapUsed - before.external) / count,
  };
}

/** `streamLoad` on `side`, with the simulator's CPU meanwhile. */
async function crowd(side: Side, count: number, simulator: ChildProcess): Promise<Crowd> {
  const simulatorCpu = await cpuMs(simulator);
  const result = await counted(streamLoad(side, count));
  return { result, cpu: { simulator: (await cpuMs(simulator)) - simulatorCpu } };
}

/** `crowd` through `relay`, with what the relay's process spent. */
async function relayedCrowd(side: Side, count: number, simulator: ChildProcess, relay: ChildProcess): Promise<Crowd> {
  const before = await ask<NodeJS.CpuUsage>(relay, 'cpu');
  const memory = await ask<NodeJS.MemoryUsage>(relay, 'memory');
  const began = streamTally().began;
  const run = crowd(side, count, simulator);
  const open = await whileOpen(relay, memory, began, count);
  const { result, cpu } = await run;
  const { user, system } = await ask<NodeJS.CpuUsage>(relay, 'cpu');
  const relayMs = (user + system - before.user - before.system) / 1000;
  return {
    result,
    cpu: { ...cpu, relay: relayMs },
    relay: { ...open, kernel: (system - before.system) / 1000 / relayMs },
  };
}

const perEvent = (run: Crowd) => (run.cpu.relay === undefined ? NaN : (run.cpu.relay * 1000) / eventsOf(run.result));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** One row of the crowd's report. */
function crowdRow(what: string, run: Crowd, direct: LoadResult) {
  const { result, cpu, relay } = run;
  return {
    what,
    ...streamColumns(result, direct),
    'create p50 / p99': spread(result.create),
    'JSON p50 / p99': spread(result.list),
    'create / JSON p99, all open': `${ms(quantile(whileAllOpen(result.create), 0.99))} / ${ms(quantile(whileAllOpen(result.list), 0.99))}`,
    'failed calls': result.failures.length,
    // Machine-wide (Linux): what other processes drop counts too.
    'listen drops / SYN resends': result.drops,
    'simulator CPU': `${((cpu.simulator / result.wallMs) * 100).toFixed(0)} %`,
    'relay CPU': cpu.relay === undefined ? '—' : `${((cpu.relay / result.wallMs) * 100).toFixed(0)} %`,
    'relay µs/event (kernel)': relay ? `${perEvent(run).toFixed(1)} (${(relay.kernel * 100).toFixed(0)} %)` : '—',
    'µs/event, all open': relay ? relay.openPerEvent.toFixed(1) : '—',
    'RSS / heap per stream': relay ? `${kb(relay.rss)} / ${kb(relay.heap)}` : '—',
  };
}

/** Resolves `after` ms past `since` (a `performance.now()`). */
const at = (since: number, after: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, since + after - performance.now())));

/**
 * `steadyLoad` on `side`, and from its window's start to its end: the relay's CPU per relayed event (stream set-ups
 * at their steady rate included, with the probes' calls) and the streams open at either end.
 */
async function steady(side: Side, count: number, relay?: ChildProcess) {
  const began = performance.now();
  const run = counted(steadyLoad(side, count));
  await at(began, STEADY_WINDOW[0]);
  const first = { cpu: relay && (await cpuMs(relay)), tally: streamTally() };
  await at(began, STEADY_WINDOW[1]);
  const last = { cpu: relay && (await cpuMs(relay)), tally: streamTally() };
  const result = await run;
  const events = last.tally.events - first.tally.events;
  return {
    result,
    perEvent: first.cpu === undefined || last.cpu === undefined ? undefined : ((last.cpu - first.cpu) * 1000) / events,
    open: [first.tally, last.tally].map((tally) => tally.began - tally.ended).join(' → '),
  };
}

/** The steady state's row of the report: the calls' latencies and the relay's CPU within its window. */
function steadyRow(what: string, run: Awaited<ReturnType<typeof steady>>, direct: LoadResult) {
  return {
    what,
    ...streamColumns(run.result, direct),
    'streams open in the window': run.open,
    'create p50 / p99': pair(inSteadyState(run.result.create)),
    'JSON p50 / p99': pair(inSteadyState(run.result.list)),
    'failed calls': run.result.failures.length,
    'listen drops / SYN resends': run.result.drops,
    'relay µs/event': run.perEvent === undefined ? '—' : run.perEvent.toFixed(1),
  };
}

/**
 * The steady state of `count` concurrent streams (see `steadyLoad`), straight at the simulator and then through
 * each relay; prints the figures in the window where `count` are open, and the proxy's verdicts there.
 */
async function steadyStreams(direct: Side, relays: Relay[], count: number): Promise<void> {
  const straight = await steady(direct, count);
  const through: Awaited<ReturnType<typeof steady>>[] = [];
  for (const relay of relays) through.push(await steady(relay.side, count, relay.process));
  const rate = (count / IDEAL_STREAM_MS) * 1000;
  console.log(
    `\nSteady state: ${count} streams open, ${rate.toFixed(1)} new a second (figures from ${STEADY_WINDOW[0] / 1000} to ${STEADY_WINDOW[1] / 1000} s)`,
  );
  console.table([
    steadyRow('straight at the simulator', straight, straight.result),
    ...relays.map((relay, i) => steadyRow(relay.what, through[i]!, straight.result)),
  ]);
  const proxy = through[0]!;
  const createP99 = quantile(inSteadyState(proxy.result.create), 0.99);
  const listP99 = quantile(inSteadyState(proxy.result.list), 0.99);
  const longer = ratio(proxy.result, straight.result);
  console.log(
    `steady state, proxy CPU per relayed event (set-ups included): ${proxy.perEvent?.toFixed(1)} µs (target ≤ 25 µs: ${verdict((proxy.perEvent ?? Infinity) <= 25)}; the floor: ${through[1]?.perEvent?.toFixed(1)} µs)`,
  );
  console.log(
    `steady state, create / JSON p99 through the proxy: ${ms(createP99)} / ${ms(listP99)} (target ≤ 250 ms: ${verdict(createP99 <= 250 && listP99 <= 250)})`,
  );
  console.log(
    `steady state, stream duration, proxy / direct (median): ×${longer.toFixed(3)} (target ≤ ×1.1: ${verdict(longer <= 1.1)})`,
  );
}

/** The proxy's verdicts on the crowd's goals, and the floor's CPU per event beside its own. */
function crowdVerdicts(proxy: Crowd, floor: Crowd, direct: LoadResult): void {
  const createP99 = quantile(
    proxy.result.create.map((sample) => sample.ms),
    0.99,
  );
  const listP99 = quantile(
    proxy.result.list.map((sample) => sample.ms),
    0.99,
  );
  const longer = ratio(proxy.result, direct);
  const memory = Math.max(proxy.relay?.rss ?? NaN, proxy.relay?.heap ?? NaN);
  console.log(
    `proxy CPU per relayed event: ${perEvent(proxy).toFixed(1)} µs (target ≤ 25 µs: ${verdict(perEvent(proxy) <= 25)}), ${proxy.relay?.openPerEvent.toFixed(1)} µs while every stream is open; the floor: ${perEvent(floor).toFixed(1)} and ${floor.relay?.openPerEvent.toFixed(1)} µs`,
  );
  console.log(
    `create / JSON p99 through the proxy: ${ms(createP99)} / ${ms(listP99)} (target ≤ 250 ms: ${verdict(createP99 <= 250 && listP99 <= 250)})`,
  );
  console.log(
    `stream duration, proxy / direct (median): ×${longer.toFixed(3)} (target ≤ ×1.1: ${verdict(longer <= 1.1)})`,
  );
  console.log(`proxy memory per open stream: ${kb(memory)} (target ≤ 200 KB: ${verdict(memory <= 200 * 1024)})`);
}

/**
 * `count` concurrent reply streams (default 1,000), straight at the simulator, then through the proxy, then through
 * the floor (see floor-relay.ts), each with create-conversation and JSON calls probed meanwhile: first as a crowd
 * (all within a second), then in the steady state that keeps `count` open (`STEADY=0` leaves it out); prints the
 * figures and the proxy's verdicts on the goals.
 */
export async function concurrentStreams(
  servers: { simulator: Server; proxy: Server; floor: Server },
  key: string,
  count = Number(process.env.STREAMS ?? 1000),
): Promise<void> {
  const direct = await keyedSide(servers.simulator.url, key);
  const relays: Relay[] = [
    { what: 'through the proxy', side: await proxySide(servers.proxy.url), process: servers.proxy.process },
    {
      what: 'through the floor (Node, no policy)',
      side: await keyedSide(servers.floor.url, key),
      process: servers.floor.process,
    },
  ];
  const simulator = servers.simulator.process;
  const straight = await crowd(direct, count, simulator);
  const through: Crowd[] = [];
  for (const relay of relays) through.push(await relayedCrowd(relay.side, count, simulator, relay.process));

  console.log(
    `\nA crowd: ${count} concurrent reply streams started within ${RAMP_MS / 1000} s (${IDEAL_STREAM_MS} ms of chunks each; probes every 40 ms)`,
  );
  console.table([
    crowdRow('straight at the simulator', straight, straight.result),
    ...relays.map((relay, i) => crowdRow(relay.what, through[i]!, straight.result)),
  ]);
  crowdVerdicts(through[0]!, through[1]!, straight.result);
  const runs = [['direct', straight] as const, ...relays.map((relay, i) => [relay.what, through[i]!] as const)];
  for (const [what, { result }] of runs) {
    const cut = result.streams.filter((s) => !s.whole).map((s) => s.status);
    if (cut.length) console.log(`${what}: ${cut.length} streams not whole, statuses`, [...new Set(cut)]);
    if (result.failures.length) console.log(`${what}: failures (first 5):`, result.failures.slice(0, 5));
  }
  if (process.env.STEADY !== '0') await steadyStreams(direct, relays, count);
  closeClients();
}

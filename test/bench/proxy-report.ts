// The concurrent-stream part of the proxy load benchmark (see proxy-load.ts): the same load straight at the
// simulator, then through the proxy, and the figures side by side with the goals.
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

/** A conversation to stream in, and another with one message for the JSON calls, on each side. */
async function sides(simulatorUrl: string, proxyUrl: string, key: string): Promise<{ direct: Side; proxied: Side }> {
  const json = { 'content-type': 'application/json' };
  const keyed = { ...json, authorization: `Bearer ${key}` };
  const api = `${simulatorUrl}/api/v1`;
  const [streamIn, listed] = await Promise.all([
    post(`${api}/conversations`, keyed, { name: 'load', bot_id: DEMO_BOT_ID }),
    post(`${api}/conversations`, keyed, { name: 'list', bot_id: DEMO_BOT_ID }),
  ]);
  await post(`${api}/messages`, keyed, { content: 'shipping?', conversation_id: listed.data.id });
  const base = `${proxyUrl}/askbox`;
  const proxyStream = await post(`${base}/conversations`, json, { name: 'load', bot_id: DEMO_BOT_ID });
  const proxyList = await post(`${base}/conversations`, json, { name: 'list', bot_id: DEMO_BOT_ID });
  const listGrant = { ...json, 'x-askbox-grant': proxyList.meta!.grant };
  await post(`${base}/messages`, listGrant, { content: 'shipping?', conversation_id: proxyList.data.id });
  const grant = { ...json, 'x-askbox-grant': proxyStream.meta!.grant };
  return {
    direct: {
      base: api,
      headers: keyed,
      conversationId: streamIn.data.id,
      listPath: `/messages?conversation_id=${listed.data.id}`,
      listHeaders: keyed,
      streamHeaders: { authorization: keyed.authorization },
    },
    proxied: {
      base,
      // The JSON calls carry the listed conversation's grant; the streams their own.
      headers: grant,
      conversationId: proxyStream.data.id,
      listPath: `/messages?conversation_id=${proxyList.data.id}`,
      streamHeaders: { 'x-askbox-grant': grant['x-askbox-grant'] },
      listHeaders: listGrant,
    },
  };
}

/** The median and the p99 of `values`, in ms. */
const pair = (values: number[]) => `${ms(quantile(values, 0.5))} / ${ms(quantile(values, 0.99))}`;
const spread = (samples: Sample[]) => pair(samples.map((sample) => sample.ms));

/** The lengths of a run's streams that arrived whole. */
const wholeDurations = (result: LoadResult) => result.streams.filter((s) => s.whole).map((s) => s.ms);

/** A row's columns about the streams themselves: how many arrived whole, and how long they ran. */
function streamColumns(result: LoadResult) {
  const durations = wholeDurations(result);
  return {
    'whole streams': `${durations.length}/${result.streams.length}`,
    'stream p50 / p99': pair(durations),
  };
}

/** One row of the report. */
function row(what: string, result: LoadResult & { drops: string }, cpu: { proxy?: number; simulator: number }) {
  const events = eventsOf(result);
  return {
    what,
    ...streamColumns(result),
    'create p50 / p99': spread(result.create),
    'JSON p50 / p99': spread(result.list),
    'create / JSON p99, all open': `${ms(quantile(whileAllOpen(result.create), 0.99))} / ${ms(quantile(whileAllOpen(result.list), 0.99))}`,
    'failed calls': result.failures.length,
    // Machine-wide (Linux): what other processes drop counts too.
    'listen drops / SYN resends': result.drops,
    'simulator CPU': `${((cpu.simulator / result.wallMs) * 100).toFixed(0)} %`,
    'proxy CPU': cpu.proxy === undefined ? '—' : `${((cpu.proxy / result.wallMs) * 100).toFixed(0)} %`,
    'proxy µs/event': cpu.proxy === undefined ? '—' : ((cpu.proxy * 1000) / events).toFixed(1),
  };
}

/** Resolves `after` ms past `since` (a `performance.now()`). */
const at = (since: number, after: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, since + after - performance.now())));

/**
 * `steadyLoad` on `side`, and from its window's start to its end: the proxy's CPU per relayed event (stream set-ups
 * at their steady rate included, with the probes' calls) and the streams open at either end.
 */
async function steady(side: Side, count: number, proxy?: ChildProcess) {
  const began = performance.now();
  const run = counted(steadyLoad(side, count));
  await at(began, STEADY_WINDOW[0]);
  const first = { cpu: proxy && (await cpuMs(proxy)), tally: streamTally() };
  await at(began, STEADY_WINDOW[1]);
  const last = { cpu: proxy && (await cpuMs(proxy)), tally: streamTally() };
  const result = await run;
  const events = last.tally.events - first.tally.events;
  return {
    result,
    perEvent: first.cpu === undefined || last.cpu === undefined ? undefined : ((last.cpu - first.cpu) * 1000) / events,
    open: [first.tally, last.tally].map((tally) => tally.began - tally.ended).join(' → '),
  };
}

/** The steady state's row of the report: the calls' latencies and the proxy's CPU within its window. */
function steadyRow(what: string, run: Awaited<ReturnType<typeof steady>>) {
  return {
    what,
    ...streamColumns(run.result),
    'streams open in the window': run.open,
    'create p50 / p99': pair(inSteadyState(run.result.create)),
    'JSON p50 / p99': pair(inSteadyState(run.result.list)),
    'failed calls': run.result.failures.length,
    'listen drops / SYN resends': run.result.drops,
    'proxy µs/event': run.perEvent === undefined ? '—' : run.perEvent.toFixed(1),
  };
}

/**
 * The steady state of `count` concurrent streams (see `steadyLoad`), straight at the simulator and then through the
 * proxy; prints the figures in the window where `count` are open, and the goals' verdicts there.
 */
async function steadyStreams(direct: Side, proxied: Side, proxy: ChildProcess, count: number): Promise<void> {
  const straight = await steady(direct, count);
  const through = await steady(proxied, count, proxy);
  const rate = (count / IDEAL_STREAM_MS) * 1000;
  console.log(
    `\nSteady state: ${count} streams open, ${rate.toFixed(1)} new a second (figures from ${STEADY_WINDOW[0] / 1000} to ${STEADY_WINDOW[1] / 1000} s)`,
  );
  console.table([steadyRow('straight at the simulator', straight), steadyRow('through the proxy', through)]);
  const createP99 = quantile(inSteadyState(through.result.create), 0.99);
  const listP99 = quantile(inSteadyState(through.result.list), 0.99);
  const ratio = quantile(wholeDurations(through.result), 0.5) / quantile(wholeDurations(straight.result), 0.5);
  console.log(
    `steady state, proxy CPU per relayed event (set-ups included): ${through.perEvent?.toFixed(1)} µs (target ≤ 25 µs: ${verdict((through.perEvent ?? Infinity) <= 25)})`,
  );
  console.log(
    `steady state, create / JSON p99 through the proxy: ${ms(createP99)} / ${ms(listP99)} (target ≤ 250 ms: ${verdict(createP99 <= 250 && listP99 <= 250)})`,
  );
  console.log(
    `steady state, stream duration, proxy / direct (median): ×${ratio.toFixed(3)} (target ≤ ×1.1: ${verdict(ratio <= 1.1)})`,
  );
}

/**
 * `count` concurrent reply streams (default 1,000), straight at the simulator and then through the proxy, each with
 * create-conversation and JSON calls probed meanwhile: first as a crowd (all within a second), then in the steady
 * state that keeps `count` open (`STEADY=0` leaves it out); prints the figures and the goals' verdicts.
 */
export async function concurrentStreams(
  simulatorUrl: string,
  proxyUrl: string,
  children: { simulator: ChildProcess; proxy: ChildProcess },
  key: string,
  count = Number(process.env.STREAMS ?? 1000),
): Promise<void> {
  const { direct, proxied } = await sides(simulatorUrl, proxyUrl, key);
  let simulatorCpu = await cpuMs(children.simulator);
  const straight = await counted(streamLoad(direct, count));
  const straightCpu = { simulator: (await cpuMs(children.simulator)) - simulatorCpu };

  simulatorCpu = await cpuMs(children.simulator);
  const proxyCpu = await cpuMs(children.proxy);
  const proxyKernel = (await ask<NodeJS.CpuUsage>(children.proxy, 'cpu')).system;
  const memoryBefore = await ask<NodeJS.MemoryUsage>(children.proxy, 'memory');
  const before = streamTally();
  const loaded = counted(streamLoad(proxied, count));
  // Once every stream is open (or, on a machine that cannot keep up, halfway through): the proxy's memory then.
  await until(() => streamTally().began - before.began >= count, IDEAL_STREAM_MS / 2);
  const memoryDuring = await ask<NodeJS.MemoryUsage>(children.proxy, 'memory');
  // The relay, without setting streams up: the proxy's CPU per event while every stream is open (after that GC,
  // until the first ends or for 6 s); the calls probed meanwhile go on.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const open = { cpu: await cpuMs(children.proxy), tally: streamTally() };
  await until(() => streamTally().ended > open.tally.ended, 6000);
  const relayPerEvent =
    (((await cpuMs(children.proxy)) - open.cpu) * 1000) / (streamTally().events - open.tally.events);
  const through = await loaded;
  const throughCpu = {
    proxy: (await cpuMs(children.proxy)) - proxyCpu,
    simulator: (await cpuMs(children.simulator)) - simulatorCpu,
  };

  console.log(
    `\nA crowd: ${count} concurrent reply streams started within ${RAMP_MS / 1000} s (${IDEAL_STREAM_MS} ms of chunks each; probes every 40 ms)`,
  );
  console.table([
    row('straight at the simulator', straight, straightCpu),
    row('through the proxy', through, throughCpu),
  ]);
  const ratio = quantile(wholeDurations(through), 0.5) / quantile(wholeDurations(straight), 0.5);
  const perEvent = (throughCpu.proxy * 1000) / eventsOf(through);
  const kernel = ((await ask<NodeJS.CpuUsage>(children.proxy, 'cpu')).system - proxyKernel) / 1000 / throughCpu.proxy;
  const perStream = (memoryDuring.rss - memoryBefore.rss) / count;
  // RSS rarely shrinks: after an earlier part of the benchmark it may understate; the heap's figure does not.
  const heapPerStream =
    (memoryDuring.heapUsed + memoryDuring.external - memoryBefore.heapUsed - memoryBefore.external) / count;
  const createP99 = quantile(
    through.create.map((sample) => sample.ms),
    0.99,
  );
  const listP99 = quantile(
    through.list.map((sample) => sample.ms),
    0.99,
  );
  console.log(
    `proxy CPU per relayed event: ${perEvent.toFixed(1)} µs, ${(kernel * 100).toFixed(0)} % of it in the kernel (target ≤ 25 µs: ${verdict(perEvent <= 25)})`,
  );
  console.log(
    `proxy CPU per relayed event while every stream is open (no stream set up meanwhile): ${relayPerEvent.toFixed(1)} µs`,
  );
  console.log(
    `create / JSON p99 through the proxy: ${ms(createP99)} / ${ms(listP99)} (target ≤ 250 ms: ${verdict(createP99 <= 250 && listP99 <= 250)})`,
  );
  console.log(
    `stream duration, proxy / direct (median): ×${ratio.toFixed(3)} (target ≤ ×1.1: ${verdict(ratio <= 1.1)})`,
  );
  console.log(
    `proxy memory per open stream: ${(perStream / 1024).toFixed(1)} KB RSS, ${(heapPerStream / 1024).toFixed(1)} KB heap (target ≤ 200 KB: ${verdict(Math.max(perStream, heapPerStream) <= 200 * 1024)})`,
  );
  for (const [what, result] of [
    ['direct', straight],
    ['proxy', through],
  ] as const) {
    const cut = result.streams.filter((s) => !s.whole).map((s) => s.status);
    if (cut.length) console.log(`${what}: ${cut.length} streams not whole, statuses`, [...new Set(cut)]);
  }
  for (const [what, result] of [
    ['direct', straight],
    ['proxy', through],
  ] as const)
    if (result.failures.length) console.log(`${what} failures (first 5):`, result.failures.slice(0, 5));
  if (process.env.STEADY !== '0') await steadyStreams(direct, proxied, children.proxy, count);
  closeClients();
}

// Proof of work, measured (issue 22, item 5): `npm run bench:pow`.
// 1. A script: each level solved several times with altcha-lib's solveChallenge on Node's native PBKDF2, in CPU time.
// 2. A visitor: the widget's own solver (src/api/proof.ts, bundled by Vite) in Debian's Chromium at CPU throttling 4×
//    and 1× (CDP Emulation.setCPUThrottlingRate), per solve: wall time, the renderer's CPU (all its threads: WebCrypto
//    derives off the main thread), the main thread's CPU, long tasks, and the longest gap of a 5 ms heartbeat.
// Timings are reported, never asserted; the unit test asserts the work asked (test/unit/proxy/core/proof.interop.test.ts).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createChallenge, solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { build, type Rolldown } from 'vite';
import { PROOF_OF_WORK } from '../../src/protocol/contract';
import { launchChromium } from '../e2e/harness';

const RUNS = Number(process.env.POW_RUNS ?? 12);
type Level = { cost: number; prefixLength: number };

const challenge = (level: Level) =>
  createChallenge({
    algorithm: PROOF_OF_WORK.algorithm,
    cost: level.cost,
    keyPrefix: '0'.repeat(level.prefixLength),
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
    deriveKey,
    hmacSignatureSecret: 'bench',
  });
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const format = (values: number[]) =>
  `mean ${mean(values).toFixed(0)} ms, min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)}`;

/** CPU milliseconds of this process (every thread: PBKDF2 runs on libuv's pool) while `work` runs. */
async function cpuOf(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** Node's native PBKDF2-SHA-256 iterations per CPU-second, from ten derivations of 100,000. */
async function nativeRate(): Promise<number> {
  const parameters = { algorithm: PROOF_OF_WORK.algorithm, cost: 100_000, keyLength: 32 } as Challenge['parameters'];
  const ms = await cpuOf(async () => {
    for (let i = 0; i < 10; i++) await deriveKey(parameters, new Uint8Array(16), new Uint8Array(20));
  });
  return (10 * parameters.cost) / (ms / 1000);
}

async function nodeLevel(name: string, level: Level, runs: number) {
  const expected = 16 ** level.prefixLength * level.cost;
  const rate = await nativeRate();
  const cpu: number[] = [];
  const tries: number[] = [];
  for (let i = 0; i < runs; i++) {
    const made = await challenge(level);
    let counter = 0;
    cpu.push(await cpuOf(async () => (counter = (await solveChallenge({ challenge: made, deriveKey }))!.counter)));
    tries.push(counter + 1);
  }
  console.log(
    `node ${name} (cost ${level.cost}, prefix ${level.prefixLength}): expected ${expected.toLocaleString('en')} iterations ` +
      `= ${((expected / rate) * 1000).toFixed(0)} ms at ${(rate / 1e6).toFixed(2)} M iterations/s; ` +
      `measured CPU over ${runs} solves: ${format(cpu)}; tries mean ${mean(tries).toFixed(0)} (expected ${16 ** level.prefixLength})`,
  );
}

/** The widget's solver as one classic script defining `AskboxProof.solveProof`. */
async function solverScript(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      target: 'es2022',
      lib: { entry: 'src/api/proof.ts', formats: ['iife'], name: 'AskboxProof' },
    },
  });
  const chunk = (Array.isArray(result) ? result[0] : (result as Rolldown.RolldownOutput))?.output[0];
  if (!chunk || chunk.type !== 'chunk') throw new Error('src/api/proof.ts must build into one script');
  return chunk.code;
}

async function browserLevel(name: string, level: Level, runs: number, throttle: number) {
  const script = await solverScript();
  // A secure context (loopback HTTP), as WebCrypto needs.
  const server = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(`<!doctype html><title>pow</title><script>${script}</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    const metrics = async () => {
      const { metrics: list } = await cdp.send('Performance.getMetrics');
      const get = (key: string) => (list.find((m) => m.name === key)?.value ?? 0) * 1000;
      return { process: get('ProcessTime'), thread: get('ThreadTime') };
    };
    const wall: number[] = [];
    const processCpu: number[] = [];
    const mainCpu: number[] = [];
    const longTasks: number[] = [];
    const gaps: number[] = [];
    for (let i = 0; i < runs; i++) {
      const made: Challenge = await challenge(level);
      const before = await metrics();
      const run = await page.evaluate(async (input) => {
        const tasks: number[] = [];
        const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries().map((e) => e.duration)));
        observer.observe({ type: 'longtask' });
        // A heartbeat every 5 ms: its longest gap is how long the page could not respond while solving.
        let last = performance.now();
        let gap = 0;
        const beat = setInterval(() => {
          gap = Math.max(gap, performance.now() - last);
          last = performance.now();
        }, 5);
        const started = performance.now();
        const proof = await (
          window as unknown as { AskboxProof: { solveProof(c: unknown): Promise<unknown> } }
        ).AskboxProof.solveProof(input);
        const ms = performance.now() - started;
        clearInterval(beat);
        await new Promise((resolve) => setTimeout(resolve, 50));
        observer.disconnect();
        return { ms, solved: proof !== undefined, longTasks: tasks, gap };
      }, made);
      const after = await metrics();
      if (!run.solved) throw new Error('the widget solver found no solution');
      wall.push(run.ms);
      processCpu.push(after.process - before.process);
      mainCpu.push(after.thread - before.thread);
      longTasks.push(...run.longTasks);
      gaps.push(run.gap);
    }
    console.log(
      `chromium ${name} at CPU throttling ${throttle}× over ${runs} solves: wall ${format(wall)}; ` +
        `renderer CPU ${format(processCpu)}; main-thread CPU ${format(mainCpu)}; long tasks ${longTasks.length} ` +
        `[${longTasks.map((ms) => ms.toFixed(0)).join(', ')} ms]; longest gap of a 5 ms heartbeat ${format(gaps)}`,
    );
  } finally {
    await browser.close();
    server.close();
  }
}

await nodeLevel('normal', PROOF_OF_WORK.normal, RUNS);
await nodeLevel('raised', PROOF_OF_WORK.raised, Math.max(3, Math.round(RUNS / 2)));
// Chromium throttles the main thread only: WebCrypto derives on another thread, so 1× shows what the solver itself
// costs the main thread, and 4× what a slow phone's main thread adds (the throttler also stretches any task it
// pauses, tiny ones included, into "long tasks": see the closing note of issue 22).
await browserLevel('normal', PROOF_OF_WORK.normal, RUNS * 2, 4);
await browserLevel('normal', PROOF_OF_WORK.normal, RUNS * 2, 1);

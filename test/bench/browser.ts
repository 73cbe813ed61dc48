// The widget's cost in Chromium (`npm run bench:browser`; issue 8): boot on a blank host page and the first open,
// long streamed replies, and a 200-message history, for the built dist/askbox.js and, with `--baseline <file>`,
// another build of it, interleaved run by run in one browser so that both see the same machine load. Boot also runs
// three reference launchers (browser-floor.ts) in the same rotation, in columns of their own: a plain fixed <button>,
// Askbox's launcher DOM in a shadow root with its real stylesheet, and that plus the page hooks Askbox keeps from boot
// on (viewport and media-query listeners, a MutationObserver, <askbox-chat>'s definition). They do the DOM work the
// launcher must do and none of its logic: the floor its boot cost is measured against (they have no panel to open).
//
//   tsx test/bench/browser.ts [--runs 9] [--stream-runs 3] [--baseline /tmp/old/askbox.js] [--only boot,stream,history]
//
// It asserts nothing about speed: a run that fails or times out is reported as missing and the benchmark goes on.
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { startDemoServer } from '../../demo/server';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { launchChromium } from '../e2e/harness';
import { freshBuild } from '../helpers/build';
import { measureBoot, AFTER_LOAD_MS, type BootSample } from './browser-boot';
import { checkFloors, floors } from './browser-floor';
import { STREAM_SIZES, createBenchScenario, streamReply, CHUNK_SIZE } from './browser-fixtures';
import { measureHistory, seedHistory, type HistorySample } from './browser-history';
import { PROXY_PATH, startBenchHost, type Variant } from './browser-host';
import { median, printTable, type TableRow } from './browser-report';
import { measureStream, type StreamSample } from './browser-stream';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '9' },
    'stream-runs': { type: 'string', default: '3' },
    baseline: { type: 'string' },
    only: { type: 'string', default: 'boot,stream,history' },
  },
});
const RUNS = Math.max(1, Number.parseInt(args.runs, 10) || 9);
const STREAM_RUNS = Math.max(1, Number.parseInt(args['stream-runs'], 10) || 3);
const PHASES = new Set(args.only.split(','));
for (const phase of PHASES)
  if (!['boot', 'stream', 'history'].includes(phase)) throw new Error(`--only: unknown phase "${phase}"`);

const builds = [{ label: 'current', code: readFileSync(freshBuild('dist/askbox.js'), 'utf8') }];
if (args.baseline)
  builds.push({ label: `baseline (${basename(args.baseline)})`, code: readFileSync(args.baseline, 'utf8') });
const labels = builds.map((build) => build.label);
const INDICES = builds.map((_, index) => index);
/** The reference launchers, served after the builds (their indices follow the builds'). */
const FLOORS = floors(builds[0]?.code ?? '');

/**
 * The builds in run `run`'s order: A, B in even runs and B, A in odd ones, so neither build always runs first
 * (right after a context closed, or right after the other build warmed the machine's caches).
 */
function order<T>(items: readonly T[], run: number): T[] {
  return run % 2 === 0 ? [...items] : [...items].reverse();
}

/** Runs `measure`, reporting a failure on stderr and counting it as missing (undefined) instead of stopping. */
async function attempt<T>(what: string, measure: () => Promise<T>): Promise<T | undefined> {
  try {
    return await measure();
  } catch (error) {
    console.error(`[bench:browser] ${what} failed: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
    return undefined;
  }
}

/** The runs' values of one field, NaN for missing runs. */
function field<T>(samples: readonly (T | undefined)[], pick: (sample: T) => number): number[] {
  return samples.map((sample) => (sample === undefined ? Number.NaN : pick(sample)));
}

const KB = 1024;
const demo = await startDemoServer({ port: 0, scenario: createBenchScenario(), proxy: { limits: false } });
/**
 * The chat files each launcher loads, served from next to it: the current one's from dist/, a baseline's from the
 * folder it was copied to (keep its chat file beside it; a single-file baseline asks for none).
 */
function chatFiles(folder: string): Record<string, string> {
  const names = readdirSync(folder).filter((name) => /^askbox-chat\.[\w-]+\.js$/.test(name));
  return Object.fromEntries(names.map((name) => [name, readFileSync(join(folder, name), 'utf8')]));
}
const host = await startBenchHost(
  [...builds, ...FLOORS].map((build) => build.code),
  DEMO_BOT_ID,
  demo.url,
  {
    ...(args.baseline ? chatFiles(dirname(args.baseline)) : {}),
    ...chatFiles('dist'),
  },
);
const browser = await launchChromium();
const started = performance.now();
try {
  console.log(`Askbox in Chromium ${browser.version()}: ${labels.join(' vs ')}; median [min–max] of the runs`);

  if (PHASES.has('boot')) {
    await checkFloors(
      browser,
      FLOORS,
      FLOORS.map((_, index) => host.url({ kind: 'build', index: builds.length + index })),
    );
    // The blank page takes its turn in the rotation too: its median is what every build's numbers are measured from.
    const variants: Variant[] = [
      { kind: 'blank' },
      ...[...builds, ...FLOORS].map((_, index) => ({ kind: 'build' as const, index })),
    ];
    const samples = new Map<Variant, (BootSample | undefined)[]>(variants.map((variant) => [variant, []]));
    for (let run = 0; run < RUNS; run++) {
      const rotated = [...variants.slice(run % variants.length), ...variants.slice(0, run % variants.length)];
      for (const variant of rotated) {
        const sample = await attempt(`boot run ${run + 1}`, () =>
          measureBoot(browser, host.url(variant), variant.kind === 'build' && variant.index < builds.length),
        );
        samples.get(variant)?.push(sample);
      }
    }
    const blank = samples.get(variants[0] as Variant) ?? [];
    // The builds' columns, then the reference launchers'; the first-open rows have the builds' only.
    const perBuild = variants.slice(1).map((variant) => samples.get(variant) ?? []);
    const opened = perBuild.slice(0, builds.length);
    const delta = (pick: (sample: BootSample) => number, scale = 1) => {
      const base = median(field(blank, pick));
      return perBuild.map((runs) => field(runs, pick).map((value) => (value - base) / scale));
    };
    const rows: TableRow[] = [
      { label: 'script ms (Δ ScriptDuration)', values: delta((s) => s.scriptMs) },
      { label: 'task ms (Δ TaskDuration)', values: delta((s) => s.taskMs) },
      { label: 'long tasks (Δ count)', values: delta((s) => s.longTasks), digits: 0 },
      { label: 'longest task ms', values: perBuild.map((runs) => field(runs, (s) => s.longestTaskMs)) },
      { label: 'JS heap Δ KB', values: delta((s) => s.heapBytes, KB), digits: 0 },
      { label: 'JS heap Δ KB after a full GC', values: delta((s) => s.heapAfterGcBytes, KB), digits: 0 },
      { label: 'first open ms (click → panel painted)', values: opened.map((runs) => field(runs, (s) => s.openMs)) },
      { label: 'first open: main-thread CPU ms', values: opened.map((runs) => field(runs, (s) => s.openTaskMs)) },
      { label: 'first open: longest task ms', values: opened.map((runs) => field(runs, (s) => s.openLongestTaskMs)) },
    ];
    printTable(
      `Boot on a blank host page, ${AFTER_LOAD_MS} ms after load (Δ: over the same page without the script, median ${median(field(blank, (s) => s.taskMs)).toFixed(1)} task ms), ${RUNS} runs; then the first open after hover and focus`,
      [...labels, ...FLOORS.map((floor) => floor.label)],
      rows,
      labels.length,
    );
  }

  if (PHASES.has('stream')) {
    const samples = new Map<number, (StreamSample | undefined)[][]>(
      STREAM_SIZES.map((size) => [size, INDICES.map(() => [])]),
    );
    for (let run = 0; run < STREAM_RUNS; run++) {
      for (const size of STREAM_SIZES) {
        for (const index of order(INDICES, run)) {
          const sample = await attempt(`${size}-character stream, run ${run + 1}`, () =>
            measureStream(browser, host.url({ kind: 'build', index }), size),
          );
          samples.get(size)?.[index]?.push(sample);
        }
      }
    }
    for (const size of STREAM_SIZES) {
      const perBuild = samples.get(size) ?? [];
      const column = (pick: (sample: StreamSample) => number) => perBuild.map((runs) => field(runs, pick));
      const chunks = Math.ceil(streamReply(size).length / CHUNK_SIZE);
      printTable(
        `Streaming a ${streamReply(size).length}-character markdown reply in ${chunks} chunks of ${CHUNK_SIZE} (proxy + simulator, no delay), ${STREAM_RUNS} runs`,
        labels,
        [
          { label: 'main-thread CPU ms (Δ TaskDuration)', values: column((s) => s.taskMs), digits: 0 },
          { label: 'script ms (Δ ScriptDuration)', values: column((s) => s.scriptMs), digits: 0 },
          ...[0, 1, 2, 3].map((q) => ({
            label: `quarter ${q + 1}: ms per chunk`,
            values: column((s) => s.quarters[q] ?? Number.NaN),
            digits: 2,
          })),
          { label: 'growth (quarter 4 / quarter 1)', values: column((s) => s.growth), digits: 2 },
          { label: 'stream end → reply committed, CPU ms', values: column((s) => s.finishMs), digits: 0 },
          { label: 'longest task ms', values: column((s) => s.longestTaskMs), digits: 0 },
          { label: 'wall ms, send → reply done', values: column((s) => s.wallMs), digits: 0 },
        ],
      );
    }
  }

  if (PHASES.has('history')) {
    const conversation = await seedHistory(`${demo.url}${PROXY_PATH}`, DEMO_BOT_ID);
    const perBuild: (HistorySample | undefined)[][] = INDICES.map(() => []);
    for (let run = 0; run < RUNS; run++) {
      for (const index of order(INDICES, run)) {
        const sample = await attempt(`history run ${run + 1}`, () =>
          measureHistory(browser, host.url({ kind: 'build', index }), DEMO_BOT_ID, conversation),
        );
        perBuild[index]?.push(sample);
      }
    }
    const column = (pick: (sample: HistorySample) => number) => perBuild.map((runs) => field(runs, pick));
    printTable(`Opening a 200-message history, ${RUNS} runs`, labels, [
      { label: 'click → all 200 messages painted, ms', values: column((s) => s.visibleMs), digits: 0 },
      { label: 'longest task ms', values: column((s) => s.longestTaskMs), digits: 0 },
      { label: 'main-thread CPU ms (Δ TaskDuration)', values: column((s) => s.taskMs), digits: 0 },
      { label: 'JS heap after a full GC, KB', values: column((s) => s.heapAfterGcBytes / KB), digits: 0 },
    ]);
  }
  console.log(`\n${((performance.now() - started) / 1000).toFixed(0)} s`);
} finally {
  await browser.close();
  await host.close();
  await demo.close();
}

// Streaming: the main-thread cost of one long reply, streamed through the real proxy and simulator, in total and per
// quarter of the reply.
//
// Per-quarter method. The page logs when each part of the reply reached the screen; a Chromium trace says how much
// CPU the main thread spent when.
// - In the page, a MutationObserver on the widget's shadow root logs (performance.now(), text length of the streaming
//   bubble), at most every PROGRESS_GAP_MS, plus the bubble's final length as last seen when it goes. Mutation
//   callbacks are microtasks, so they run inside a long task too: when the page falls behind and renders a backlog of
//   chunks in one task, the log still sees the text grow through it. Progress is measured on screen, not on the wire,
//   so the cost of chunks that waited in the socket lands in the quarter in which the page renders them.
// - The trace's main-thread tasks give their CPU time (browser-trace.ts). CDP's Performance.getMetrics cannot do this:
//   the renderer answers it between tasks or by interrupting one, before that task's time is counted.
// A quarter's ms per chunk is the CPU between the moments its first and last text was on screen, over its chunks (a
// quarter of the reply's 8-character chunks). The totals come from Performance.getMetrics, like the other tables.
// - The generated replies hold the same mix of blocks throughout, so rendered length tracks the markdown's length.
// - What follows the bubble's last state (the reply committed as a finished message and rendered anew) happens once
//   per reply, not per chunk: it has its own row and stays out of the quarters. When the bubble never showed the
//   whole text, the last quarter is rated over the part of it that was seen.
// - The log costs the page one textContent read per PROGRESS_GAP_MS, and the trace some overhead, alike in every
//   build.
import type { Browser } from 'playwright-core';
import { ask, W } from '../e2e/harness';
import { AFTER_LOAD_MS } from './browser-boot';
import { CHUNK_SIZE, WARM_UP_QUESTION, streamQuestion, streamReply } from './browser-fixtures';
import { MESSAGE_SELECTOR, openBenchPage, waitAfterLoad, type BenchPage } from './browser-page';
import { TRACE_CATEGORIES, readTrace, type CpuBetween } from './browser-trace';

const POLL_EVERY_MS = 50;
const SYNC_MARK = 'askbox-bench:sync';
const PROGRESS_GAP_MS = 5;
/** A reply that has not finished by then is counted as missing (no run of a sane build comes near it). */
const REPLY_TIMEOUT_MS = 180_000;

export interface StreamSample {
  taskMs: number;
  scriptMs: number;
  /** Main-thread ms per chunk in each quarter of the reply. */
  quarters: number[];
  /** Last quarter's ms per chunk over the first's: 1 when the cost per chunk does not grow with the reply. */
  growth: number;
  /** Main-thread ms from the streaming bubble's last state to the reply committed. */
  finishMs: number;
  longestTaskMs: number;
  wallMs: number;
}

/** A point of a curve whose `x` never decreases from one point to the next. */
interface Point {
  x: number;
  y: number;
}

/** `y` where the curve first reaches `x`, linear between the points around it (the last `y` past the end). */
function interpolate(points: readonly Point[], x: number): number {
  let previous = points[0];
  for (const point of points) {
    if (point.x >= x) {
      if (!previous || point.x === previous.x) return point.y;
      return previous.y + ((point.y - previous.y) * (x - previous.x)) / (point.x - previous.x);
    }
    previous = point;
  }
  return previous?.y ?? Number.NaN;
}

/**
 * Main-thread ms per chunk in each quarter of a reply of `chunks` chunks. `progress` maps the share of the reply on
 * screen (0 to `seen`) to page time. A quarter seen only in part is rated over that part; one never reached is NaN.
 */
function perQuarterCost(progress: readonly Point[], cpuBetween: CpuBetween, chunks: number): number[] {
  const seen = progress.at(-1)?.x ?? 0;
  return [0, 1, 2, 3].map((quarter) => {
    const from = quarter / 4;
    const to = Math.min((quarter + 1) / 4, seen);
    if (to <= from) return Number.NaN;
    return cpuBetween(interpolate(progress, from), interpolate(progress, to)) / ((to - from) * chunks);
  });
}

/** Starts the page's progress log (see the method above). */
function logProgress(bench: BenchPage) {
  return bench.page.evaluate((gapMs) => {
    const probe = window.__askboxBench;
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    if (!probe || !root) return;
    const log: number[] = [];
    probe.streamed = log;
    let bubble: Element | null = null;
    let seenAt = 0;
    let last = -Infinity;
    new MutationObserver(() => {
      const now = performance.now();
      const current = root.querySelector('.msg--streaming');
      // The bubble went (the reply was committed): its final text was on screen when it was last seen.
      if (bubble && current !== bubble) log.push(seenAt, (bubble.textContent ?? '').length);
      bubble = current;
      if (!current) return;
      seenAt = now;
      if (now - last < gapMs) return;
      last = now;
      log.push(now, (current.textContent ?? '').length);
    }).observe(root, { subtree: true, childList: true, characterData: true });
  }, PROGRESS_GAP_MS);
}

/** How many messages are finished, and the text length of the last one's markdown. */
function readReply(bench: BenchPage) {
  return bench.page.evaluate((query) => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const messages = root ? Array.from(root.querySelectorAll(query)) : [];
    const last = messages.at(-1);
    return {
      done: messages.length,
      lastLength: (last?.querySelector('.md') ?? last)?.textContent?.length ?? 0,
    };
  }, MESSAGE_SELECTOR);
}

/**
 * One reply of `size` characters on a fresh page of `url`: the panel is opened and a short warm-up reply streamed
 * first (the conversation exists and the markdown code is compiled), then the long one is measured.
 */
export async function measureStream(browser: Browser, url: string, size: number): Promise<StreamSample> {
  const bench = await openBenchPage(browser, url);
  let tracing = false;
  try {
    await waitAfterLoad(bench.page, AFTER_LOAD_MS);
    await ask(bench.page, WARM_UP_QUESTION);
    await bench.page.locator(W.bot).first().waitFor({ timeout: REPLY_TIMEOUT_MS });
    await bench.page.locator(W.input).fill(streamQuestion(size));
    await logProgress(bench);
    await browser.startTracing(bench.page, { categories: TRACE_CATEGORIES });
    tracing = true;
    const markAt = await bench.page.evaluate((name) => performance.mark(name).startTime, SYNC_MARK);
    const start = await bench.metrics();
    const sentAt = await bench.now();
    const started = performance.now();
    await bench.page.locator(W.input).press('Enter');
    let state = await readReply(bench);
    // Done: both questions and both replies are finished messages.
    while (state.done < 4) {
      if (performance.now() - started > REPLY_TIMEOUT_MS) throw new Error(`The ${size}-character reply never ended`);
      await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
      state = await readReply(bench);
    }
    const wallMs = performance.now() - started;
    const end = await bench.metrics();
    const endAt = await bench.now();
    tracing = false;
    const cpuBetween = readTrace(await browser.stopTracing(), SYNC_MARK, markAt);
    if (!cpuBetween) throw new Error('The trace has no main-thread mark');
    const log = await bench.page.evaluate(() => window.__askboxBench?.streamed ?? []);
    const progress: Point[] = [{ x: 0, y: sentAt }];
    for (let i = 0; i + 1 < log.length; i += 2) {
      const share = Math.min(1, (log[i + 1] ?? 0) / state.lastLength);
      progress.push({ x: Math.max(share, progress.at(-1)?.x ?? 0), y: log[i] ?? Number.NaN });
    }
    const quarters = perQuarterCost(progress, cpuBetween, Math.ceil(streamReply(size).length / CHUNK_SIZE));
    const seenAt = interpolate(progress, progress.at(-1)?.x ?? 0);
    return {
      taskMs: end.taskMs - start.taskMs,
      scriptMs: end.scriptMs - start.scriptMs,
      quarters,
      growth: (quarters[3] ?? Number.NaN) / (quarters[0] ?? Number.NaN),
      finishMs: cpuBetween(seenAt, endAt),
      longestTaskMs: Math.max(0, ...(await bench.longTasks(sentAt))),
      wallMs,
    };
  } finally {
    // A run that failed mid-reply must not leave the browser tracing: the next run could not start its trace.
    if (tracing) await browser.stopTracing().catch(() => undefined);
    await bench.close();
  }
}

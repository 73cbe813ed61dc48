// Streaming: the main-thread cost of one long reply, streamed through the real proxy and simulator, in total and per
// quarter of the reply.
//
// Per-quarter method. Chromium gives no per-task CPU to a page, and a trace would cost as much as it measures, so the
// benchmark samples instead: about every 20 ms it asks the page how much of the reply is on screen (the streaming
// bubble's text length over the finished reply's) and, in the same breath, CDP for the main thread's cumulative
// TaskDuration. Both requests wait for the main thread to be between tasks, so each sample pairs progress with the CPU
// spent to reach it. A quarter's ms per chunk is the TaskDuration spent across it (interpolated between the samples
// around its bounds) over the chunks it holds (its share of the reply's 8-character chunks).
// - Progress is measured on screen, not on the wire: when the page falls behind, chunks wait in the socket, and their
//   cost belongs to the quarter in which the page renders them.
// - The generated replies hold the same mix of blocks throughout, so rendered length tracks the markdown's length.
// - What follows the last sample of the streaming bubble (the reply committed as a finished message, rendered anew)
//   is reported on its own row and kept out of the quarters: it happens once per reply, not per chunk. When the
//   bubble was last seen short of the end, the last quarter's rate is taken over the part of it that was seen.
// - Sampling costs the page one textContent read per sample, the same in every build.
import type { Browser } from 'playwright-core';
import { ask, W } from '../e2e/harness';
import { AFTER_LOAD_MS } from './browser-boot';
import { CHUNK_SIZE, WARM_UP_QUESTION, streamQuestion, streamReply } from './browser-fixtures';
import { MESSAGE_SELECTOR, openBenchPage, waitAfterLoad, type BenchPage } from './browser-page';

const SAMPLE_EVERY_MS = 20;
/** A reply that has not finished by then is counted as missing (no run of a sane build comes near it). */
const REPLY_TIMEOUT_MS = 180_000;

export interface StreamSample {
  taskMs: number;
  scriptMs: number;
  /** Main-thread ms per chunk in each quarter of the reply. */
  quarters: number[];
  /** Last quarter's ms per chunk over the first's: 1 when the cost per chunk does not grow with the reply. */
  growth: number;
  /** Main-thread ms from the streaming bubble's last sample to the reply committed. */
  finishMs: number;
  longestTaskMs: number;
  wallMs: number;
}

interface Progress {
  progress: number;
  taskMs: number;
}

/** TaskDuration when `progress` of the reply was on screen, interpolated between the samples around it. */
export function taskAt(samples: readonly Progress[], progress: number): number {
  let previous = samples[0];
  for (const sample of samples) {
    if (sample.progress >= progress) {
      if (!previous || sample.progress === previous.progress) return sample.taskMs;
      const share = (progress - previous.progress) / (sample.progress - previous.progress);
      return previous.taskMs + (sample.taskMs - previous.taskMs) * share;
    }
    previous = sample;
  }
  return previous?.taskMs ?? Number.NaN;
}

/**
 * Main-thread ms per chunk in each quarter of a reply of `chunks` chunks, from samples in time order (progress never
 * decreasing). A quarter seen only in part is rated over that part; one never reached is NaN.
 */
export function perQuarterCost(samples: readonly Progress[], chunks: number): number[] {
  const seen = samples.at(-1)?.progress ?? 0;
  return [0, 1, 2, 3].map((quarter) => {
    const from = quarter / 4;
    const to = Math.min((quarter + 1) / 4, seen);
    return to > from ? (taskAt(samples, to) - taskAt(samples, from)) / ((to - from) * chunks) : Number.NaN;
  });
}

/** The page's view of the reply: the streaming bubble's text length (-1 when none) and how many replies are done. */
function readReply(bench: BenchPage) {
  return bench.page.evaluate((query) => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const bubble = root?.querySelector('.msg--streaming');
    const messages = root ? Array.from(root.querySelectorAll(query)) : [];
    const last = messages.at(-1);
    return {
      streamed: bubble ? (bubble.textContent ?? '').length : -1,
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
  try {
    await waitAfterLoad(bench.page, AFTER_LOAD_MS);
    await ask(bench.page, WARM_UP_QUESTION);
    await bench.page.locator(W.bot).first().waitFor({ timeout: REPLY_TIMEOUT_MS });
    await bench.page.locator(W.input).fill(streamQuestion(size));
    const start = await bench.metrics();
    const sentAt = await bench.now();
    const started = performance.now();
    await bench.page.locator(W.input).press('Enter');
    const samples: { streamed: number; taskMs: number }[] = [{ streamed: 0, taskMs: start.taskMs }];
    let state = await readReply(bench);
    // Done: both questions and both replies are finished messages.
    while (state.done < 4) {
      if (performance.now() - started > REPLY_TIMEOUT_MS) throw new Error(`The ${size}-character reply never ended`);
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
      const [next, metrics] = await Promise.all([readReply(bench), bench.metrics()]);
      state = next;
      if (state.streamed >= 0) samples.push({ streamed: state.streamed, taskMs: metrics.taskMs });
    }
    const wallMs = performance.now() - started;
    const end = await bench.metrics();
    const total = state.lastLength || Math.max(...samples.map((s) => s.streamed));
    let reached = 0;
    const progress = samples.map((sample) => {
      reached = Math.max(reached, Math.min(1, sample.streamed / total));
      return { progress: reached, taskMs: sample.taskMs };
    });
    const quarters = perQuarterCost(progress, Math.ceil(streamReply(size).length / CHUNK_SIZE));
    return {
      taskMs: end.taskMs - start.taskMs,
      scriptMs: end.scriptMs - start.scriptMs,
      quarters,
      growth: (quarters[3] ?? Number.NaN) / (quarters[0] ?? Number.NaN),
      finishMs: end.taskMs - taskAt(progress, reached),
      longestTaskMs: Math.max(0, ...(await bench.longTasks(sentAt))),
      wallMs,
    };
  } finally {
    await bench.close();
  }
}

// Boot: what the script costs a page before anyone clicks, and how fast the first click opens the panel.
import type { Browser } from 'playwright-core';
import { W } from '../e2e/harness';
import { openBenchPage, timeClick, waitAfterLoad } from './browser-page';

/** The boot metrics are read this long after the load event, as in issue 8. */
export const AFTER_LOAD_MS = 300;

/** One visit: main-thread time, heap and long tasks at load + 300 ms, then the first open (NaN on the blank page). */
export interface BootSample {
  scriptMs: number;
  taskMs: number;
  heapBytes: number;
  heapAfterGcBytes: number;
  longTasks: number;
  longestTaskMs: number;
  openMs: number;
  openTaskMs: number;
  openLongestTaskMs: number;
}

/** Visits `url` in a fresh context; `widget` says whether the page carries the script (and so can be opened). */
export async function measureBoot(browser: Browser, url: string, widget: boolean): Promise<BootSample> {
  const bench = await openBenchPage(browser, url);
  try {
    await waitAfterLoad(bench.page, AFTER_LOAD_MS);
    const loaded = await bench.metrics();
    const longTasks = await bench.longTasks();
    await bench.collectGarbage();
    const collected = await bench.metrics();
    const open = widget ? await timeClick(bench, W.launcher) : { ms: Number.NaN, clickAt: 0, taskMs: Number.NaN };
    const openTasks = widget ? await bench.longTasks(open.clickAt) : [];
    return {
      scriptMs: loaded.scriptMs,
      taskMs: loaded.taskMs,
      heapBytes: loaded.heapBytes,
      heapAfterGcBytes: collected.heapBytes,
      longTasks: longTasks.length,
      longestTaskMs: Math.max(0, ...longTasks),
      openMs: open.ms,
      openTaskMs: open.taskMs,
      openLongestTaskMs: Math.max(0, ...openTasks),
    };
  } finally {
    await bench.close();
  }
}

// One measured visit: a fresh browser context (its own storage and caches, like a new visitor), a CDP session with
// the Performance domain on, and a long-task observer installed before any page script runs.
//
// Functions passed to page.evaluate() run in the page from their source text. tsx compiles with esbuild's
// keepNames, which wraps named inner functions in a `__name()` helper the page does not have, so the page-side
// functions here declare no inner named functions: only inline callbacks.
import type { Browser, CDPSession, Page } from 'playwright-core';

/** Main-thread time and JS heap, from CDP `Performance.getMetrics`. */
interface Metrics {
  taskMs: number;
  scriptMs: number;
  heapBytes: number;
}

/** Click → the awaited state painted, in the page's clock; `ms` is NaN when it never came. */
interface ClickTiming {
  ms: number;
  clickAt: number;
}

/** A timed click, with the main-thread CPU time it cost (TaskDuration from just before the click to the paint). */
export interface TimedClick extends ClickTiming {
  taskMs: number;
}

interface Probe {
  longTasks: { start: number; duration: number }[];
  opened?: Promise<ClickTiming>;
  /** The streaming bubble's text length over time, flat: page time, length, page time, length… */
  streamed?: number[];
}

declare global {
  interface Window {
    __askboxBench?: Probe;
  }
}

export interface BenchPage {
  page: Page;
  metrics(): Promise<Metrics>;
  /** A full GC, so that the heap read next is what the page keeps rather than what it has not collected yet. */
  collectGarbage(): Promise<void>;
  /** The long tasks (≥ 50 ms, the browser's threshold) that ended after `since` (page time, ms). */
  longTasks(since?: number): Promise<number[]>;
  /** Page time now (ms since its time origin). */
  now(): Promise<number>;
  close(): Promise<void>;
}

/** How long a click may take to show its result before the run counts it as missing. */
const CLICK_TIMEOUT_MS = 20_000;
/** Hover and focus come this long before the click, so their work (and any preloading on them) is over. */
const HOVER_LEAD_MS = 150;

/**
 * Opens `url` in a fresh context. `storage` is written to localStorage before the page's own scripts run.
 *
 * CDP's Performance domain measures in thread time (`threadTicks`): CPU time of the renderer's main thread, not the
 * wall time of its tasks, so another engineer's build on the same cores does not inflate it (their work can still
 * slow caches and memory, which is why builds are interleaved and medians compared).
 */
export async function openBenchPage(browser: Browser, url: string, storage: Record<string, string> = {}) {
  const context = await browser.newContext({
    viewport: { width: 1000, height: 760 },
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
  });
  try {
    const page = await context.newPage();
    const cdp: CDPSession = await context.newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    await page.addInitScript(() => {
      const probe: Probe = { longTasks: [] };
      window.__askboxBench = probe;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: 'longtask', buffered: true });
    });
    const entries = Object.entries(storage);
    if (entries.length > 0)
      await page.addInitScript((pairs) => pairs.forEach(([key, value]) => localStorage.setItem(key, value)), entries);
    await page.goto(url);
    const bench: BenchPage = {
      page,
      async metrics() {
        const { metrics } = await cdp.send('Performance.getMetrics');
        const value = (name: string) => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
        return {
          taskMs: value('TaskDuration') * 1000,
          scriptMs: value('ScriptDuration') * 1000,
          heapBytes: value('JSHeapUsedSize'),
        };
      },
      async collectGarbage() {
        await cdp.send('HeapProfiler.collectGarbage');
      },
      longTasks: (since = 0) =>
        page.evaluate(
          (after) =>
            (window.__askboxBench?.longTasks ?? [])
              .filter((task) => task.start + task.duration > after)
              .map((task) => task.duration),
          since,
        ),
      now: () => page.evaluate(() => performance.now()),
      close: () => context.close(),
    };
    return bench;
  } catch (error) {
    await context.close();
    throw error;
  }
}

/** Waits until `ms` after the page's load event ended (the moment the boot metrics are read). */
export function waitAfterLoad(page: Page, ms: number): Promise<void> {
  return page.evaluate(
    (delay) =>
      new Promise<void>((resolve) => {
        const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
        const due = (navigation?.loadEventEnd || performance.now()) + delay;
        setTimeout(resolve, Math.max(0, due - performance.now()));
      }),
    ms,
  );
}

/** Widget messages other than the welcome and the one still streaming, in any build's markup. */
export const MESSAGE_SELECTOR = 'article.msg:not(.msg--welcome):not(.msg--streaming)';

/**
 * Hovers and focuses the launcher (`selector`), pauses, clicks it, and times click → painted: the panel's dialog
 * visible, or — with `messages` — that many messages in it.
 *
 * Method: a capture-phase click listener on the window takes the click event's timeStamp (when the input was
 * generated, so input queueing counts). A MutationObserver on the widget's shadow root sees the DOM reach the awaited
 * state; from there a requestAnimationFrame callback posts a setTimeout, which runs once that frame's rendering (style,
 * layout, paint) is done. Its performance.now() minus the click's timeStamp is the latency.
 */
export async function timeClick(bench: BenchPage, selector: string, messages = 0): Promise<TimedClick> {
  const launcher = bench.page.locator(selector);
  await launcher.hover();
  await launcher.focus();
  await bench.page.waitForTimeout(HOVER_LEAD_MS);
  const box = await launcher.boundingBox();
  if (!box) throw new Error('The launcher has no box');
  await bench.page.evaluate(
    ({ expected, query, timeoutMs }) => {
      const probe = window.__askboxBench;
      const root = document.querySelector('askbox-widget')?.shadowRoot;
      if (!probe || !root) return;
      probe.opened = new Promise<ClickTiming>((resolve) => {
        let clickAt = -1;
        let finished = false;
        addEventListener(
          'click',
          (event) => {
            clickAt = event.timeStamp;
          },
          { capture: true, once: true },
        );
        const observer = new MutationObserver(() => {
          if (finished || clickAt < 0) return;
          const dialog = root.querySelector('[role="dialog"]');
          const ready =
            expected > 0
              ? root.querySelectorAll(query).length >= expected
              : dialog instanceof HTMLElement && dialog.checkVisibility();
          if (!ready) return;
          finished = true;
          observer.disconnect();
          requestAnimationFrame(() => setTimeout(() => resolve({ ms: performance.now() - clickAt, clickAt }), 0));
        });
        observer.observe(root, { subtree: true, childList: true, attributes: true });
        setTimeout(() => {
          if (finished) return;
          finished = true;
          observer.disconnect();
          resolve({ ms: Number.NaN, clickAt });
        }, timeoutMs);
      });
    },
    { expected: messages, query: MESSAGE_SELECTOR, timeoutMs: CLICK_TIMEOUT_MS },
  );
  const before = await bench.metrics();
  await bench.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const timing = await bench.page.evaluate(() => window.__askboxBench?.opened ?? { ms: Number.NaN, clickAt: 0 });
  const after = await bench.metrics();
  return { ...timing, taskMs: after.taskMs - before.taskMs };
}

import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

/** A V8 block coverage range: `count` is how often the code in [startOffset, endOffset) of the script ran. */
interface Range {
  startOffset: number;
  endOffset: number;
  count: number;
}

/**
 * Literals of each library's code, to find the code behind the launcher in the minified bundle (names are mangled,
 * literals are not): Preact's MathML check, the signals' brand, DOMPurify's tag allowlist, the markdown renderer's
 * task-list glyph.
 */
const MARKERS = {
  preact: '^m(i|n|o|s|text|space)$',
  signals: 'preact-signals',
  dompurify: 'acronym',
  markdown: '☐',
} as const;

/** Records which code of askbox.js runs, from before the script loads (the page is reloaded under coverage). */
async function coverage(page: Page) {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  await page.reload();
  await page.locator(W.launcher).waitFor();
  const source = await page.evaluate(async () => (await fetch('/askbox.js')).text());
  const offsets = Object.fromEntries(
    Object.entries(MARKERS).map(([name, marker]) => {
      const at = source.indexOf(marker);
      expect(at, `${name} marker in askbox.js`).toBeGreaterThan(0);
      return [name, at];
    }),
  ) as Record<keyof typeof MARKERS, number>;

  /** The function ranges of askbox.js with how often each ran since the last call (taking coverage resets it). */
  async function ranges(): Promise<Range[]> {
    const { result } = await cdp.send('Profiler.takePreciseCoverage');
    return result
      .filter((script) => script.url.endsWith('/askbox.js'))
      .flatMap((script) => script.functions.flatMap((fn) => fn.ranges));
  }

  // The function that holds every library behind the launcher: the smallest range containing all markers.
  const first = await ranges();
  const values = Object.values(offsets);
  const chat = first
    .filter((r) => values.every((at) => r.startOffset <= at && at < r.endOffset))
    .reduce((a, b) => (b.endOffset - b.startOffset < a.endOffset - a.startOffset ? b : a));
  const runsIn = (found: Range[]) =>
    found
      .filter((r) => r.startOffset === chat.startOffset && r.endOffset === chat.endOffset)
      .reduce((sum, r) => sum + r.count, 0);
  let runs = runsIn(first);

  /** How often that function has run since the script loaded. */
  async function chatRuns(): Promise<number> {
    runs += runsIn(await ranges());
    return runs;
  }

  return { size: chat.endOffset - chat.startOffset, source, chatRuns };
}

describe('a launcher-only boot, in Chromium', () => {
  it('runs none of Preact, signals, DOMPurify or the markdown parser before the visitor shows interest', async () => {
    const { page, consoleErrors, pageErrors } = await e2e.open('/plain.html');
    const probe = await coverage(page);
    await page.waitForTimeout(300);
    // The code behind the launcher is most of the script, and none of it has run.
    expect(probe.size).toBeGreaterThan(probe.source.length * 0.6);
    expect(await probe.chatRuns()).toBe(0);
    expect(await page.locator(W.launcher).getAttribute('aria-label')).toBe('Chat');

    // Hovering the launcher creates the chat ahead of the click; the click then only opens it.
    await page.locator(W.launcher).hover();
    await expect.poll(() => probe.chatRuns()).toBe(1);
    await page.locator(W.launcher).click();
    await page.locator(W.panel).waitFor();
    expect(await probe.chatRuns()).toBe(1);
    expect(await page.locator(W.launcher).getAttribute('aria-expanded')).toBe('true');
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('creates the chat on keyboard focus of the launcher too, and on a page call before any interaction', async () => {
    const { page } = await e2e.open('/plain.html');
    const probe = await coverage(page);
    await page.keyboard.press('Tab');
    await expect.poll(() => probe.chatRuns()).toBe(1);

    const { page: other } = await e2e.open('/plain.html');
    const untouched = await coverage(other);
    const opened: string[] = [];
    await other.exposeFunction('recordOpen', () => opened.push('open'));
    await other.evaluate(() => {
      const api = (window as unknown as { Askbox: { on(type: string, fn: () => void): void; open(): void } }).Askbox;
      api.on('open', () => (window as unknown as { recordOpen(): void }).recordOpen());
      api.open();
    });
    await other.locator(W.panel).waitFor();
    expect(await untouched.chatRuns()).toBe(1);
    await expect.poll(() => opened).toEqual(['open']);
  });
});

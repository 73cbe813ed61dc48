import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng } from '../helpers/png';
import { axeViolations } from './axe';
import { animationFrames, ask, deepActive, startE2E, W } from './harness';

const COLUMNS = Array.from({ length: 9 }, (_, i) => `Column ${i + 1}`);
const WIDE = [
  'Here is the script and the plans:',
  '```sh',
  `curl -fsSL https://downloads.example.test/install.sh | sh -s -- ${'--option=value '.repeat(12)}`,
  '```',
  `| ${COLUMNS.join(' | ')} |`,
  `| ${COLUMNS.map(() => '---').join(' | ')} |`,
  `| ${COLUMNS.map((c) => `${c} value`).join(' | ')} |`,
].join('\n');

/** A wide table in an Arabic reply: it reads (and scrolls) right to left, starting at its right end. */
const ARABIC_COLUMNS = Array.from({ length: 9 }, (_, i) => `العمود ${i + 1}`);
const WIDE_ARABIC = [
  'إليك الخطط:',
  '',
  `| ${ARABIC_COLUMNS.join(' | ')} |`,
  `| ${ARABIC_COLUMNS.map(() => '---').join(' | ')} |`,
  `| ${ARABIC_COLUMNS.map((c) => `قيمة ${c}`).join(' | ')} |`,
].join('\n');

let e2e: Awaited<ReturnType<typeof startE2E>>;

/**
 * Which edges of a scroller show a fade, from a screenshot scrolled to `at` (a share of the way from its start,
 * 1 being its end, the left in a right-to-left scroller): along the top row of its cells' padding (no text there),
 * the brightest pixel 2–6 px in from an edge is darker than the cells' middle where the fade lies over it. The
 * brightest, so that a column's 1 px border crossing the strip does not count as a fade.
 */
async function fades(scroller: Locator, at: number) {
  await scroller.evaluate((el, share) => {
    const end = el.scrollWidth - el.clientWidth;
    el.scrollLeft = (getComputedStyle(el).direction === 'rtl' ? -end : end) * share;
  }, at);
  const { width, channels, data } = decodePng(await scroller.screenshot({ animations: 'disabled' }));
  const y = 2;
  const light = (x: number) => (data[(y * width + x) * channels] ?? 0) + (data[(y * width + x) * channels + 1] ?? 0);
  const brightest = (from: number) => Math.max(...[0, 1, 2, 3, 4].map((i) => light(from + i)));
  const middle = brightest(Math.round(width / 2));
  return { left: brightest(2) < middle - 12, right: brightest(width - 7) < middle - 12 };
}

beforeAll(async () => {
  e2e = await startE2E({
    replies: [
      { match: 'wide', text: WIDE, sources: ['Pricing plans'] },
      { match: 'جدول', text: WIDE_ARABIC },
    ],
  });
});
afterAll(() => e2e?.close());

describe('code and tables in replies (Chromium)', () => {
  it('gives replies the log’s whole width, the visitor’s bubbles 85% at most', async () => {
    const { page } = await e2e.open('/plain.html');
    await ask(page, `A wide answer please, ${'with many words '.repeat(12)}`);
    await page.locator(`${W.bot} table`).waitFor();
    // The reply and its question, just put in, measured at their own size (see animationFrames).
    await animationFrames(page);
    const widths = await page.evaluate(() => {
      const root = document.querySelector('askbox-widget')?.shadowRoot;
      const width = (selector: string) => root?.querySelector(selector)?.getBoundingClientRect().width ?? 0;
      return { log: width('.log__in'), bot: width('.msg--bot:not(.msg--welcome)'), user: width('.msg--user') };
    });
    expect(widths.bot).toBe(widths.log);
    expect(widths.user).toBeLessThanOrEqual(widths.log * 0.85);
  });

  it('scrolls wide code and tables sideways, reached and scrolled by keyboard, named, axe-clean', async () => {
    const { page } = await e2e.open('/plain.html');
    await ask(page, 'wide');
    await page.locator(`${W.bot} table`).waitFor();
    // The reply, just put in, measured at its own size (see animationFrames).
    await animationFrames(page);
    for (const [selector, name] of [
      ['pre', 'Code'],
      ['table', 'Table'],
    ] as const) {
      const scroller = page.locator(`${W.bot} ${selector}`);
      expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      expect(await scroller.getAttribute('aria-label')).toBe(name);
    }
    // From the message box back through the reply: its footer (thumbs down, thumbs up, copy), its source, the table,
    // then (past its copy button) the code, each with a visible ring.
    await page.locator(W.input).focus();
    for (const expected of ['button.icon-button', 'button.icon-button', 'button.icon-button', 'a']) {
      await page.keyboard.press('Shift+Tab');
      expect(await deepActive(page)).toBe(expected);
    }
    for (const [selector, presses] of [
      ['table', 1],
      ['pre', 2],
    ] as const) {
      for (let i = 0; i < presses; i++) await page.keyboard.press('Shift+Tab');
      expect(await deepActive(page)).toBe(selector);
      const scroller = page.locator(`${W.bot} ${selector}`);
      expect(await scroller.evaluate((el) => el.matches(':focus-visible') && getComputedStyle(el).outlineStyle)).toBe(
        'solid',
      );
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
      await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    }
    expect(await axeViolations(page)).toEqual([]);
  });

  it.each([
    ['/plain.html', 'wide', 'ltr', { start: 'right', end: 'left' }],
    ['/rtl.html', 'جدول عريض', 'rtl', { start: 'left', end: 'right' }],
  ] as const)(
    'on a phone, shows a fade at each edge of a wide table beyond which more lies (%s: %s)',
    async (path, question, direction, side) => {
      const { page } = await e2e.open(path, { width: 390, height: 844, mobile: true });
      await ask(page, question);
      const table = page.locator(`${W.bot} table`);
      await table.waitFor();
      expect(await table.evaluate((el) => getComputedStyle(el).direction)).toBe(direction);
      const none = { left: false, right: false };
      expect(await fades(table, 0)).toEqual({ ...none, [side.start]: true });
      expect(await fades(table, 0.5)).toEqual({ left: true, right: true });
      expect(await fades(table, 1)).toEqual({ ...none, [side.end]: true });
    },
  );
});

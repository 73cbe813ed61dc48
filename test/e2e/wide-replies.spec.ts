import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { ask, deepActive, startE2E, W } from './harness';

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

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({ replies: [{ match: 'wide', text: WIDE, sources: ['Pricing plans'] }] });
});
afterAll(() => e2e?.close());

describe('code and tables in replies (Chromium)', () => {
  it('gives replies the log’s whole width, the visitor’s bubbles 85% at most', async () => {
    const { page } = await e2e.open('/plain.html');
    await ask(page, `A wide answer please, ${'with many words '.repeat(12)}`);
    await page.locator(`${W.bot} table`).waitFor();
    const widths = await page.evaluate(() => {
      const root = document.querySelector('askbox-widget')?.shadowRoot;
      const width = (selector: string) => root?.querySelector(selector)?.getBoundingClientRect().width ?? 0;
      return { log: width('.log__content'), bot: width('.msg--bot:not(.msg--welcome)'), user: width('.msg--user') };
    });
    expect(widths.bot).toBe(widths.log);
    expect(widths.user).toBeLessThanOrEqual(widths.log * 0.85);
  });

  it('scrolls wide code and tables sideways, reached and scrolled by keyboard, named, axe-clean', async () => {
    const { page } = await e2e.open('/plain.html');
    await ask(page, 'wide');
    await page.locator(`${W.bot} table`).waitFor();
    for (const [selector, name] of [
      ['pre', 'Code'],
      ['table', 'Table'],
    ] as const) {
      const scroller = page.locator(`${W.bot} ${selector}`);
      expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      expect(await scroller.getAttribute('aria-label')).toBe(name);
    }
    // From the message box back through the reply: its copy button, its source, the table, then (past its copy
    // button) the code, each with a visible ring.
    await page.locator(W.input).focus();
    for (const expected of ['button.icon-button', 'a']) {
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
});

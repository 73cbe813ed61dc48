import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEXT, MAX_MESSAGE_LENGTH } from '../../src/config/schema';
import { axeViolations } from './axe';
import { ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

/** A number as the English counter shows it: `2,001`. */
const count = (n: number) => n.toLocaleString('en');

beforeAll(async () => {
  e2e = await startE2E({
    replies: [
      { match: 'slowly', text: 'A reply that takes its time, word by word, to arrive.', chunkSize: 4, delayMs: 150 },
      { match: 'fail', failedResponding: true, text: 'Sorry, I could not answer that.' },
      { match: 'quota', status: 402 },
    ],
  });
});
afterAll(() => e2e?.close());

/** Every violation axe finds in the widget, by state, so one failure names them all. */
async function check(page: Page, state: string, found: Record<string, string[]>) {
  const violations = await axeViolations(page);
  if (violations.length > 0) found[state] = violations.map((v) => `${v.id}: ${v.targets.join(' ')}`);
}

describe('axe-core in Chromium, shadow root included', () => {
  it.each([
    ['theme light', 'light', 'light', '/plain.html', {}],
    ['theme dark', 'dark', 'light', '/plain.html', {}],
    ['theme auto on a dark system', 'auto', 'dark', '/plain.html', {}],
    ['on a phone', 'auto', 'light', '/plain.html', { width: 390, height: 844, mobile: true }],
    ['on an Arabic page, right to left', 'auto', 'light', '/rtl.html', {}],
    ['in forced colours', 'auto', 'light', '/plain.html', { forcedColors: true }],
    ['in forced colours on a dark system', 'auto', 'dark', '/plain.html', { forcedColors: true }],
  ] as const)('finds no violation in any state, %s', async (_name, theme, system, path, options) => {
    const { forcedColors, ...size } = { forcedColors: false, ...options };
    const { page } = await e2e.open(path, size);
    await page.emulateMedia({ colorScheme: system, forcedColors: forcedColors ? 'active' : 'none' });
    await page.locator(W.launcher).waitFor();
    await page.evaluate((next) => window.Askbox?.setTheme(next), theme);
    const found: Record<string, string[]> = {};

    await check(page, 'closed', found);
    await page.locator(W.launcher).click();
    await page.locator(W.welcome).waitFor();
    await check(page, 'open, empty', found);

    await ask(page, 'Answer slowly, please');
    await page.locator(W.streaming).waitFor();
    await check(page, 'streaming', found);
    await page.locator(W.bot, { hasText: 'to arrive.' }).waitFor();

    await ask(page, 'How do returns work?');
    await page.locator(`${W.bot} .sources`).waitFor();
    await check(page, 'reply with sources', found);

    await ask(page, 'Make it fail');
    await page.locator('askbox-widget .msg--failed').waitFor();
    await check(page, 'failed reply', found);

    const replies = await page.locator(W.bot).count();
    await page.context().setOffline(true);
    await ask(page, 'Anyone there?');
    await page.locator(W.alert).waitFor();
    await check(page, 'offline', found);
    // Back online, the message goes by itself.
    await page.context().setOffline(false);
    await expect.poll(() => page.locator(W.bot).count()).toBe(replies + 1);
    await expect.poll(() => page.locator(W.input).isEnabled()).toBe(true);

    await ask(page, 'over quota?');
    await page.locator('askbox-widget .notice--limit').waitFor();
    await check(page, 'quota', found);
    expect(found).toEqual({});
  });

  it('shows the over-limit state in words on a line of its own, without narrowing the message box', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.locator(W.launcher).click();
    const input = page.locator(W.input);
    await input.fill('x');
    const width = (await input.boundingBox())?.width;
    const over = MAX_MESSAGE_LENGTH + 1;
    await input.fill('x'.repeat(over));
    const counter = page.locator('askbox-widget #askbox-counter');
    expect(await counter.textContent()).toBe(`${DEFAULT_TEXT.tooLong} ${count(over)} / ${count(MAX_MESSAGE_LENGTH)}`);
    expect((await input.boundingBox())?.width).toBe(width);
    expect(await axeViolations(page)).toEqual([]);
  });
});

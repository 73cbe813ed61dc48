import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { axeViolations } from './axe';
import { ask, deepActive, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({
    replies: [
      { match: 'plans', text: 'We have **two** plans.' },
      { match: 'hours', text: 'We are open from nine to five.' },
      { match: 'steps', text: 'إليك الخطوات' },
    ],
  });
});
afterAll(() => e2e?.close());

const LIST_KEY = `askbox:v1:conversations:${DEMO_BOT_ID}@/askbox`;
const VIEW = 'askbox-widget .convos';
const ENTRIES = `${VIEW} li button`;
const titles = (page: Page) => page.locator(`${ENTRIES} span`).allTextContents();
const stored = (page: Page) =>
  page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]') as { id: string; grant: string }[], LIST_KEY);

/** Asks `question` and waits for its answer, `answers` replies in the log by then. */
async function answer(page: Page, question: string, answers: number) {
  await ask(page, question);
  await expect.poll(() => page.locator(W.bot).count()).toBe(answers);
}

async function openList(page: Page, tap = false) {
  const button = page.locator('askbox-widget button[aria-haspopup="menu"]');
  // The first entry, in any language.
  const entry = page.locator('askbox-widget [role="menuitem"]').first();
  if (tap) {
    await button.tap();
    await entry.tap();
  } else {
    await button.click();
    await entry.click();
  }
  await page.locator(VIEW).waitFor();
}

describe('earlier conversations (Chromium, through the proxy and simulator)', () => {
  it('switches back to the first conversation with its history, keeps the list over a reload, drops a foreign grant', async () => {
    const { page, consoleErrors } = await e2e.open('/');
    await answer(page, 'Which plans?', 1);
    await page.locator(`askbox-widget button[aria-label="Start a new conversation"]`).click();
    await answer(page, 'What are your hours?', 1);

    await openList(page);
    expect(await titles(page)).toEqual(['What are your hours?', 'Which plans?']);
    expect(await page.locator(`${ENTRIES}[aria-current="true"] span`).textContent()).toBe('What are your hours?');
    expect(await deepActive(page)).toBe('button.menu__item');
    await page.locator(ENTRIES).nth(1).click();
    await page.locator(W.bot).filter({ hasText: 'We have two plans.' }).waitFor();
    expect(await page.locator(W.user).count()).toBe(1);
    expect(await page.locator(W.user).textContent()).toContain('Which plans?');
    expect(await deepActive(page)).toBe('textarea.input');

    // A reload keeps the list, and the conversation picked.
    await page.reload();
    if (!(await page.locator(W.panel).isVisible())) await page.locator(W.launcher).click();
    await page.locator(W.bot).filter({ hasText: 'We have two plans.' }).waitFor();
    await openList(page);
    expect(await titles(page)).toEqual(['What are your hours?', 'Which plans?']);
    expect(await page.locator(`${ENTRIES}[aria-current="true"] span`).textContent()).toBe('Which plans?');

    // A grant for another conversation, and one that has expired or was tampered with: the proxy refuses both.
    const [hours] = await stored(page);
    await page.evaluate(
      ({ key, grant }) => {
        const list = JSON.parse(localStorage.getItem(key)!) as unknown[];
        const at = Date.now();
        const foreign = { id: 'conv-foreign-0001', grant, title: 'Foreign', at: at + 2 };
        const expired = { id: 'conv-expired-0001', grant: `${grant.slice(0, -4)}AAAA`, title: 'Expired', at: at + 1 };
        localStorage.setItem(key, JSON.stringify([foreign, expired, ...list]));
      },
      { key: LIST_KEY, grant: hours!.grant },
    );
    await page.reload();
    if (!(await page.locator(W.panel).isVisible())) await page.locator(W.launcher).click();
    for (const title of ['Foreign', 'Expired']) {
      await openList(page);
      expect((await titles(page))[0]).toBe(title);
      await page.locator(ENTRIES).first().click();
      await page.locator(VIEW).waitFor({ state: 'detached' });
      await expect
        .poll(async () => (await stored(page)).some((entry) => entry.id.includes(title.toLowerCase())))
        .toBe(false);
      // Quietly: no error notice, an empty conversation to start afresh.
      expect(await page.locator(W.alert).count()).toBe(0);
    }
    await openList(page);
    expect(await titles(page)).toEqual(['What are your hours?', 'Which plans?']);
    // Escape goes back to the conversation, the panel still open, focus in the message box.
    await page.keyboard.press('Escape');
    await page.locator(VIEW).waitFor({ state: 'detached' });
    expect(await page.locator(W.panel).isVisible()).toBe(true);
    expect(await deepActive(page)).toBe('textarea.input');
    expect(consoleErrors.filter((line) => !line.includes('404'))).toEqual([]);
  });

  it('has no axe violations with the list shown, in light, dark and forced colours', async () => {
    const { page } = await e2e.open('/');
    await answer(page, 'Which plans?', 1);
    await openList(page);
    for (const theme of ['dark', 'light']) {
      await page.evaluate(
        (t) => (window as unknown as { Askbox: { setTheme(t: string): void } }).Askbox.setTheme(t),
        theme,
      );
      expect(await axeViolations(page), theme).toEqual([]);
    }
    await page.emulateMedia({ forcedColors: 'active' });
    expect(await axeViolations(page), 'forced colours').toEqual([]);
    // A dark system with forced colours gives the widget's dark theme a dark forced palette.
    await page.evaluate(() => (window as unknown as { Askbox: { setTheme(t: string): void } }).Askbox.setTheme('auto'));
    await page.emulateMedia({ colorScheme: 'dark', forcedColors: 'active' });
    // The widget follows the system's scheme from a media-query listener: let it redraw first.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await axeViolations(page), 'forced colours, dark').toEqual([]);
    // The conversation in use keeps its mark where colours are forced: a border, not a tint.
    const mark = await page
      .locator(`${ENTRIES}[aria-current]`)
      .evaluate((el) => getComputedStyle(el).borderInlineStartWidth);
    expect(mark).toBe('3px');
  });

  it('fits the panel in RTL and on a phone, without axe violations', async () => {
    for (const [path, question, options] of [
      ['/rtl.html', 'steps?', {}],
      ['/', 'Which plans?', { width: 375, height: 667, mobile: true }],
    ] as const) {
      const { page } = await e2e.open(path, options);
      await answer(page, question, 1);
      await openList(page, 'mobile' in options);
      const [entry, panel] = await Promise.all([
        page.locator(ENTRIES).first().boundingBox(),
        page.locator(W.panel).boundingBox(),
      ]);
      expect(entry!.x, path).toBeGreaterThanOrEqual(panel!.x);
      expect(entry!.x + entry!.width, path).toBeLessThanOrEqual(panel!.x + panel!.width);
      expect(await axeViolations(page), path).toEqual([]);
      if ('mobile' in options) await page.locator(`${VIEW} > button`).tap();
      else await page.locator(`${VIEW} > button`).click();
      await page.locator(W.input).waitFor();
    }
  });
});

import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({ replies: [{ match: 'docs', text: 'See [the docs](https://docs.example.test/a).' }] });
});
afterAll(() => e2e?.close());

/** The rendered colours of the parts a theme paints, read inside the shadow root. */
function colours(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const style = (selector: string) => {
      const element = root?.querySelector(selector);
      if (!element) throw new Error(`missing ${selector}`);
      return getComputedStyle(element);
    };
    const bot = '.msg--bot:not(.msg--welcome)';
    return {
      surface: style('.panel').backgroundColor,
      header: style('.title').color,
      bot: style(bot).backgroundColor,
      botText: style(bot).color,
      link: style(`${bot} .md a`).color,
      user: style('.msg--user').backgroundColor,
      userText: style('.msg--user').color,
    };
  });
}

async function themed(page: Page, theme: 'light' | 'dark' | 'auto', system: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: system });
  await page.evaluate((next) => window.Askbox?.setTheme(next), theme);
  // One frame for the class change to render.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  return colours(page);
}

describe('theme tokens in Chromium', () => {
  it('paints `auto` exactly as light or dark by the visitor’s system, links included, and follows a change live', async () => {
    const { page } = await e2e.open('/plain.html');
    await ask(page, 'Where are the docs?');
    await page.locator(`${W.bot} a`).waitFor();

    const light = await themed(page, 'light', 'dark');
    const dark = await themed(page, 'dark', 'light');
    expect(await themed(page, 'auto', 'dark')).toEqual(dark);
    expect(await themed(page, 'auto', 'light')).toEqual(light);
    // Links are the accent made readable on the bubble, in linear light: the default accent as it is on the light
    // bubble, lightened towards white on the dark one.
    expect(light).toMatchObject({
      surface: 'rgb(255, 255, 255)',
      link: 'color(srgb-linear 0.0781874 0.061246 0.783538)',
      user: 'rgb(79, 70, 229)',
    });
    expect(dark).toMatchObject({
      surface: 'rgb(29, 31, 36)',
      bot: 'rgb(43, 46, 53)',
      link: 'color(srgb-linear 0.290113 0.277066 0.833302)',
    });

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => colours(page)).toEqual(dark);
  });

  it('lets a site owner’s --askbox-* tokens on the host element win, in both schemes', async () => {
    const { page } = await e2e.open('/plain.html');
    await ask(page, 'Where are the docs?');
    await page.locator(`${W.bot} a`).waitFor();
    await page.evaluate(() => {
      const host = document.querySelector<HTMLElement>('askbox-widget');
      const tokens = {
        '--askbox-accent': 'rgb(11, 87, 208)',
        '--askbox-on-accent': 'rgb(1, 1, 1)',
        '--askbox-surface': 'rgb(2, 2, 2)',
        '--askbox-bot-bubble': 'rgb(3, 3, 3)',
        '--askbox-bot-text': 'rgb(4, 4, 4)',
        '--askbox-link': 'rgb(5, 5, 5)',
        '--askbox-user-bubble': 'rgb(6, 6, 6)',
        '--askbox-user-text': 'rgb(7, 7, 7)',
      };
      for (const [name, value] of Object.entries(tokens)) host?.style.setProperty(name, value);
    });
    const expected = {
      surface: 'rgb(2, 2, 2)',
      header: 'rgb(1, 1, 1)',
      bot: 'rgb(3, 3, 3)',
      botText: 'rgb(4, 4, 4)',
      link: 'rgb(5, 5, 5)',
      user: 'rgb(6, 6, 6)',
      userText: 'rgb(7, 7, 7)',
    };
    expect(await themed(page, 'light', 'light')).toEqual(expected);
    expect(await themed(page, 'dark', 'dark')).toEqual(expected);
  });

  it('stacks the panel and launcher at the z-index the stylesheet writes, digit for digit', async () => {
    const css = readFileSync(new URL('../../src/styles/launcher.css', import.meta.url), 'utf8');
    const written = /var\(--askbox-z-index, (\d+)\)/.exec(css)?.[1];
    const { page } = await e2e.open('/plain.html');
    await page.locator(W.launcher).click();
    // The minifier keeps six significant digits of a number inside a custom property: a longer one would ship
    // rounded, not as documented.
    for (const part of [W.launcher, W.panel])
      expect(await page.locator(part).evaluate((el) => getComputedStyle(el).zIndex)).toBe(written);
  });

  it('grows the message box line by line without a scrollbar, up to the stylesheet’s max height', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.locator(W.launcher).click();
    const box = page.locator(W.input);
    const measure = () =>
      box.evaluate((el) => ({
        height: el.getBoundingClientRect().height,
        hidden: el.scrollHeight - el.clientHeight,
        max: getComputedStyle(el).maxHeight,
      }));
    const heights: number[] = [];
    for (const lines of [1, 2, 3]) {
      await box.fill(Array.from({ length: lines }, (_, i) => `line ${i + 1}`).join('\n'));
      const { height, hidden } = await measure();
      expect(hidden, `${lines} lines`).toBe(0);
      heights.push(height);
    }
    expect(heights[1]).toBeGreaterThan(heights[0] ?? 0);
    expect(heights[2]).toBeGreaterThan(heights[1] ?? 0);

    await box.fill(Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n'));
    const tall = await measure();
    expect(`${tall.height}px`).toBe(tall.max);
    expect(tall.hidden).toBeGreaterThan(0);
  });

  it('keeps the panel’s place on a viewport too short for it: 28px free above, the launcher’s row below', async () => {
    const { page } = await e2e.open('/plain.html', { height: 600 });
    await page.locator(W.launcher).click();
    // The chat's panel, not the loading frame that has its box until the chat file is there (both are `.panel`).
    await page.locator(W.welcome).waitFor();
    // Off the launcher, which grows under the pointer.
    await page.mouse.move(0, 0);
    const panel = await page.locator(W.panel).boundingBox();
    const launcher = await page.locator(W.launcher).boundingBox();
    expect(panel?.y).toBe(28);
    expect((launcher?.y ?? 0) - ((panel?.y ?? 0) + (panel?.height ?? 0))).toBe(16);
  });
});

import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeBlock } from '../helpers/readme';
import { ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

// The demo as `npm start` runs it: no scenario, so the simulator answers from its knowledge base.
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

describe('the README screenshot', () => {
  it('shows what the default demo produces: a knowledge-base answer with its sources', async () => {
    const { page, consoleErrors } = await e2e.open('/');
    await page.getByRole('button', { name: 'Ask “How do returns work?”' }).click();
    const reply = page.locator(W.bot).last();
    await reply.locator('.sources').waitFor();
    expect(await page.locator(W.user).textContent()).toContain('How do returns work?');
    expect(await reply.locator('.md').textContent()).toMatch(/return/i);
    expect(await reply.locator('.sources a').count()).toBeGreaterThan(0);
    expect(consoleErrors).toEqual([]);

    await shoot(page, 'screenshot');
  });

  it.each([
    ['dark', '/', {}],
    ['dark-accent', '/', {}],
    ['phone', '/', { width: 390, height: 844, mobile: true }],
    ['rtl', '/rtl.html', {}],
  ] as const)('shows the widget %s, as the README shows it', async (name, path, options) => {
    const { page, consoleErrors } = await e2e.open(path, options);
    if (name.startsWith('dark')) await page.emulateMedia({ colorScheme: 'dark' });
    // A brand colour as dark as the dark theme's surface: bubbles, header and Send keep a visible edge.
    if (name === 'dark-accent')
      await page.evaluate(() =>
        document.querySelector<HTMLElement>('askbox-widget')?.style.setProperty('--askbox-accent', '#1a1a2e'),
      );
    await page.locator(W.launcher).click();
    // Opened once: on a page in another language the panel appears when its pack has come.
    await page.locator(W.panel).waitFor();
    await ask(page, 'How do returns work?');
    await page.locator(`${W.bot} .sources`).waitFor();
    await expect.poll(() => page.locator(W.input).isEnabled()).toBe(true);
    expect(consoleErrors).toEqual([]);
    await shoot(page, `screenshot-${name}`);
  });
});

describe('the README screenshot of the widget styled from the page', () => {
  it('shows the README’s ::part example applied, as written', async () => {
    const { page, consoleErrors } = await e2e.open('/');
    await page.addStyleTag({ content: readmeBlock('Styling beyond the theme', 'css') });
    await ask(page, 'How do returns work?');
    await page.locator(`${W.bot} .sources`).waitFor();
    await expect.poll(() => page.locator(W.input).isEnabled()).toBe(true);
    // The example in force (parts.spec.ts measures each part).
    expect(await page.locator('askbox-widget .head').evaluate((head) => getComputedStyle(head).fontFamily)).toContain(
      'Georgia',
    );
    expect(consoleErrors).toEqual([]);
    await shoot(page, 'screenshot-parts');
  });
});

describe('the README screenshot of a page wider than a phone', () => {
  it('keeps the launcher in the visible corner of the screen (phone.spec measures it scrolled and zoomed)', async () => {
    const { page, consoleErrors } = await e2e.open('/overflow.html', { width: 390, height: 844, mobile: true });
    await page.locator(W.launcher).waitFor();
    const box = await page.locator(W.launcher).boundingBox();
    const view = await page.evaluate(() => ({
      left: visualViewport!.offsetLeft,
      top: visualViewport!.offsetTop,
      width: visualViewport!.width,
      height: visualViewport!.height,
    }));
    // Where the visitor sees it: inside the visual viewport, in its bottom corner.
    expect(box!.x).toBeGreaterThanOrEqual(view.left);
    expect(box!.x + box!.width).toBeLessThanOrEqual(view.left + view.width);
    expect(box!.y + box!.height).toBeLessThanOrEqual(view.top + view.height);
    expect(box!.y).toBeGreaterThan(view.top + view.height / 2);
    expect(consoleErrors).toEqual([]);
    await shoot(page, 'screenshot-overflow');
  });
});

/**
 * Saves a screenshot in test/e2e/artifacts/; with ASKBOX_UPDATE_SCREENSHOT=1 (`ASKBOX_UPDATE_SCREENSHOT=1 npx vitest
 * run test/e2e/screenshot.spec.ts`) also as the README's picture, demo/<name>.png.
 */
async function shoot(page: Page, name: string) {
  const shots = fileURLToPath(new URL('./artifacts/', import.meta.url));
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: `${shots}${name}.png` });
  if (process.env.ASKBOX_UPDATE_SCREENSHOT)
    copyFileSync(`${shots}${name}.png`, fileURLToPath(new URL(`../../demo/${name}.png`, import.meta.url)));
}

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, W } from './harness';
import { launcherVisible, rect, tapWidget } from './screen';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

/** A Pixel-sized phone: 412 × 915 CSS pixels of screen, touch, a mobile browser's 980 px default layout width. */
const PIXEL = { width: 412, height: 915, mobile: true };

/** Loads the plain page as the README's quick start writes one: without `<meta name="viewport">`. */
async function openWithoutViewportTag(size: { width: number; height: number; mobile?: boolean }) {
  const opened = await e2e.open('/plain.html', size);
  await opened.page.route('**/plain.html', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(/<meta name="viewport"[^>]*>/, '');
    await route.fulfill({ response, body });
  });
  await opened.page.reload();
  expect(await opened.page.locator('meta[name="viewport"]').count()).toBe(0);
  await opened.page.locator(W.launcher).waitFor();
  return opened;
}

/**
 * The panel's box and the visual viewport, in layout pixels, and the size on the screen of the welcome's text:
 * its font size, times the scale the widget is drawn at, times the page's zoom.
 */
const measure = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const panel = root?.querySelector<HTMLElement>('.panel');
    const text = root?.querySelector('.msg--welcome p');
    const v = window.visualViewport;
    if (!panel || !text || !v) return null;
    const box = panel.getBoundingClientRect();
    const drawnAt = box.width / panel.offsetWidth;
    return {
      panel: { x: box.x, y: box.y, width: box.width, height: box.height },
      screen: { x: v.offsetLeft, y: v.offsetTop, width: v.width, height: v.height },
      textPx: parseFloat(getComputedStyle(text).fontSize) * drawnAt * v.scale,
    };
  });

describe('a phone on a page without <meta name="viewport">', () => {
  it.each([
    // Headless Chromium lays the page out 980 px wide but shows it unzoomed; a phone's browser zooms it out to
    // fit the screen's width, which the DevTools protocol's page scale reproduces.
    { shown: 'at the scale headless Chromium shows it', zoom: undefined },
    { shown: 'zoomed out to the screen, as a phone shows it', zoom: 412 / 980 },
  ])('gets the full-screen panel, readable, $shown', async ({ zoom }) => {
    const { page, pageErrors } = await openWithoutViewportTag(PIXEL);
    expect(await page.evaluate(() => innerWidth)).toBeGreaterThanOrEqual(980);
    if (zoom) {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: zoom });
      await expect.poll(() => page.evaluate(() => visualViewport?.width)).toBeGreaterThan(900);
      await expect.poll(() => launcherVisible(page)).toBe(true);
    }
    await tapWidget(page, '.launcher');
    await page.locator(W.welcome).waitFor();
    const seen = await measure(page);
    if (!seen) throw new Error('no panel');
    // The panel is the screen, whatever the page's zoom: each edge within a pixel of the visual viewport's.
    for (const edge of ['x', 'y', 'width', 'height'] as const)
      expect(Math.abs(seen.panel[edge] - seen.screen[edge]), JSON.stringify(seen)).toBeLessThanOrEqual(1);
    // Its text reads at the widget's own size on the screen, not at the page's 40 %.
    expect(seen.textPx).toBeGreaterThanOrEqual(14);
    // Its close button is on the screen, where a tap reaches it.
    await tapWidget(page, '.head button[aria-label="Close"]');
    await expect.poll(() => rect(page, '.panel')).toBeNull();
    expect(pageErrors).toEqual([]);
  });

  it('leaves a desktop as it was: the panel at the launcher, its own size, text unscaled', async () => {
    const { page } = await openWithoutViewportTag({ width: 1000, height: 760 });
    await page.locator(W.launcher).click();
    await page.locator(W.welcome).waitFor();
    const seen = await measure(page);
    expect(seen?.panel).toMatchObject({ width: 380, height: 600 });
    expect(seen?.textPx).toBe(
      parseFloat(
        await page
          .locator(`${W.welcome} p`)
          .first()
          .evaluate((p) => getComputedStyle(p).fontSize),
      ),
    );
  });
});

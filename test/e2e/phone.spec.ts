import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { animationFrames, startE2E, W } from './harness';
import { type Box, launcherCorner, launcherView, launcherVisible, PHONE, rect, tapWidget } from './screen';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

/** Whether a rect lies wholly inside a `width`×`height` screen. */
const inView = (r: Box | null, width: number, height: number) =>
  r !== null && r.x >= 0 && r.y >= 0 && r.x + r.width <= width && r.y + r.height <= height;

/** How many listeners the page's visual viewport has, read through the DevTools protocol. */
async function viewportListeners(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'window.visualViewport' });
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId ?? '' });
  await cdp.detach();
  return listeners.length;
}

/** The page's own state the lock must give back: scroll offset and the inline styles of html and body. */
const pageState = (page: Page) =>
  page.evaluate(() => ({
    scrollY: window.scrollY,
    html: document.documentElement.getAttribute('style'),
    body: document.body.getAttribute('style'),
  }));

/** Where the page's content sits on screen: it moves when the page behind the panel scrolls. */
const contentTop = (page: Page) => page.evaluate(() => document.querySelector('main')?.getBoundingClientRect().top);

describe('the full-screen panel on a phone, over a page wider than the screen', () => {
  it('is exactly the screen, keeps the page behind still, and gives its scroll position back on close', async () => {
    const { page, pageErrors } = await e2e.open('/overflow.html', PHONE);
    await page.locator(W.launcher).waitFor();
    // The host page overflows: a mobile browser widens the layout viewport to it.
    expect(await page.evaluate(() => window.innerWidth)).toBeGreaterThan(1000);
    await page.evaluate(() => window.scrollTo(0, 600));
    expect(await pageState(page)).toEqual({ scrollY: 600, html: null, body: null });
    const top = await contentTop(page);

    // The visitor taps the launcher where they see it: in the screen's corner, not the widened layout viewport's.
    await expect.poll(() => launcherVisible(page)).toBe(true);
    expect(await viewportListeners(page)).toBe(2);
    await tapWidget(page, '.launcher');
    await page.locator(W.welcome).waitFor();
    expect(await rect(page, '.panel')).toEqual({ x: 0, y: 0, width: 390, height: 844 });
    expect(inView(await rect(page, '.head button[aria-label="Close"]'), 390, 844)).toBe(true);
    expect(inView(await rect(page, '.composer'), 390, 844)).toBe(true);
    expect(await viewportListeners(page)).toBe(2);

    // Wheel, touch and script scrolling all leave the page behind where it was.
    await page.mouse.move(200, 300);
    await page.mouse.wheel(0, 800);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.synthesizeScrollGesture', { x: 200, y: 60, yDistance: -600, gestureSourceType: 'touch' });
    await page.evaluate(() => window.scrollTo(0, 1500));
    // A scroll, smooth or not, moves the page by the second frame after it.
    await animationFrames(page);
    expect(await contentTop(page)).toBe(top);
    expect(await rect(page, '.panel')).toEqual({ x: 0, y: 0, width: 390, height: 844 });
    expect(await axeViolations(page)).toEqual([]);

    await page.locator(W.panel).locator('button[aria-label="Close"]').click();
    await expect.poll(() => rect(page, '.panel')).toBeNull();
    expect(await pageState(page)).toEqual({ scrollY: 600, html: null, body: null });
    expect(await contentTop(page)).toBe(top);
    // The launcher keeps following the screen while the widget lives; destroy() lets go (the last test).
    expect(await viewportListeners(page)).toBe(2);
    expect(await launcherVisible(page)).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('keeps the launcher in the visible corner at any scroll and zoom, and with the soft keyboard open', async () => {
    const { page } = await e2e.open('/overflow.html', PHONE);
    await page.locator(W.launcher).waitFor();
    await expect.poll(() => launcherVisible(page)).toBe(true);
    // Scrolled down (the layout viewport moves), then across and further down: the screen pans within the layout
    // viewport, which the wide page has widened to 1224 px.
    const cdp = await page.context().newCDPSession(page);
    await page.evaluate(() => window.scrollTo({ top: 900, behavior: 'instant' }));
    await expect.poll(() => launcherVisible(page), { message: 'scrolled' }).toBe(true);
    await page.mouse.move(200, 300);
    await page.mouse.wheel(600, 500);
    await expect.poll(async () => (await launcherView(page))?.vx).toBeGreaterThan(500);
    await expect.poll(() => launcherVisible(page), { message: 'panned' }).toBe(true);
    // Pinch-zoomed in, then panned while zoomed.
    await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 2.5 });
    await expect.poll(async () => (await launcherView(page))?.scale).toBeGreaterThan(2);
    await expect.poll(() => launcherVisible(page), { message: 'zoomed' }).toBe(true);
    await page.mouse.wheel(-300, 200);
    await expect.poll(() => launcherVisible(page), { message: 'zoomed and panned' }).toBe(true);
    // A tap where the visitor sees it opens the chat, zoomed or not.
    await tapWidget(page, '.launcher');
    await page.locator(W.welcome).waitFor();
    await tapWidget(page, '.head button[aria-label="Close"]');
    await expect.poll(() => rect(page, '.panel')).toBeNull();
    await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 1 });
    // The soft keyboard shrinks the visual viewport: the launcher rises above it.
    await page.setViewportSize({ width: 390, height: 480 });
    await expect.poll(() => launcherVisible(page), { message: 'keyboard open' }).toBe(true);
  });

  it.each(['data-dir="rtl"', 'data-position="bottom-left"'])(
    'keeps the launcher in the bottom-left corner of the screen with %s',
    async (attribute) => {
      const { page } = await e2e.open('/plain.html', PHONE);
      // The overflowing page, its widget mirrored: the tag gets the attribute on its way to the browser.
      await page.route('**/overflow.html', async (route) => {
        const response = await route.fetch();
        await route.fulfill({
          response,
          body: (await response.text()).replace('<script src=', `<script ${attribute} src=`),
        });
      });
      await page.goto(new URL('/overflow.html', page.url()).href);
      await page.locator(W.launcher).waitFor();
      await expect.poll(() => launcherCorner(page)).toBe('bottom-left');
      await page.mouse.move(200, 300);
      await page.mouse.wheel(400, 300);
      await expect.poll(async () => (await launcherView(page))?.vx).toBeGreaterThan(300);
      await expect.poll(() => launcherCorner(page)).toBe('bottom-left');
    },
  );

  it('keeps the composer in view when the soft keyboard shrinks the viewport', async () => {
    const { page } = await e2e.open('/overflow.html', PHONE);
    await page.locator(W.launcher).waitFor();
    await tapWidget(page, '.launcher');
    await page.locator(W.welcome).waitFor();
    await page.setViewportSize({ width: 390, height: 500 });
    await expect.poll(() => rect(page, '.panel')).toEqual({ x: 0, y: 0, width: 390, height: 500 });
    expect(inView(await rect(page, '.composer'), 390, 500)).toBe(true);
    expect(inView(await rect(page, '.head button[aria-label="Close"]'), 390, 500)).toBe(true);
  });

  it('follows the visual viewport when the visitor has zoomed in, so the close button stays on screen', async () => {
    const { page } = await e2e.open('/overflow.html', PHONE);
    await page.locator(W.launcher).waitFor();
    await tapWidget(page, '.launcher');
    await page.locator(W.welcome).waitFor();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 2 });
    const screen = () =>
      page.evaluate(() => {
        const v = window.visualViewport;
        return v && { scale: v.scale, x: v.offsetLeft, y: v.offsetTop, width: v.width, height: v.height };
      });
    await expect.poll(async () => (await screen())?.scale).toBeGreaterThan(1.5);
    const seen = await screen();
    // The panel follows on the viewport's resize event, a frame or so after the zoom.
    await expect
      .poll(() => rect(page, '.panel'))
      .toEqual({
        x: Math.round(seen?.x ?? -1),
        y: Math.round(seen?.y ?? -1),
        width: Math.round(seen?.width ?? -1),
        height: Math.round(seen?.height ?? -1),
      });
  });

  it("restores the page's own inline overflow styles, and releases everything on destroy()", async () => {
    const { page } = await e2e.open('/overflow.html', PHONE);
    await page.locator(W.launcher).waitFor();
    await page.evaluate(() => {
      document.documentElement.style.setProperty('overflow-x', 'clip');
      document.body.style.setProperty('overflow', 'auto', 'important');
      document.body.style.setProperty('position', 'relative');
    });
    await tapWidget(page, '.launcher');
    await page.locator(W.welcome).waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.body).position)).toBe('fixed');
    await page.evaluate(() => window.Askbox?.destroy());
    expect(await pageState(page)).toEqual({
      scrollY: 0,
      html: 'overflow-x: clip;',
      body: 'overflow: auto !important; position: relative;',
    });
    expect(await viewportListeners(page)).toBe(0);
  });
});

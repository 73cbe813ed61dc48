import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, W } from './harness';
import { launcherCorner, PHONE, tapWidget } from './screen';

/** The VirtualKeyboard API (Chromium), which TypeScript's DOM types do not carry yet. */
type WithKeyboard = Navigator & { virtualKeyboard?: { overlaysContent: boolean; boundingRect: DOMRectReadOnly } };

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

/**
 * A widget element's box and the visual viewport (what the visitor sees), rounded, and whether the element is
 * what the page finds at the box's centre: where a tap there lands.
 */
const onScreen = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const el = root?.querySelector(sel);
    const v = window.visualViewport;
    if (!root || !el || !v) return null;
    const r = el.getBoundingClientRect();
    const hit = root.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return {
      box: { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) },
      screen: {
        x: Math.round(v.offsetLeft),
        y: Math.round(v.offsetTop),
        width: Math.round(v.width),
        height: Math.round(v.height),
      },
      hit: hit !== null && el.contains(hit),
    };
  }, selector);

/** Whether a widget element lies wholly inside the visual viewport, and a tap on its centre reaches it. */
async function reachable(page: Page, selector: string): Promise<boolean> {
  const seen = await onScreen(page, selector);
  if (!seen) return false;
  const { box, screen } = seen;
  const inside =
    box.x >= screen.x &&
    box.y >= screen.y &&
    box.x + box.width <= screen.x + screen.width + 1 &&
    box.y + box.height <= screen.y + screen.height + 1;
  return inside && seen.hit;
}

/** Opens the chat by tapping the launcher where the visitor sees it; the panel then covers exactly the screen. */
async function tapOpen(page: Page) {
  await tapWidget(page, '.launcher');
  await page.locator(W.welcome).waitFor();
  await expect
    .poll(async () => {
      const seen = await onScreen(page, '.panel');
      return seen && { panel: seen.box, screen: seen.screen };
    })
    .toSatisfy((seen) => seen !== null && JSON.stringify(seen.panel) === JSON.stringify(seen.screen));
  expect(await reachable(page, '.head button[aria-label="Close"]')).toBe(true);
  expect(await reachable(page, '.composer textarea')).toBe(true);
}

/** Closes the panel with its own close button, tapped where it is on screen. */
async function tapClose(page: Page) {
  await tapWidget(page, '.head button[aria-label="Close"]');
  await expect.poll(() => onScreen(page, '.panel')).toBeNull();
}

describe('a phone on a right-to-left page wider than the screen', () => {
  it('keeps the launcher in the visible corner loaded, scrolled, panned, zoomed and short, and a tap on it opens the chat', async () => {
    const { page, pageErrors } = await e2e.open('/overflow.html?dir=rtl', PHONE);
    await page.locator(W.launcher).waitFor();
    // The page overflows on its left: its scroll origin is at the right edge (scrollX ≤ 0), and the phone's browser
    // widens the layout viewport over the whole of it.
    expect(await page.evaluate(() => [document.dir, window.scrollX < 0, window.innerWidth > 1000])).toEqual([
      'rtl',
      true,
      true,
    ]);
    const cdp = await page.context().newCDPSession(page);
    await page.mouse.move(200, 300);
    const moves: [string, () => Promise<unknown>][] = [
      ['loaded', async () => undefined],
      ['scrolled', () => page.evaluate(() => window.scrollTo({ top: 900, behavior: 'instant' }))],
      ['panned', () => page.mouse.wheel(600, 400)],
      ['pinch-zoomed', () => cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 2.5 })],
      ['zoomed and panned', () => page.mouse.wheel(-300, 200)],
    ];
    for (const [state, move] of moves) {
      await move();
      await expect.poll(() => launcherCorner(page), { message: state }).toBe('bottom-right');
      expect(await reachable(page, '.launcher'), state).toBe(true);
    }
    expect(await page.evaluate(() => window.visualViewport?.scale)).toBeGreaterThan(2);
    await tapOpen(page);
    await tapClose(page);

    // The soft keyboard (simulated: the screen shrinks) or a short screen: the launcher rises, the panel fits.
    await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 1 });
    await page.setViewportSize({ width: 390, height: 480 });
    await expect.poll(() => launcherCorner(page), { message: 'short' }).toBe('bottom-right');
    expect(await reachable(page, '.launcher')).toBe(true);
    await tapOpen(page);
    expect(pageErrors).toEqual([]);
  });

  it('keeps a right-to-left widget in the bottom-left corner of the screen, and a tap on it opens the chat', async () => {
    const { page } = await e2e.open('/plain.html', PHONE);
    await page.route(
      (url) => url.pathname === '/overflow.html',
      async (route) => {
        const response = await route.fetch();
        await route.fulfill({
          response,
          body: (await response.text()).replace('<script src=', '<script data-dir="rtl" src='),
        });
      },
    );
    await page.goto(new URL('/overflow.html?dir=rtl', page.url()).href);
    await page.locator(W.launcher).waitFor();
    await expect.poll(() => launcherCorner(page)).toBe('bottom-left');
    await page.mouse.move(200, 300);
    await page.mouse.wheel(400, 300);
    await expect.poll(() => page.evaluate(() => window.visualViewport?.offsetLeft)).toBeGreaterThan(300);
    await expect.poll(() => launcherCorner(page)).toBe('bottom-left');
    expect(await reachable(page, '.launcher')).toBe(true);
    await tapOpen(page);
  });
});

describe('a tablet turned, or a window narrowed, to a phone-sized viewport on a page wider than the screen', () => {
  it('reads no viewport sizes while wide, then keeps the launcher in the visible corner from the turn on', async () => {
    const { page, pageErrors } = await e2e.open('/overflow.html', { ...PHONE, width: 900, height: 500 });
    await page.locator(W.launcher).waitFor();
    // Wider than a phone: the phone rules do not apply, so nothing is read or written (a layout at load saved).
    const written = () =>
      page.evaluate(
        () => document.querySelector('askbox-widget')?.shadowRoot?.querySelector<HTMLElement>('.askbox')?.style.cssText,
      );
    expect(await written()).toBe('');
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    expect(await page.evaluate(() => window.innerWidth > 1000)).toBe(true);
    await expect.poll(() => launcherCorner(page)).toBe('bottom-right');
    expect(await written()).toContain('--_vw');
    await page.mouse.move(200, 300);
    await page.mouse.wheel(300, 300);
    await expect.poll(() => launcherCorner(page), { message: 'panned' }).toBe('bottom-right');
    expect(await reachable(page, '.launcher')).toBe(true);
    await tapOpen(page);
    expect(pageErrors).toEqual([]);
  });
});

describe('a phone whose soft keyboard overlays the page (VirtualKeyboard API)', () => {
  it('keeps the launcher and the open panel above the keyboard, and gives the room back when it closes', async () => {
    const { page, pageErrors } = await e2e.open('/overflow.html', PHONE);
    await page.locator(W.launcher).waitFor();
    // The site has opted in: the keyboard no longer shrinks the screen, the page reads its place instead.
    await page.evaluate(() => {
      const { virtualKeyboard } = navigator as WithKeyboard;
      if (virtualKeyboard) virtualKeyboard.overlaysContent = true;
    });
    const cdp = await page.context().newCDPSession(page);
    // Chromium's own emulation of the keyboard: navigator.virtualKeyboard.boundingRect and env(keyboard-inset-*).
    const keyboard = (open: boolean) =>
      cdp.send('Emulation.setVirtualKeyboardGeometryOverride', {
        ...(open && { keyboardRect: { x: 0, y: 544, width: 390, height: 300 } }),
      });
    const bottom = async (selector: string) => {
      const seen = await onScreen(page, selector);
      return seen && seen.box.y + seen.box.height;
    };
    await keyboard(true);
    expect(await page.evaluate(() => (navigator as WithKeyboard).virtualKeyboard?.boundingRect.top)).toBe(544);
    await expect.poll(() => bottom('.launcher')).toBeLessThanOrEqual(544);
    expect(await launcherCorner(page)).toBe('bottom-right');
    expect(await reachable(page, '.launcher')).toBe(true);

    await tapWidget(page, '.launcher');
    await page.locator(W.welcome).waitFor();
    await expect.poll(() => bottom('.panel')).toBe(544);
    expect(await bottom('.composer textarea')).toBeLessThanOrEqual(544);
    expect(await reachable(page, '.composer textarea')).toBe(true);
    expect(await reachable(page, '.head button[aria-label="Close"]')).toBe(true);

    await keyboard(false);
    await expect.poll(() => bottom('.panel')).toBe(844);
    expect(pageErrors).toEqual([]);
  });
});

import type { Page } from 'playwright-core';

/** A phone's browser: 390×844 CSS pixels, touch, and a layout viewport that widens to a page wider than the screen. */
export const PHONE = { width: 390, height: 844, mobile: true };

/** A box in CSS pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The rounded client rect of an element inside the widget, or null when it is not rendered. */
export function rect(page: Page, selector: string): Promise<Box | null> {
  return page.evaluate((sel) => {
    const el = document.querySelector('askbox-widget')?.shadowRoot?.querySelector(sel);
    if (!el) return null;
    const { x, y, width, height } = el.getBoundingClientRect();
    return { x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) };
  }, selector);
}

/** The launcher's box and the visual viewport (what the visitor sees), both in layout-viewport CSS pixels. */
export const launcherView = (page: Page) =>
  page.evaluate(() => {
    const el = document.querySelector('askbox-widget')?.shadowRoot?.querySelector('.launcher');
    const v = window.visualViewport;
    if (!el || !v) return null;
    const { x, y, width, height } = el.getBoundingClientRect();
    return { x, y, width, height, vx: v.offsetLeft, vy: v.offsetTop, vw: v.width, vh: v.height, scale: v.scale };
  });

/** Which bottom quarter of the visual viewport the launcher lies wholly inside; null when it is not on screen. */
export async function launcherCorner(page: Page): Promise<'bottom-right' | 'bottom-left' | null> {
  const l = await launcherView(page);
  if (!l) return null;
  const inside =
    l.x >= l.vx && l.y >= l.vy && l.x + l.width <= l.vx + l.vw + 0.5 && l.y + l.height <= l.vy + l.vh + 0.5;
  if (!inside || l.y < l.vy + l.vh / 2) return null;
  return l.x > l.vx + l.vw / 2 ? 'bottom-right' : 'bottom-left';
}

/** Whether the launcher lies wholly inside the visual viewport, in its bottom-right corner. */
export const launcherVisible = async (page: Page) => (await launcherCorner(page)) === 'bottom-right';

/**
 * Taps the centre of a widget element's box where it is on screen: Chromium takes touch points in the visual
 * viewport's CSS pixels (Playwright's own `tap()` misses while the page is zoomed).
 */
export async function tapWidget(page: Page, selector: string) {
  const box = await page.evaluate(async (sel) => {
    const centre = () => {
      const el = document.querySelector('askbox-widget')?.shadowRoot?.querySelector(sel);
      const v = window.visualViewport;
      const r = el?.getBoundingClientRect();
      return r && v ? { x: r.x + r.width / 2 - v.offsetLeft, y: r.y + r.height / 2 - v.offsetTop } : null;
    };
    // A zoom or a resize moves the widget a frame later: tap where it rests, the same over two frames (within 2 s).
    let last = centre();
    for (const deadline = performance.now() + 2000; performance.now() < deadline;) {
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const now = centre();
      if (now && last && now.x === last.x && now.y === last.y) return now;
      last = now;
    }
    return last;
  }, selector);
  if (!box) throw new Error(`${selector} is not on the page`);
  await page.touchscreen.tap(box.x, box.y);
}

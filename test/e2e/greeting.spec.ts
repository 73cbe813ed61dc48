import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { animationFrames, deepActive, retag, settle, startE2E, type TestPage, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({ defaults: { delayMs: 5 } });
});
afterAll(() => e2e?.close());

/** demo/pages/greeting.html's greeting, shown after one second. */
const GREETING = 'Questions about delivery or returns? Ask me.';
const G = {
  bubble: 'askbox-widget .greeting',
  words: 'askbox-widget .greeting__text',
  close: 'askbox-widget .greeting__close',
  live: 'askbox-widget .greeting__live',
  badge: 'askbox-widget .launcher__badge',
} as const;

/** Requests to the proxy (and through it the service): the greeting makes none. */
const proxyRequests = ({ requests }: TestPage) => requests.filter((r) => / \/askbox\//.test(r));
const fileRequests = ({ requests }: TestPage, kind: string) =>
  requests.filter((r) => new RegExp(`askbox-${kind}\\.[\\w-]+\\.js$`).test(r));
const go = (page: Page, path: string) => page.evaluate((to) => history.pushState(null, '', to), path);

/**
 * Runs the greeting's timer at once on the page's fake clock (`page.clock.install()`, called before the widget
 * loaded), then settles: a greeting due by then has asked for its file, and drawn its bubble.
 */
async function pastDelay(page: Page) {
  await page.clock.runFor(1_500);
  await settle(page);
}

describe('the greeting in Chromium', () => {
  it('waits its delay, then shows beside the launcher: counted by the badge, read politely, focus left alone, nothing sent', async () => {
    const opened = await e2e.open('/greeting.html');
    const { page } = opened;
    await page.locator(W.launcher).waitFor();
    // There from the start, empty: a screen reader reads what comes into a live region that is already there.
    expect(await page.locator(G.live).getAttribute('role')).toBe('status');
    expect(await page.locator(G.live).textContent()).toBe('');
    expect(await page.locator(G.bubble).count()).toBe(0);
    expect(fileRequests(opened, 'greeting')).toEqual([]);

    await page.locator(G.bubble).waitFor();
    // A second after the page started at the earliest (the timer starts as the launcher is drawn).
    expect(await page.evaluate(() => performance.now())).toBeGreaterThanOrEqual(1_000);
    expect(await page.locator(G.words).textContent()).toBe(GREETING);
    expect(await page.locator(G.live).textContent()).toBe(GREETING);
    expect(await page.locator(G.badge).textContent()).toBe('1');
    expect(await page.locator(W.launcher).getAttribute('aria-label')).toBe('Chat, 1 unread');
    expect(await page.locator(G.close).getAttribute('aria-label')).toBe('Dismiss greeting');
    expect(await deepActive(page)).toBe('body');
    await settle(page);
    expect(proxyRequests(opened)).toEqual([]);
    expect(fileRequests(opened, 'chat')).toEqual([]);
    expect(fileRequests(opened, 'greeting')).toHaveLength(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(opened.consoleErrors).toEqual([]);
    expect(opened.pageErrors).toEqual([]);
  });

  it('opens the panel with the greeting as the first bot message, sending nothing; once opened, it does not come back', async () => {
    const opened = await e2e.open('/greeting.html');
    const { page } = opened;
    await page.locator(G.words).click();
    await page.locator(W.panel).waitFor();
    expect(await page.locator(W.welcome).textContent()).toBe(GREETING);
    expect(await page.locator(G.bubble).count()).toBe(0);
    expect(await page.locator(G.badge).textContent()).toBe('');
    expect(await page.locator(G.live).textContent()).toBe('');
    // The visitor's own open: focus moves in.
    await expect.poll(() => deepActive(page)).toBe('textarea.input');
    await settle(page);
    expect(proxyRequests(opened).filter((r) => r.startsWith('POST'))).toEqual([]);

    await page.keyboard.press('Escape');
    await page.clock.install();
    await page.reload();
    await page.locator(W.launcher).waitFor();
    await pastDelay(page);
    expect(await page.locator(G.bubble).count()).toBe(0);
    expect(await page.locator(G.badge).textContent()).toBe('');
  });

  it('goes with Escape from within it, focus to the launcher, and stays gone across a reload in the session', async () => {
    const { page } = await e2e.open('/greeting.html');
    await page.locator(G.bubble).waitFor();
    await page.locator(G.words).focus();
    await page.keyboard.press('Escape');
    expect(await page.locator(G.bubble).count()).toBe(0);
    expect(await deepActive(page)).toBe('button.launcher');
    expect(await page.locator(G.badge).textContent()).toBe('');
    expect(await page.locator(W.panel).count()).toBe(0);
    await page.clock.install();
    await page.reload();
    await page.locator(W.launcher).waitFor();
    await pastDelay(page);
    expect(await page.locator(G.bubble).count()).toBe(0);
  });

  it('goes with its close button, reached by keyboard with a visible focus ring, and stays gone in the session', async () => {
    const { page } = await e2e.open('/greeting.html');
    await page.locator(G.bubble).waitFor();
    // The page has no control of its own: Tab reaches the greeting's words, then its close button.
    await page.keyboard.press('Tab');
    expect(await deepActive(page)).toBe('button.greeting__text');
    await page.keyboard.press('Tab');
    expect(await deepActive(page)).toBe('button.greeting__close');
    const ring = await page.locator(G.close).evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(ring).toBe('solid');
    await page.keyboard.press('Enter');
    expect(await page.locator(G.bubble).count()).toBe(0);
    expect(await deepActive(page)).toBe('button.launcher');
    await page.clock.install();
    await page.goto(`${e2e.url}/greeting.html`);
    await page.locator(W.launcher).waitFor();
    await pastDelay(page);
    expect(await page.locator(G.bubble).count()).toBe(0);
  });

  it('keeps to its own page rules, also across a single-page navigation', async () => {
    const { page, consoleErrors } = await e2e.open('/products/boots');
    // A fake clock from the next document on: the widget tagged below sets its timer on it.
    await page.clock.install();
    await page.reload();
    await page.locator(W.launcher).waitFor();
    await retag(page, { greeting: 'Boots run small.', greetingDelay: '1', greetingHideOn: '/products/*' });
    await page.locator(W.launcher).waitFor();
    await pastDelay(page);
    expect(await page.locator(G.bubble).count()).toBe(0);
    await go(page, '/help/returns');
    await page.locator(G.bubble).waitFor();
    await go(page, '/products/socks');
    expect(await page.locator(G.bubble).count()).toBe(0);
    expect(await page.locator(G.badge).textContent()).toBe('');
    expect(consoleErrors).toEqual([]);
  });

  it('shows on the strict-CSP page, its file and stylesheet carrying the nonce, without a violation', async () => {
    const opened = await e2e.open('/csp.html');
    const { page } = opened;
    await page.locator(W.launcher).waitFor();
    // A tag as a nonce-aware tag manager would add it: the page's nonce on it.
    await page.evaluate(() => {
      const old = document.querySelector<HTMLScriptElement>('script[data-bot-id]');
      window.Askbox?.destroy();
      const tag = document.createElement('script');
      tag.src = old?.src ?? '';
      tag.nonce = old?.nonce ?? '';
      Object.assign(tag.dataset, { ...old?.dataset, greeting: 'Strict, and still here.', greetingDelay: '1' });
      document.head.append(tag);
    });
    await page.locator(G.bubble).waitFor();
    expect(await page.locator(G.bubble).evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    expect(await page.evaluate('window.cspViolations')).toEqual([]);
    expect(fileRequests(opened, 'greeting')).toHaveLength(1);
    expect(opened.consoleErrors).toEqual([]);
  });

  it('does not move: no animation under reduced motion, a short one otherwise', async () => {
    const { page } = await e2e.open('/greeting.html');
    await page.locator(G.bubble).waitFor();
    const animation = (on: Page) => on.locator(G.bubble).evaluate((el) => getComputedStyle(el).animationName);
    // The harness emulates prefers-reduced-motion: reduce.
    expect(await animation(page)).toBe('none');
    const other = await e2e.open('/plain.html');
    await other.page.emulateMedia({ reducedMotion: 'no-preference' });
    await retag(other.page, { greeting: 'Hello!', greetingDelay: '1' });
    await other.page.locator(G.bubble).waitFor();
    expect(await animation(other.page)).toBe('greeting-in');
  });
});

/** The bubble's and the launcher's boxes, and the window's size. */
const boxes = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const box = (selector: string) => root?.querySelector(selector)?.getBoundingClientRect().toJSON() as DOMRect;
    return { bubble: box('.greeting'), launcher: box('.launcher'), width: innerWidth, height: innerHeight };
  });

describe('the greeting laid out (Chromium)', () => {
  const LONG =
    'Questions about sizes, delivery times, returns or gift cards? Ask me anything, any time: I answer at once.';
  it.each([
    ['desktop', '/plain.html', 'bottom-right', {}],
    ['desktop', '/plain.html', 'bottom-left', {}],
    ['phone', '/plain.html', 'bottom-right', { width: 360, height: 640, mobile: true }],
    ['phone', '/plain.html', 'bottom-left', { width: 360, height: 640, mobile: true }],
    ['desktop, right to left', '/rtl.html', 'bottom-right', {}],
    ['phone, right to left', '/rtl.html', 'bottom-left', { width: 360, height: 640, mobile: true }],
  ] as const)('%s (%s), %s: above the launcher, clear of it, on screen', async (_screen, path, position, size) => {
    const { page } = await e2e.open(path, size);
    await retag(page, { greeting: LONG, greetingDelay: '1', position });
    await page.locator(G.bubble).waitFor();
    const { bubble, launcher, width, height } = await boxes(page);
    expect(bubble.bottom).toBeLessThanOrEqual(launcher.top - 8);
    expect(bubble.left).toBeGreaterThanOrEqual(0);
    expect(bubble.top).toBeGreaterThanOrEqual(0);
    expect(bubble.right).toBeLessThanOrEqual(width);
    expect(bubble.bottom).toBeLessThanOrEqual(height);
    // At the launcher's side of the screen (mirrored in a right-to-left UI), flush with its outer edge.
    const outer = launcher.left < width / 2 ? 'left' : 'right';
    expect(outer).toBe((position === 'bottom-right') === (path === '/plain.html') ? 'right' : 'left');
    expect(Math.round(bubble[outer])).toBe(Math.round(launcher[outer]));
  });

  it('reads at AA in dark and forced colours (light: the first case above)', async () => {
    const { page } = await e2e.open('/plain.html');
    await retag(page, { greeting: GREETING, greetingDelay: '1', theme: 'dark' });
    await page.locator(G.bubble).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // axe-core reads the colours as they would be without forced colours (#e9eaee on the forced #fff): the
    // browser's own computed colours are measured instead.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ forcedColors: 'active', colorScheme: scheme });
      await animationFrames(page);
      for (const part of [G.words, G.close])
        expect(await forcedContrast(page, part), `${scheme} ${part}`).toBeGreaterThanOrEqual(4.5);
      // Forced colours paint the bubble's border, so its edge shows on any page.
      expect(await page.locator(G.bubble).evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe('solid');
    }
  });
});

/** The contrast of `selector`'s text on the bubble, from the browser's computed (forced) colours. */
function forcedContrast(page: Page, selector: string) {
  return page.locator(selector).evaluate((el) => {
    // oxlint-disable-next-line unicorn/consistent-function-scoping -- evaluate sends this one function alone
    const linear = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    // oxlint-disable-next-line unicorn/consistent-function-scoping -- likewise
    const luminance = (colour: string) => {
      const [r = 0, g = 0, b = 0] = (colour.match(/[\d.]+/g) ?? []).map(Number);
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    const text = luminance(getComputedStyle(el).color);
    const ground = luminance(getComputedStyle(el.closest('.greeting') as Element).backgroundColor);
    return (Math.max(text, ground) + 0.05) / (Math.min(text, ground) + 0.05);
  });
}

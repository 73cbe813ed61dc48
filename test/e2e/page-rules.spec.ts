import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, retag, settle, startE2E, type TestPage, W } from './harness';
import { LEAK_COUNTER } from './leaks';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({ defaults: { delayMs: 5 } });
});
afterAll(() => e2e?.close());

/** Navigates the way a single-page app's router does. */
const go = (page: Page, path: string) => page.evaluate((to) => history.pushState(null, '', to), path);
const widgets = (page: Page) => page.locator('askbox-widget').count();
const chatRequests = ({ requests }: TestPage) => requests.filter((r) => /askbox-chat\.[\w-]+\.js$/.test(r));

/** Waits out the script's boot: loaded (the tag has run), then settled, so anything it would draw or fetch is seen. */
async function booted(page: Page) {
  await page.waitForLoadState('load');
  await settle(page);
}

describe('page rules in Chromium', () => {
  it('keeps off /checkout/* at no cost, and follows pushState there and back', async () => {
    const opened = await e2e.open('/checkout/cart');
    const { page } = opened;
    await booted(page);
    expect(await widgets(page)).toBe(0);
    expect(chatRequests(opened)).toEqual([]);

    await go(page, '/products');
    await page.locator(W.launcher).waitFor();
    expect(chatRequests(opened)).toEqual([]);

    await go(page, '/checkout/cart');
    expect(await widgets(page)).toBe(0);
    await go(page, '/products/boots');
    await page.locator(W.launcher).waitFor();
    expect(opened.consoleErrors).toEqual([]);
    expect(opened.pageErrors).toEqual([]);
  });

  it('holds nothing on a page it is kept off but the navigation listener, and lets go of all it drew there', async () => {
    const { page } = await e2e.open('/rules.html');
    await page.addInitScript({ content: LEAK_COUNTER });
    await page.goto(`${e2e.url}/checkout/cart`);
    await booted(page);
    // The page's own listeners (its router's click and popstate), and ours: back and forward.
    const hidden = {
      elements: 0,
      listeners: ['#document click', 'window popstate', 'window popstate', '#document askbox:tag'],
      timers: 0,
      frames: 0,
      observers: 0,
      documentSheets: 0,
      global: true,
    };
    expect(await page.evaluate('window.leaks()')).toEqual(hidden);
    await go(page, '/products');
    await page.locator(W.launcher).hover();
    await page.locator(W.launcher).click();
    await page.locator(W.panel).waitFor();
    await go(page, '/checkout/cart');
    // What the widget had queued (a render, a frame) finishes; anything still held after that is a leak.
    await expect.poll(() => page.evaluate('window.leaks()'), { timeout: 5_000 }).toEqual(hidden);
  });

  it('takes an open panel away at the checkout and brings it back with the conversation', async () => {
    const { page, consoleErrors } = await e2e.open('/products');
    await ask(page, 'What are the delivery times?');
    await page.locator(W.bot).waitFor();
    await go(page, '/checkout/cart');
    expect(await widgets(page)).toBe(0);
    await page.goBack();
    await page.locator(W.bot).waitFor();
    expect(await page.locator(W.panel).isVisible()).toBe(true);
    expect(await page.locator('askbox-widget .msg--user').textContent()).toContain('What are the delivery times?');
    // Page calls wait for a page the widget is allowed on.
    await go(page, '/checkout/pay');
    await page.evaluate(() => window.Askbox?.open());
    expect(await widgets(page)).toBe(0);
    expect(consoleErrors).toEqual([]);
  });

  it('follows a router without the Navigation API through pushState wrapped after ours, and popstate', async () => {
    const { page } = await e2e.open('/rules.html');
    await page.addInitScript(() => Object.defineProperty(window, 'navigation', { value: undefined }));
    await page.goto(`${e2e.url}/checkout/cart`);
    await booted(page);
    expect(await widgets(page)).toBe(0);
    const pushState = await page.evaluate(() => {
      // A router's own wrapper, installed after Askbox's: it must still reach ours.
      const ours = history.pushState;
      history.pushState = function (...args: Parameters<History['pushState']>) {
        (window as unknown as { routed: number }).routed = 1;
        ours.apply(this, args);
      };
      history.pushState({ step: 1 }, '', '/products');
      return { routed: (window as unknown as { routed: number }).routed, state: history.state as unknown };
    });
    expect(pushState).toEqual({ routed: 1, state: { step: 1 } });
    await page.locator(W.launcher).waitFor();
    await page.evaluate(() => history.back());
    await page.waitForFunction(() => location.pathname === '/checkout/cart');
    await page.locator('askbox-widget').waitFor({ state: 'detached' });
    await page.evaluate(() => history.replaceState(null, '', '/help/faq'));
    await page.locator(W.launcher).waitFor();
  });

  it('shows only on /help/* with data-show-on', async () => {
    const { page, consoleErrors } = await e2e.open('/products');
    await page.locator(W.launcher).waitFor();
    await retag(page, { showOn: '/help/*' });
    await booted(page);
    expect(await widgets(page)).toBe(0);
    await go(page, '/help/faq');
    await page.locator(W.launcher).waitFor();
    await go(page, '/help');
    expect(await widgets(page)).toBe(0);
    expect(consoleErrors).toEqual([]);
  });

  it('logs one error for a pattern that is not a path, and mounts nothing', async () => {
    const { page, consoleErrors, pageErrors } = await e2e.open('/products');
    await page.locator(W.launcher).waitFor();
    await retag(page, { hideOn: 'checkout/*' });
    await booted(page);
    expect(await widgets(page)).toBe(0);
    expect(consoleErrors).toEqual([
      expect.stringContaining('data-hide-on "checkout/*" is not a path pattern such as "/checkout/*"'),
    ]);
    expect(consoleErrors[0]).toContain('[askbox] The chat widget was not loaded');
    expect(pageErrors).toEqual([]);
  });
});

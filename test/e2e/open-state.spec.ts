import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retag, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({ defaults: { delayMs: 5 } });
});
afterAll(() => e2e?.close());

/**
 * Counts each document's reads of `window.sessionStorage` (the getter whose first call is the browser's round trip
 * to its storage process) in `window.sessionReads`, from before any script of the page runs.
 */
function countSessionReads(page: Page) {
  return page.addInitScript(() => {
    let owner: object | null = window;
    while (owner && !Object.getOwnPropertyDescriptor(owner, 'sessionStorage')) owner = Object.getPrototypeOf(owner);
    const read = owner && Object.getOwnPropertyDescriptor(owner, 'sessionStorage')?.get;
    const counted = window as unknown as { sessionReads: number };
    counted.sessionReads = 0;
    Object.defineProperty(window, 'sessionStorage', {
      configurable: true,
      get() {
        counted.sessionReads++;
        return read?.call(window);
      },
    });
  });
}

/**
 * After the widget booted and, if it reopens its panel, opened it: whether it did, and the session reads it made. The
 * widget decides at boot, and draws a reopening panel (its loading frame first) in the same task as the launcher: with
 * the launcher there, the panel is there too, or it does not come.
 */
async function settled(page: Page) {
  await page.locator(W.launcher).waitFor();
  const open = (await page.locator(W.panel).count()) > 0;
  if (open) await page.locator(W.welcome).waitFor();
  return {
    open,
    reads: await page.evaluate(() => (window as unknown as { sessionReads: number }).sessionReads),
  };
}

describe('the open state, read only where the session can remember one', () => {
  it('reopens after a link of the site, back and forward, and a reload; a landing from elsewhere reads nothing', async () => {
    const { page, pageErrors, consoleErrors } = await e2e.open('/plain.html');
    await countSessionReads(page);
    await page.locator(W.launcher).click();
    await page.locator(W.welcome).waitFor();

    // A link of the site's own: the referrer is of the page's origin.
    await page.evaluate(() => location.assign('/plain.html?page=2'));
    await page.waitForURL(/page=2/);
    const next = await settled(page);
    expect([next.open, next.reads > 0]).toEqual([true, true]);

    // From a search engine: the panel starts as the page says, and sessionStorage is not touched.
    await page.goto(`${e2e.url}/plain.html?page=landing`, { referer: 'https://www.google.com/' });
    expect(await page.evaluate(() => document.referrer)).toBe('https://www.google.com/');
    expect(await settled(page)).toEqual({ open: false, reads: 0 });

    // On through the site (reopened: the session still remembers the panel open), then back to the landing page:
    // a back navigation, whose referrer is still the search engine's, reads the state and reopens.
    await page.evaluate(() => location.assign('/plain.html?page=3'));
    await page.waitForURL(/page=3/);
    expect((await settled(page)).open).toBe(true);
    await page.goBack();
    await page.waitForURL(/page=landing/);
    expect(await page.evaluate(() => performance.getEntriesByType('navigation')[0]?.toJSON().type)).toBe(
      'back_forward',
    );
    const back = await settled(page);
    expect([back.open, back.reads > 0]).toEqual([true, true]);

    // A reload of it likewise.
    await page.reload();
    const reloaded = await settled(page);
    expect([reloaded.open, reloaded.reads > 0]).toEqual([true, true]);
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('opens a data-open panel on a landing from elsewhere, though the session remembers it closed', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.evaluate(() => sessionStorage.setItem('askbox:v1:open:askboxDemo01@/askbox', '0'));
    await page.goto(`${e2e.url}/plain.html?landing`, { referer: 'https://news.example/' });
    await page.locator(W.launcher).waitFor();
    await retag(page, { open: 'true' });
    // The remembered close is not read at load: the page's data-open decides, and the open it shows is kept.
    await page.locator(W.welcome).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('askbox:v1:open:askboxDemo01@/askbox'))).toBe('1');
  });
});

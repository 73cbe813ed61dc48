import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepActive, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const CHAT_FILE = readdirSync(DIST).find((name) => /^askbox-chat\.[\w-]+\.js$/.test(name)) ?? 'missing';
const CHAT = /\/askbox-chat\.[\w-]+\.js$/;
const FRAME = 'askbox-widget .pending';
/** Askbox's own console errors (Chromium adds its own lines for a failed or refused resource). */
const ours = (errors: string[]) => errors.filter((line) => line.startsWith('[askbox]'));

describe('the chat file, pinned by its sha384', () => {
  it('refuses a tampered copy: a notice with Retry in the panel frame, one console error naming URL and reason', async () => {
    const { page, consoleErrors, pageErrors } = await e2e.open('/plain.html');
    const genuine = readFileSync(`${DIST}${CHAT_FILE}`, 'utf8');
    // One character more: an attacker's line on a CDN would do the same to the hash.
    let tampered = 0;
    await page.route(CHAT, (route) => {
      tampered += 1;
      return route.fulfill({ contentType: 'text/javascript', body: `${genuine};window.tampered=1` });
    });
    await page.locator(W.launcher).click();
    await page.locator(`${FRAME} [role="alert"]`).filter({ hasText: 'The chat could not be loaded.' }).waitFor();
    // The tampered code never ran, and the page goes on.
    expect(await page.evaluate(() => 'tampered' in window)).toBe(false);
    expect(await page.locator(FRAME).getAttribute('role')).toBe('dialog');
    expect(await page.locator(W.input).count()).toBe(0);
    expect(await deepActive(page)).toBe('button.pending__retry');
    expect(ours(consoleErrors)).toHaveLength(1);
    expect(ours(consoleErrors)[0]).toContain(`${e2e.url}/${CHAT_FILE}`);
    expect(ours(consoleErrors)[0]).toMatch(
      /: its integrity check failed: it is not the file this askbox\.js was built with \(sha384-[\w+/=]+\)$/,
    );
    expect(pageErrors).toEqual([]);

    // Retry fetches it again: the genuine file now, and the chat opens in the frame's place.
    await page.unroute(CHAT);
    await page.locator(`${FRAME} .pending__retry`).click();
    await page.locator(W.input).waitFor();
    expect(await page.locator(FRAME).count()).toBe(0);
    expect(tampered).toBeGreaterThanOrEqual(1);
    expect(ours(consoleErrors)).toHaveLength(1);
  });

  it('says why it is missing (404) or cannot be fetched (offline), and the launcher closes the notice', async () => {
    const { page, consoleErrors } = await e2e.open('/plain.html');
    await page.route(CHAT, (route) => route.fulfill({ status: 404, body: 'Not found' }));
    await page.locator(W.launcher).click();
    await page.locator(`${FRAME} [role="alert"]`).waitFor();
    expect(ours(consoleErrors)).toEqual([expect.stringMatching(/askbox-chat\.[\w-]+\.js: the server answered 404$/)]);
    expect(await page.locator(W.launcher).getAttribute('aria-expanded')).toBe('true');
    await page.locator(W.launcher).click();
    expect(await page.locator(FRAME).count()).toBe(0);
    expect(await page.locator(W.launcher).getAttribute('aria-expanded')).toBe('false');

    await page.unroute(CHAT);
    await page.context().setOffline(true);
    await page.locator(W.launcher).click();
    await page.locator(`${FRAME} [role="alert"]`).waitFor();
    expect(ours(consoleErrors)[1]).toMatch(/: the browser is offline$/);
    await page.context().setOffline(false);
    await page.locator(`${FRAME} .pending__retry`).click();
    await page.locator(W.input).waitFor();
  });

  it('reports a failed load in the self-diagnosis overlay', async () => {
    const { page } = await e2e.open('/plain.html?askbox-debug=1');
    await page.route(CHAT, (route) => route.fulfill({ status: 404, body: 'Not found' }));
    const overlay = 'askbox-widget [role="dialog"][aria-labelledby="askbox-debug-title"]';
    await page.locator(overlay).waitFor();
    await page.locator(W.launcher).hover();
    await page
      .locator(`${overlay} li`)
      .filter({ hasText: /^Problem: The chat could not be loaded from .+: the server answered 404/ })
      .waitFor();
  });
});

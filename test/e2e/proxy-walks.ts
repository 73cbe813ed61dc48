/**
 * Walks every proxy runtime takes in Chromium (php-proxy.spec.ts, workerd-proxy.spec.ts; the Node proxy's are
 * signed-in.spec.ts and consent.spec.ts): a signed-in person's conversations from a second browser, and the consent
 * gate, before which the proxy hears nothing.
 */
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { CHAT_TEXT } from '../../src/config/chat-text';
import { ask, retag, settle, W } from './harness';

/**
 * What a visit gives a walk: the page, the requests it made of the proxy (`METHOD /path`) and its uncaught errors,
 * as they happen.
 */
export interface Visit {
  page: Page;
  calls: string[];
  pageErrors: string[];
}

/** A fresh browser context (another device) at `url`, its launcher drawn, recording its requests to `proxyOrigin`. */
export async function visitWithProxy(browser: Browser, url: string, proxyOrigin: string): Promise<Visit> {
  const page = await (await browser.newContext({ viewport: { width: 1000, height: 760 } })).newPage();
  const calls: string[] = [];
  page.on('request', (request) => {
    const { origin, pathname } = new URL(request.url());
    if (origin === proxyOrigin) calls.push(`${request.method()} ${pathname}`);
  });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(url);
  await page.locator(W.launcher).waitFor();
  return { page, calls, pageErrors };
}

/** Opens the signed-in person's list from the header's menu, and waits for the proxy's answer. */
export async function openList(page: Page): Promise<void> {
  await page.locator('askbox-widget button[aria-haspopup="menu"]').click();
  await page.locator(`askbox-widget [role="menuitem"]:text-is("${CHAT_TEXT.conversations}")`).click();
  await page.locator('askbox-widget .convos[aria-busy="false"]').waitFor();
}

/** The titles in the signed-in person's list, opened from the header's menu once the proxy has answered. */
async function listed(page: Page): Promise<string[]> {
  await openList(page);
  return page.locator('askbox-widget .convos li button span').allTextContents();
}

/**
 * Alice asks in one browser and finds the conversation, with its history, in a second; Bob's list is empty.
 * `visit(path)` opens a fresh browser context on that path of the demo (whose `signed-in.html` signs the tag).
 */
export async function walkSignedIn(visit: (path: string) => Promise<Visit>): Promise<void> {
  const signedIn = async (user: string) => {
    const { page } = await visit(`/signed-in.html?user=${user}`);
    await page.locator(W.launcher).click();
    await page.locator(W.input).waitFor();
    return page;
  };
  const first = await signedIn('alice');
  await ask(first, 'How long does delivery take?');
  await expect.poll(() => first.locator(W.bot).count(), { timeout: 15_000 }).toBe(1);
  expect(await first.locator(W.bot).textContent()).toMatch(/deliver|ship/i);
  const second = await signedIn('alice');
  expect(await listed(second)).toEqual(['How long does delivery take?']);
  await second.keyboard.press('Enter');
  await expect.poll(() => second.locator(W.bot).count(), { timeout: 10_000 }).toBe(1);
  expect(await second.locator(W.user).textContent()).toContain('How long does delivery take?');
  expect(await listed(await signedIn('bob'))).toEqual([]);
}

/**
 * Tags the visit's page with a consent text: a question asked before Accept reaches the proxy not at all; after
 * Accept, it is answered.
 */
export async function walkConsent({ page, calls }: Visit): Promise<void> {
  await retag(page, { consent: 'I agree to the [privacy policy](https://example.com/privacy).' });
  await page.locator(W.launcher).waitFor();
  const before = calls.length;
  // Typed and sent before accepting: the gate holds it.
  await ask(page, 'How long does delivery take?');
  await page.locator('askbox-widget .consent__accept').waitFor();
  await settle(page);
  expect(calls.slice(before)).toEqual([]);
  await page.locator('askbox-widget .consent__accept').click();
  await page.locator(W.input).press('Enter');
  await expect.poll(() => page.locator(W.bot).count(), { timeout: 15_000 }).toBe(1);
  expect(await page.locator(W.bot).textContent()).toMatch(/deliver|ship/i);
  expect(calls.slice(before)).toContain('POST /askbox/conversations');
}

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { CHAT_TEXT } from '../../src/config/chat-text';
import { readmeBlock } from '../helpers/readme';
import { axeViolations } from './axe';
import { deepActive, retag, settle, startE2E, W } from './harness';

/**
 * The consent gate (issue 35, item 3) in Chromium, against the simulator through the demo's proxy: nothing reaches
 * the proxy or the page's storage before the visitor accepts; Accept, Decline and a second look by keyboard, with
 * focus after each; the choice remembered over a reload; the `consent` event; the gate clear of header and composer.
 */

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({ replies: [{ match: 'parcel', text: 'Your parcel is on its way.' }] });
});
afterAll(() => e2e?.close());

/** The consent text of the README's copy-paste example: the walks below run on what a site would paste. */
const CONSENT = /data-consent="([^"]+)"/.exec(readmeBlock('Consent before the first message', 'html'))![1]!;
const CONSENT_KEY = `local:askbox:v1:consent:${DEMO_BOT_ID}@/askbox`;
const GATE = 'askbox-widget .consent';
const ACCEPT = `${GATE} .consent__accept`;

/**
 * Records every write to the page's storage from now on (`local:` or `session:` and the key; a removal with `-`
 * before it), and the widget's `consent` events, then puts the widget with the consent text on the page in place of
 * the page's own.
 */
async function gatedWidget(page: Page) {
  await page.locator(W.launcher).waitFor();
  await page.evaluate(() => {
    const log: string[] = [];
    (window as unknown as { storageWrites: string[] }).storageWrites = log;
    const { setItem, removeItem } = Storage.prototype;
    Storage.prototype.setItem = function (key: string, value: string) {
      log.push(`${this === localStorage ? 'local' : 'session'}:${key}`);
      setItem.call(this, key, value);
    };
    Storage.prototype.removeItem = function (key: string) {
      log.push(`-${this === localStorage ? 'local' : 'session'}:${key}`);
      removeItem.call(this, key);
    };
  });
  // A consent manager's own attribute beside ours: left to it, with no warning.
  await retag(page, { consent: CONSENT, consentCategory: 'functional' });
  await page.waitForFunction(() => window.Askbox !== undefined);
  await page.locator(W.launcher).waitFor();
  await page.evaluate(() => {
    const events: unknown[] = [];
    (window as unknown as { consents: unknown[] }).consents = events;
    window.Askbox?.on('consent', (detail) => events.push(detail));
  });
}

const writes = (page: Page) => page.evaluate(() => (window as unknown as { storageWrites: string[] }).storageWrites);
const consents = (page: Page) => page.evaluate(() => (window as unknown as { consents: unknown[] }).consents);
/** The requests to the proxy (`/askbox/…`) since `from`. */
const proxied = (requests: string[], from = 0) => requests.slice(from).filter((r) => / \/askbox\//.test(r));

/** Opens the panel from the keyboard: focus on the launcher, Enter. */
async function openByKeyboard(page: Page) {
  await page.locator(W.launcher).focus();
  await page.keyboard.press('Enter');
  await page.locator(W.panel).waitFor();
}

/** Whether the focused element in the widget shows a focus ring. */
const ringed = (page: Page) =>
  page.evaluate(() => {
    const el = document.querySelector('askbox-widget')?.shadowRoot?.activeElement;
    return el ? getComputedStyle(el).outlineStyle !== 'none' && el.matches(':focus-visible') : false;
  });

/**
 * Measures the panel's header, the gate and the composer: in that order, top to bottom, none overlapping another,
 * all inside the panel.
 */
async function expectApart(page: Page) {
  const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
  const [panel, head, gate, composer] = await Promise.all(
    [W.panel, 'askbox-widget .head', GATE, 'askbox-widget .composer'].map(box),
  );
  expect(head!.y).toBeGreaterThanOrEqual(panel!.y);
  expect(gate!.y).toBeGreaterThanOrEqual(head!.y + head!.height);
  expect(gate!.y + gate!.height).toBeLessThanOrEqual(composer!.y);
  expect(composer!.y + composer!.height).toBeLessThanOrEqual(panel!.y + panel!.height);
}

describe('the consent gate', () => {
  it('lets nothing reach the proxy or storage before Accept, then chats: by keyboard, focus after each step', async () => {
    const { page, requests, consoleErrors, consoleWarnings, pageErrors } = await e2e.open('/plain.html');
    await gatedWidget(page);
    const before = requests.length;
    await openByKeyboard(page);
    await page.locator(ACCEPT).waitFor();
    expect(consoleWarnings).toEqual([]);
    expect(await deepActive(page)).toBe('button.consent__accept');
    expect(await ringed(page)).toBe(true);
    const link = page.locator(`${GATE} a`);
    expect([await link.getAttribute('href'), await link.getAttribute('target')]).toEqual([
      'https://example.com/privacy',
      '_blank',
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => window.Askbox?.setTheme('dark'));
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => window.Askbox?.setTheme('auto'));

    // Typed before accepting: kept in the box, not sent; Enter moves to Accept.
    await page.locator(W.input).fill('Where is my parcel?');
    await page.locator(W.input).press('Enter');
    expect(await deepActive(page)).toBe('button.consent__accept');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    await settle(page);
    expect(proxied(requests, before)).toEqual([]);
    expect(await writes(page)).toEqual([]);

    // Clear of the header and the composer, inside the panel.
    await expectApart(page);

    await page.keyboard.press('Enter');
    await page.locator(GATE).waitFor({ state: 'detached' });
    expect(await deepActive(page)).toBe('textarea.input');
    expect(await page.locator(W.input).inputValue()).toBe('Where is my parcel?');
    expect(await consents(page)).toEqual([{ accepted: true }]);
    await settle(page);
    // Accepting sends nothing the visitor typed.
    expect(proxied(requests, before).filter((r) => r.includes('/messages'))).toEqual([]);
    expect(await writes(page)).toEqual([CONSENT_KEY]);

    await page.keyboard.press('Enter');
    await page.locator(W.bot, { hasText: 'on its way' }).waitFor();
    expect(await deepActive(page)).toBe('textarea.input');
    expect(proxied(requests, before)).toContain('POST /askbox/conversations');
    expect(await writes(page)).toContain(`local:askbox:v1:conversation:${DEMO_BOT_ID}@/askbox`);

    // A reload remembers the choice: no gate, focus in the box, the conversation read back.
    await page.reload();
    await gatedWidget(page);
    await openByKeyboard(page);
    await page.locator(W.user, { hasText: 'Where is my parcel?' }).waitFor();
    expect(await page.locator(GATE).count()).toBe(0);
    expect(await deepActive(page)).toBe('textarea.input');
    expect(await consents(page)).toEqual([]);
    expect([consoleErrors, pageErrors]).toEqual([[], []]);
  });

  it('after Decline sends nothing and stores only the refusal; "Read it again" leads back to Accept', async () => {
    const { page, requests, consoleErrors, pageErrors } = await e2e.open('/plain.html');
    await gatedWidget(page);
    const before = requests.length;
    await openByKeyboard(page);
    await page.locator(ACCEPT).waitFor();
    await page.keyboard.press('Tab');
    expect(await deepActive(page)).toBe('button.link-button');
    await page.keyboard.press('Enter');
    await page.locator(GATE, { hasText: CHAT_TEXT.consentDeclined }).waitFor();
    expect(await deepActive(page)).toBe('button.link-button');
    expect(await ringed(page)).toBe(true);
    expect(await page.locator(W.input).isDisabled()).toBe(true);
    expect(await consents(page)).toEqual([{ accepted: false }]);
    expect(await axeViolations(page)).toEqual([]);
    await expectApart(page);
    await settle(page);
    expect(proxied(requests, before)).toEqual([]);
    expect(await writes(page)).toEqual([CONSENT_KEY]);

    // Remembered over a reload, still with nothing sent.
    await page.reload();
    await gatedWidget(page);
    const reloaded = requests.length;
    await openByKeyboard(page);
    await page.locator(GATE, { hasText: CHAT_TEXT.consentDeclined }).waitFor();
    expect(await deepActive(page)).toBe('button.link-button');
    await page.keyboard.press('Enter');
    await page.locator(ACCEPT).waitFor();
    expect(await deepActive(page)).toBe('button.consent__accept');
    await settle(page);
    expect(proxied(requests, reloaded)).toEqual([]);
    expect(await writes(page)).toEqual([]);
    expect([consoleErrors, pageErrors]).toEqual([[], []]);
  });

  it('keeps the gate and the composer apart with the longest text on a short phone screen', async () => {
    const { page } = await e2e.open('/plain.html', { width: 390, height: 480, mobile: true });
    await page.locator(W.launcher).waitFor();
    await retag(page, { consent: `${'Long terms. '.repeat(80)}[Privacy](https://example.com/privacy)` });
    await page.waitForFunction(() => window.Askbox !== undefined);
    await page.locator(W.launcher).waitFor();
    await page.locator(W.launcher).click();
    await page.locator(ACCEPT).waitFor();
    await expectApart(page);
    // The text scrolls inside the gate; Accept is reached there.
    await page.locator(ACCEPT).scrollIntoViewIfNeeded();
    expect(await page.locator(ACCEPT).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('works on the strict-CSP page: the gate styled by the nonced stylesheet, Accept and a reply, no violation', async () => {
    const { page, consoleErrors, pageErrors } = await e2e.open('/csp.html');
    // The page's own tag, with the consent text: served as the site would serve it.
    await page.route('**/csp.html', async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(' data-bot-id=', ` data-consent="${CONSENT}" data-bot-id=`);
      await route.fulfill({ response, body: html });
    });
    await page.reload();
    await page.locator(W.launcher).click();
    await page.locator(ACCEPT).waitFor();
    const background = await page.locator(ACCEPT).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).not.toBe('rgba(0, 0, 0, 0)');
    await page.locator(ACCEPT).click();
    await page.locator(W.input).fill('Where is my parcel?');
    await page.locator(W.input).press('Enter');
    await page.locator(W.bot, { hasText: 'on its way' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    expect([...consoleErrors, ...pageErrors]).toEqual([]);
  });

  it('with a text over the limit, mounts nothing (a widget that cannot ask does not chat) and says so once', async () => {
    const { page, consoleErrors, pageErrors, requests } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    await retag(page, { consent: 'x'.repeat(1001) });
    await expect.poll(() => consoleErrors.length).toBe(1);
    expect(consoleErrors[0]).toContain('data-consent is longer than 1000 characters');
    await settle(page);
    expect(await page.locator('askbox-widget').count()).toBe(0);
    expect(proxied(requests)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

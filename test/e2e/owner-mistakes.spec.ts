import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, settle, startE2E, W, type TestPage } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const UNAVAILABLE = "This chat isn't available right now.";

/** The console lines of ours, `[askbox]` first. */
const ours = (lines: string[]) => lines.filter((line) => line.startsWith('[askbox]'));

/**
 * The injected page's widget replaced by one from a script tag carrying exactly `attributes`, named as the site
 * owner writes them (`data-botid`); `{{BOT_ID}}` stands for the page's bot id. Resolves once the page's own widget
 * and its console lines are gone.
 */
async function tagWith(opened: TestPage, attributes: Record<string, string>) {
  const { page, consoleErrors, consoleWarnings } = opened;
  await page.locator(W.launcher).waitFor();
  await page.evaluate((given) => {
    const botId = document.querySelector<HTMLScriptElement>('script[data-bot-id]')?.dataset.botId ?? '';
    window.Askbox?.destroy();
    const script = document.createElement('script');
    script.src = '/askbox.js';
    for (const [name, value] of Object.entries(given)) script.setAttribute(name, value.replace('{{BOT_ID}}', botId));
    document.head.append(script);
  }, attributes);
  consoleErrors.length = 0;
  consoleWarnings.length = 0;
}

/** Waits until `lines` holds `count` lines of ours. */
async function ourLines(page: Page, lines: string[], count: number) {
  await expect.poll(() => ours(lines).length, { timeout: 5000 }).toBe(count);
  // Whatever else the page was about to log is in too.
  await settle(page);
  return ours(lines);
}

describe("the site owner's mistakes reach the owner, not the visitor", () => {
  it('a bot id the proxy does not serve: the visitor reads one calm sentence, the console names cause and fix', async () => {
    const { page, consoleErrors } = await e2e.open('/');
    // The tag names a bot the proxy does not serve: its own 422 comes back.
    await page.route('**/askbox/conversations', (route) =>
      route.continue({
        postData: route
          .request()
          .postData()
          ?.replace(/"bot_id":"[^"]*"/, '"bot_id":"wrongBot0000"'),
      }),
    );
    await ask(page, 'Hello?');
    const alert = page.locator(W.alert);
    await alert.waitFor();
    expect(await alert.textContent()).toContain(UNAVAILABLE);
    expect(await alert.textContent()).not.toContain('bot id');
    const logged = ours(consoleErrors);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/does not serve bot \w+: add it to botIds, or fix data-bot-id/);
  });

  it('an unreachable proxy while the browser is online is not blamed on the connection', async () => {
    const { page, consoleErrors } = await e2e.open('/');
    // What a missing CORS origin looks like from the page: a network error, the browser online.
    await page.route('**/askbox/**', (route) => route.abort('failed'));
    await ask(page, 'Hello?');
    const alert = page.locator(W.alert);
    await alert.waitFor();
    expect(await alert.textContent()).toContain(UNAVAILABLE);
    expect(await alert.textContent()).not.toMatch(/connection/i);
    expect(await page.locator(W.user).textContent()).not.toMatch(/connection/i);
    const logged = ours(consoleErrors);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/is unreachable.*allowedOrigins/);
  });

  it.each([
    // A static site's 404 page for a path it does not have (the demo server itself, no route involved).
    ['a 404 of the site itself', '/not-the-proxy', undefined, 'answered 404 text/plain'],
    // A static host's HTML 404 page.
    ['a static 404 page', '/static-site/askbox', { status: 404, html: true }, 'answered 404 text/html'],
    // `python -m http.server`: 404 for GET, 501 (HTML) for POST.
    ['a 501 for a POST', '/python-server/askbox', { status: 501, html: true }, 'answered 501 text/html'],
  ])(
    'a data-proxy-url answered by another server (%s) is not "something went wrong"',
    async (_, proxyUrl, answer, said) => {
      const opened = await e2e.open('/dynamic.html');
      const { page, consoleErrors } = opened;
      if (answer)
        await page.route(`**${proxyUrl}/**`, (route) =>
          route.fulfill({
            status: route.request().method() === 'POST' ? answer.status : 404,
            contentType: 'text/html; charset=utf-8',
            body: `<!doctype html><title>Error</title><h1>Error ${answer.status}</h1>`,
          }),
        );
      await tagWith(opened, { 'data-bot-id': '{{BOT_ID}}', 'data-proxy-url': proxyUrl });
      await ask(page, 'Hello?');
      const alert = page.locator(W.alert);
      await alert.waitFor();
      expect(await alert.textContent()).toContain(UNAVAILABLE);
      expect(await alert.textContent()).not.toMatch(/went wrong/i);
      const errors = await ourLines(page, consoleErrors, 1);
      expect(errors).toEqual([`[askbox] Proxy ${proxyUrl} ${said}, not the Askbox proxy: is data-proxy-url right?`]);
    },
  );
});

describe('typos in the settings are named as written, with the setting meant', () => {
  it('data-botid alone: the missing bot id is an error, and data-botid is named with data-bot-id', async () => {
    const opened = await e2e.open('/dynamic.html');
    await tagWith(opened, { 'data-botid': '{{BOT_ID}}', 'data-proxy-url': '/askbox' });
    const warnings = await ourLines(opened.page, opened.consoleWarnings, 1);
    const errors = ours(opened.consoleErrors);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/misconfigured:\n  - data-bot-id is required/);
    expect(warnings).toEqual([
      '[askbox] The <script> tag has attributes Askbox does not know: data-botid (did you mean data-bot-id?)',
    ]);
    expect(await opened.page.locator('askbox-widget').count()).toBe(0);
  });

  it('data-positon next to data-theme="drak": both are reported', async () => {
    const opened = await e2e.open('/dynamic.html');
    await tagWith(opened, {
      'data-bot-id': '{{BOT_ID}}',
      'data-proxy-url': '/askbox',
      'data-positon': 'bottom-left',
      'data-theme': 'drak',
    });
    const warnings = await ourLines(opened.page, opened.consoleWarnings, 1);
    const errors = ours(opened.consoleErrors);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/misconfigured:\n  - data-theme "drak" must be one of/);
    expect(warnings).toEqual([
      '[askbox] The <script> tag has attributes Askbox does not know: data-positon (did you mean data-position?)',
    ]);
  });

  it('data-text-sned is named as written, with data-text-send, once the chat loads', async () => {
    const opened = await e2e.open('/dynamic.html');
    await tagWith(opened, { 'data-bot-id': '{{BOT_ID}}', 'data-proxy-url': '/askbox', 'data-text-sned': 'Go' });
    await opened.page.locator(W.launcher).click();
    await opened.page.locator(W.input).waitFor();
    const warnings = await ourLines(opened.page, opened.consoleWarnings, 1);
    expect(warnings).toEqual([
      '[askbox] Askbox has no UI strings for these text keys: data-text-sned (did you mean data-text-send?)',
    ]);
    expect(ours(opened.consoleErrors)).toEqual([]);
  });

  it('an <askbox-chat> attribute is named without the data- prefix', async () => {
    const { page, consoleErrors, consoleWarnings } = await e2e.open('/element.html');
    await page.locator('askbox-widget').first().waitFor();
    consoleErrors.length = 0;
    await page.evaluate(() => {
      const chat = document.createElement('askbox-chat');
      chat.setAttribute('botid', 'yiu456ytyUjk');
      chat.setAttribute('proxy-url', '/askbox');
      chat.setAttribute('positon', 'bottom-left');
      document.body.append(chat);
    });
    const warnings = await ourLines(page, consoleWarnings, 1);
    expect(warnings).toEqual([
      '[askbox] The <askbox-chat> element has attributes Askbox does not know: botid (did you mean bot-id?), positon (did you mean position?)',
    ]);
    expect(ours(consoleErrors)).toEqual([expect.stringMatching(/element is misconfigured:\n  - bot-id is required/)]);
  });
});

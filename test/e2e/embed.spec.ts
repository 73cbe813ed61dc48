import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countDifferentPixels } from '../helpers/png';
import { animationFrames, ask, holdChatFile, retag, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({
    defaults: { delayMs: 5 },
    replies: [
      {
        match: 'styled',
        text: '## Heading\n\nSome **bold** text, `code` and a [link](https://example.test).\n\n- one\n- two\n\n> quote',
      },
    ],
  });
});
afterAll(() => e2e?.close());

describe('embedding on real pages', () => {
  it('logs one clear error for a misconfigured tag, mounts nothing, and leaves the page working', async () => {
    const { page, consoleErrors, pageErrors } = await e2e.open('/misconfigured.html');
    await page.waitForLoadState('load');
    await page.getByRole('button', { name: 'Clicked 0 times' }).click();
    expect(await page.getByRole('button').textContent()).toBe('Clicked 1 times');
    expect(consoleErrors).toHaveLength(1);
    expect(consoleErrors[0]).toContain('[askbox]');
    expect(consoleErrors[0]).toContain('data-bot-id is required');
    expect(consoleErrors[0]).toContain('data-position "top-middle" must be one of bottom-right, bottom-left');
    expect(pageErrors).toEqual([]);
    expect(await page.locator('askbox-widget').count()).toBe(0);
    expect(await page.evaluate(() => 'Askbox' in window)).toBe(false);
  });

  it('mounts one widget when the script is loaded twice', async () => {
    const { page, consoleErrors } = await e2e.open('/twice.html');
    await page.waitForLoadState('load');
    await page.locator(W.launcher).waitFor();
    // Both copies of the script ran before the load event; what they drew is drawn two frames later.
    await animationFrames(page);
    expect(await page.locator('askbox-widget').count()).toBe(1);
    expect(consoleErrors).toEqual([]);
  });

  it('honours data-text overrides and warns once, by name, about attributes it does not know', async () => {
    const { page, consoleWarnings, consoleErrors } = await e2e.open('/dynamic.html');
    await page.locator(W.launcher).waitFor();
    await retag(page, {
      text: JSON.stringify({
        launcher: 'Plaudern',
        send: 'Senden',
        sendd: 'typo',
        errors: { htp: 'x' },
        back: 'Zurück',
      }),
      // A string of the chat file's own (issue 23), one attribute: data-text-menu.
      textMenu: 'Mehr',
      colour: 'red',
      cfasync: 'false',
    });
    await page.locator('askbox-widget').getByRole('button', { name: 'Plaudern' }).click();
    await page.locator('askbox-widget').getByRole('button', { name: 'Senden' }).waitFor();
    await page.locator('askbox-widget').getByRole('button', { name: 'Mehr' }).click();
    await page.locator('askbox-widget [role="menuitem"]').first().click();
    await page.locator('askbox-widget').getByRole('button', { name: 'Zurück' }).waitFor();
    // The launcher names what it knows is wrong; the chat file, which knows its own strings, the text keys.
    expect(consoleWarnings).toEqual([
      '[askbox] The <script> tag has attributes Askbox does not know: data-colour',
      '[askbox] Askbox has no UI strings for these text keys: data-text key "sendd" (did you mean data-text key ' +
        '"send"?), data-text key "errors.htp" (did you mean data-text key "errors.http"?)',
    ]);
    expect(consoleErrors).toEqual([]);
  });

  it('boots when injected after load by a tag manager', async () => {
    const { page } = await e2e.open('/dynamic.html');
    await page.locator(W.launcher).click();
    expect(await page.locator('askbox-widget .title').textContent()).toBe('Injected');
  });

  it('finds its own tag when document.currentScript is null (Rocket Loader-style loaders)', async () => {
    const { page } = await e2e.open('/');
    await page.addInitScript(() => Object.defineProperty(Document.prototype, 'currentScript', { get: () => null }));
    await page.reload();
    await page.locator(W.launcher).click();
    expect(await page.locator('askbox-widget .title').textContent()).toBe('Northwind help');
    // The chat file finds where it came from all the same: its code add-on, next to it, highlights a reply.
    await ask(page, 'Show me the JavaScript snippet');
    await page.locator(`${W.bot} pre code .hljs-string`).first().waitFor();
  });

  it('survives patched built-ins: polluted prototypes, Prototype.js toJSON, a wrapped fetch', async () => {
    const { page, pageErrors } = await e2e.open('/');
    await page.addInitScript(() => {
      // oxlint-disable-next-line no-extend-native -- this test plays a hostile page that patches built-ins
      Object.defineProperty(Object.prototype, 'polluted', {
        value: 'x',
        enumerable: true,
        configurable: true,
        writable: true,
      });
      (Array.prototype as unknown as { toJSON: () => string }).toJSON = function () {
        return JSON.stringify(Array.from(this as unknown as unknown[]));
      };
      const original = window.fetch;
      window.fetch = (...args) => original(...args);
    });
    await page.reload();
    await ask(page, 'What are the delivery times?');
    await page.locator(`${W.bot} .sources`).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('works on a strict-CSP page with zero violations', async () => {
    const { page, consoleErrors, pageErrors } = await e2e.open('/csp.html');
    await ask(page, 'What are the delivery times?');
    await page.locator(`${W.bot} .sources`).waitFor();
    await page.locator(W.input).fill('x'.repeat(1900));
    await page.locator(W.input).fill('short again');
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
    const styled = await page.locator(W.launcher).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(styled).toBe('rgb(79, 70, 229)');
  });

  it("on a strict-CSP page without constructed stylesheets, adds the frame's and the panel's as nonce'd <style>s, in order", async () => {
    const { page, consoleErrors, pageErrors } = await e2e.open('/csp.html');
    await page.addInitScript(() =>
      Object.defineProperty(CSSStyleSheet.prototype, 'replaceSync', { value: undefined, configurable: true }),
    );
    await page.reload();
    await page.locator(W.launcher).waitFor();
    /** The shadow root's <style>s, each named by its first selector, and whether each carries the page's nonce. */
    const styles = () =>
      page.evaluate(() =>
        [...(document.querySelector('askbox-widget')?.shadowRoot?.querySelectorAll('style') ?? [])].map(
          (style) => `${style.textContent?.split('{')[0]}${style.nonce ? ' (nonce)' : ''}`,
        ),
      );
    expect(await styles()).toEqual([':host (nonce)']);
    const release = await holdChatFile(page);
    await page.locator(W.launcher).click();
    const frame = page.locator('askbox-widget .pending');
    await frame.waitFor();
    expect(await styles()).toEqual([':host (nonce)', '.panel (nonce)']);
    expect(await frame.boundingBox()).toMatchObject({ width: 380, height: 600 });
    release();
    await page.locator(W.welcome).waitFor();
    expect(await styles()).toEqual([':host (nonce)', '.panel (nonce)', '.askbox (nonce)']);
    expect(await page.locator(W.panel).boundingBox()).toMatchObject({ width: 380, height: 600 });
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('looks identical on a page with aggressive global CSS and a 10px root font size', async () => {
    const shots: Buffer[][] = [];
    for (const path of ['/plain.html', '/hostile.html']) {
      const { page } = await e2e.open(path);
      await page.locator(W.launcher).waitFor();
      const launcher = await page.locator(W.launcher).screenshot();
      await ask(page, 'show me something styled');
      await page.locator(`${W.bot} blockquote`).waitFor();
      await page.getByRole('button', { name: 'Send message' }).waitFor();
      await page.locator(W.input).blur();
      await page.mouse.move(0, 0);
      // The reply and its question, just put in, drawn at their own size (see animationFrames).
      await animationFrames(page);
      const panel = await page.locator(W.panel).screenshot();
      const box = await page.locator(W.panel).boundingBox();
      expect(box).toMatchObject({ width: 380 });
      shots.push([launcher, panel]);
    }
    const [[plainLauncher, plainPanel] = [], [hostileLauncher, hostilePanel] = []] = shots;
    // Identical but for rasteriser anti-aliasing noise (≤ 0.1% of pixels): a leaking reset changes thousands.
    expect(countDifferentPixels(plainLauncher!, hostileLauncher!)).toBeLessThanOrEqual(3);
    expect(countDifferentPixels(plainPanel!, hostilePanel!)).toBeLessThanOrEqual(228);
  });

  it('honours position, theme, accent, title, placeholder and open from data attributes', async () => {
    const { page } = await e2e.open('/left-dark.html');
    await page.locator(W.panel).waitFor();
    const panel = await page.locator(W.panel).boundingBox();
    expect(panel?.x).toBe(20);
    expect(await page.locator(W.launcher).evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(14, 159, 110)',
    );
    expect(await page.locator(W.panel).evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(29, 31, 36)');
    expect(await page.locator('askbox-widget .title').textContent()).toBe('Support');
    expect(await page.locator(W.input).getAttribute('placeholder')).toBe('Ask support…');
  });

  it('fills a phone screen, with a 16px input so iOS does not zoom', async () => {
    // A phone: touch, so the message box keeps 16 px (a mouse on a narrow window gets the messages' 14 px).
    const { page } = await e2e.open('/plain.html', { width: 390, height: 700, mobile: true });
    await page.locator(W.launcher).tap();
    await page.locator(W.input).waitFor();
    expect(await page.locator(W.panel).boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 700 });
    expect(await page.locator(W.input).evaluate((el) => getComputedStyle(el).fontSize)).toBe('16px');
    expect(await page.locator(W.launcher).isVisible()).toBe(false);
  });
});

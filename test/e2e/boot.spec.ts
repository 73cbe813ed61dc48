import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdChatFile, retag, settle, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/**
 * Literals of each library's code, to find it in a minified file (names are mangled, literals are not): Preact's
 * MathML check, the signals' brand, DOMPurify's tag allowlist, the markdown renderer's task-list glyph (☐), and
 * eventsource-parser's field parsing.
 */
const MARKERS = {
  preact: '^m(i|n|o|s|text|space)$',
  signals: 'preact-signals',
  dompurify: 'acronym',
  // Escaped, as the build writes every character past ASCII.
  markdown: String.raw`\u2610`,
  'eventsource-parser': 'retry',
} as const;

/**
 * The widget's stylesheets in cascade order, each named by its first rule: the launcher's (`:host`), the frame's
 * (`.panel`) and the panel's (its tokens on `.askbox`); a launcher's sheet that carries the frame's rules is named
 * `:host + .panel`.
 */
const sheets = (page: Page) =>
  page.evaluate(() =>
    [...(document.querySelector('askbox-widget')?.shadowRoot?.adoptedStyleSheets ?? [])].map((sheet) => {
      const rules = [...sheet.cssRules].map((rule) => rule.cssText.split(' {')[0]);
      return rules[0] === ':host' && rules.includes('.panel') ? ':host + .panel' : rules[0];
    }),
  );

/** The requests for the chat file among a page's requests. */
const chatRequests = (requests: string[]) => requests.filter((r) => /\/askbox-chat\.[\w-]+\.js$/.test(r));

describe('a launcher-only boot, in Chromium', () => {
  it('ships the libraries behind the launcher in the chat file only', () => {
    const launcher = readFileSync(`${DIST}askbox.js`, 'utf8');
    const chatFile = readdirSync(DIST).find((name) => name.startsWith('askbox-chat.'));
    const chat = readFileSync(`${DIST}${chatFile}`, 'utf8');
    for (const [name, marker] of Object.entries(MARKERS)) {
      if (name !== 'eventsource-parser') expect(launcher, `${name} in askbox.js`).not.toContain(marker);
      expect(chat, `${name} in the chat file`).toContain(marker);
    }
  });

  it('asks V8 to compile the launcher and the chat file while they stream (explicit compile hint), as their first line', () => {
    // After the minifiers, which drop comments: without it Chromium compiles each function on the main thread, the
    // chat file's on the visitor's first click rather than while it loads on hover.
    const chatFile = readdirSync(DIST).find((name) => /^askbox-chat\.[\w-]+\.js$/.test(name));
    for (const file of ['askbox.js', chatFile])
      expect(readFileSync(`${DIST}${file}`, 'utf8').split('\n', 1)[0], file).toBe('//# allFunctionsCalledOnLoad');
  });

  it('ships both files in ASCII, so that the browser keeps their source one byte a character, not two', () => {
    const chatFile = readdirSync(DIST).find((name) => /^askbox-chat\.[\w-]+\.js$/.test(name));
    for (const file of ['askbox.js', chatFile])
      expect(readFileSync(`${DIST}${file}`, 'utf8').match(/[^\0-\x7f]/g), file).toBeNull();
  });

  it('loads no chat code before the visitor shows interest; hovering the launcher loads it, once', async () => {
    const { page, requests, consoleErrors, pageErrors } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    await settle(page);
    expect(chatRequests(requests)).toEqual([]);
    expect(await page.locator('script[src*="askbox-chat"]').count()).toBe(0);
    expect(await page.locator(W.launcher).getAttribute('aria-label')).toBe('Chat');

    // Hovering the launcher loads the chat ahead of the click; the click then only opens it.
    await page.locator(W.launcher).hover();
    await expect.poll(() => chatRequests(requests).length).toBe(1);
    await page.locator(W.launcher).click();
    await page.locator(W.panel).waitFor();
    expect(await page.locator(W.launcher).getAttribute('aria-expanded')).toBe('true');
    expect(chatRequests(requests)).toHaveLength(1);
    // The loader's <script> element is gone once the chat is in: nothing of it is left in the page.
    expect(await page.locator('script[src*="askbox-chat"]').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('loads the chat when a finger touches the launcher on a phone, before it lifts (no hover there)', async () => {
    const { page, requests } = await e2e.open('/plain.html', { width: 390, height: 844, mobile: true });
    await page.locator(W.launcher).waitFor();
    const box = await page.locator(W.launcher).boundingBox();
    const point = { x: (box?.x ?? 0) + 28, y: (box?.y ?? 0) + 28 };
    const cdp = await page.context().newCDPSession(page);
    // The finger is down and stays down: no click yet, only the touch's pointerdown.
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await expect.poll(() => chatRequests(requests).length).toBe(1);
    expect(await page.locator(W.launcher).getAttribute('aria-expanded')).toBe('false');
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.locator(W.panel).waitFor();
    expect(chatRequests(requests)).toHaveLength(1);
  });

  it('loads the chat on keyboard focus of the launcher too, and on a page call before any interaction', async () => {
    const { page, requests } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    await page.keyboard.press('Tab');
    await expect.poll(() => chatRequests(requests).length).toBe(1);

    const { page: other, requests: otherRequests } = await e2e.open('/plain.html');
    await other.locator(W.launcher).waitFor();
    const opened: string[] = [];
    await other.exposeFunction('recordOpen', () => opened.push('open'));
    await other.evaluate(() => {
      const api = (window as unknown as { Askbox: { on(type: string, fn: () => void): void; open(): void } }).Askbox;
      api.on('open', () => (window as unknown as { recordOpen(): void }).recordOpen());
      api.open();
    });
    await other.locator(W.panel).waitFor();
    expect(chatRequests(otherRequests)).toHaveLength(1);
    await expect.poll(() => opened).toEqual(['open']);
  });

  it('opens a phone tap at once, with a loading frame, and the chat in it once loaded', async () => {
    const { page, requests } = await e2e.open('/plain.html', { width: 390, height: 700, mobile: true });
    await page.locator(W.launcher).waitFor();
    // A slow chat file: the frame stays in its loading state meanwhile.
    const release = await holdChatFile(page);
    // The launcher's stylesheet alone is parsed at boot; the frame's joins when the frame is first built.
    expect(await sheets(page)).toEqual([':host']);
    await page.locator(W.launcher).tap();
    const frame = page.locator('askbox-widget .pending');
    await frame.getByRole('status').filter({ hasText: 'Loading…' }).waitFor();
    expect(await sheets(page)).toEqual([':host', '.panel']);
    expect(await frame.getAttribute('role')).toBe('dialog');
    // The frame is where the panel will be: the whole screen, the launcher hidden under it.
    expect(await frame.boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 700 });
    expect(await page.locator(W.launcher).isVisible()).toBe(false);
    expect(chatRequests(requests)).toHaveLength(1);
    release();
    await page.locator(W.input).waitFor();
    expect(await frame.count()).toBe(0);
    expect(await sheets(page)).toEqual([':host', '.panel', '.askbox']);
  });

  it("adds the frame's stylesheet before the panel's when the chat was loaded ahead and no frame was built", async () => {
    const { page } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    expect(await sheets(page)).toEqual([':host']);
    // A hover loads the chat, which puts its panel's stylesheet in once loaded, the frame's before it.
    await page.locator(W.launcher).hover();
    await expect.poll(() => sheets(page)).toEqual([':host', '.panel', '.askbox']);
    await page.locator(W.launcher).click();
    await page.locator(W.input).waitFor();
    expect(await page.locator('askbox-widget .pending').count()).toBe(0);
    expect(await sheets(page)).toHaveLength(3);
    // The panel's box, from the frame's stylesheet: above the launcher, at its side.
    expect(await page.locator(W.panel).evaluate((panel) => getComputedStyle(panel).position)).toBe('fixed');
  });

  it('puts the frame where the panel comes, bottom-left too, and a phone panel over the whole screen', async () => {
    for (const [width, box] of [
      [1000, { x: 20, width: 380 }],
      [390, { x: 0, width: 390 }],
    ] as const) {
      const { page } = await e2e.open('/plain.html', { width, height: 700, mobile: width < 481 });
      await page.locator(W.launcher).waitFor();
      await retag(page, { position: 'bottom-left' });
      const release = await holdChatFile(page);
      await page.locator(W.launcher).click();
      const frame = page.locator('askbox-widget .pending');
      await frame.waitFor();
      expect(await frame.boundingBox(), `frame at ${width}px`).toMatchObject(box);
      release();
      await page.locator(W.welcome).waitFor();
      expect(await page.locator(W.panel).boundingBox(), `panel at ${width}px`).toMatchObject(box);
    }
  });
});

import { chromium, type Browser, type ConsoleMessage, type Locator, type Page } from 'playwright-core';
import { startDemoServer, type DemoServer } from '../../demo/server';
import type { ProxyOptions } from '../../src/proxy/core/proxy';
import type { Scenario } from '../../demo/simulator/scenario';
import { freshBuild } from '../helpers/build';
import { expect } from 'vitest';

/** Debian's Chromium; the tests never download a browser. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with no background traffic and stable colours and fonts for screenshots. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--force-color-profile=srgb',
      '--font-render-hinting=none',
    ],
  });
}

/** A page plus what it printed, threw and requested. */
export interface TestPage {
  page: Page;
  consoleErrors: string[];
  consoleWarnings: string[];
  pageErrors: string[];
  requests: string[];
}

/**
 * One spec file's world: the demo server (widget, proxy and simulator, exactly as `npm start` runs them) on a
 * free port with the file's own scenario and proxy options, and one headless Chromium.
 */
export async function startE2E(scenario: Scenario = {}, proxy: Partial<ProxyOptions> = {}) {
  freshBuild('dist/askbox.js');
  const server: DemoServer = await startDemoServer({ port: 0, scenario, proxy });
  const browser = await launchChromium();
  const pages: Page[] = [];

  /**
   * A page in a fresh browser context: its own storage, like another visitor. `mobile` emulates a phone's browser
   * (touch, and a layout viewport that widens to a page wider than the screen, as mobile browsers do).
   */
  async function open(
    path: string,
    options: { width?: number; height?: number; mobile?: boolean } = {},
  ): Promise<TestPage> {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 1000, height: options.height ?? 760 },
      deviceScaleFactor: 1,
      reducedMotion: 'reduce',
      ...(options.mobile && { isMobile: true, hasTouch: true }),
    });
    const page = await context.newPage();
    pages.push(page);
    const result: TestPage = { page, consoleErrors: [], consoleWarnings: [], pageErrors: [], requests: [] };
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') result.consoleErrors.push(message.text());
      if (message.type() === 'warning') result.consoleWarnings.push(message.text());
    });
    page.on('pageerror', (error) => result.pageErrors.push(error.message));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!url.searchParams.has(SETTLE_MARK)) result.requests.push(`${request.method()} ${url.pathname}`);
    });
    await page.goto(server.url + path);
    return result;
  }

  return {
    url: server.url,
    open,
    dropConnections: () => server.dropConnections(),
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** The query parameter of `settle()`'s marker request, which the request log leaves out. */
const SETTLE_MARK = 'askbox-e2e-settled';
let settles = 0;

/**
 * Two animation frames in the page: what it queued before this call (tasks, microtasks, effects, a render) has run,
 * and a style or scroll change it made is on screen. A bubble just put in is then laid out at its own size, no longer
 * at its `contain-intrinsic-size` placeholder (see atRest).
 */
export function animationFrames(page: Page): Promise<void> {
  return page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * The positive signal to wait for before asserting that the page did NOT fetch or draw something: two animation
 * frames (what the page queued so far has run), then a marker request the page makes itself. Chromium reports a
 * page's requests in the order it makes them, so once the marker is in, every request made before it is in the
 * request log too (which leaves the marker out). Work that waits on a response of its own is not covered: wait for
 * that response.
 */
export async function settle(page: Page): Promise<void> {
  await animationFrames(page);
  const marker = `/askbox.js?${SETTLE_MARK}=${++settles}`;
  const seen = page.waitForEvent('request', { predicate: (request) => request.url().endsWith(marker) });
  await page.evaluate((url) => fetch(url, { cache: 'no-store' }).then(() => undefined), marker);
  await seen;
}

/** Selectors inside the widget (Playwright's CSS engine pierces open shadow roots). */
export const W = {
  launcher: 'askbox-widget .launcher',
  panel: 'askbox-widget .panel',
  input: 'askbox-widget textarea',
  streaming: 'askbox-widget .msg--streaming',
  bot: 'askbox-widget .msg--bot:not(.msg--welcome):not(.msg--streaming)',
  user: 'askbox-widget .msg--user',
  welcome: 'askbox-widget .msg--welcome',
  alert: 'askbox-widget [role="alert"]',
  log: 'askbox-widget .log',
} as const;

/**
 * Replaces the page's widget with one from a new script tag: the page's bot and proxy, and `attributes` (data-*
 * names, camelCased), as a tag manager would inject it.
 */
export function retag(page: Page, attributes: Record<string, string>) {
  return page.evaluate((extra) => {
    const old = document.querySelector<HTMLScriptElement>('script[data-bot-id]');
    window.Askbox?.destroy();
    const script = document.createElement('script');
    script.src = old?.src ?? '';
    Object.assign(script.dataset, { botId: old?.dataset.botId, proxyUrl: old?.dataset.proxyUrl, ...extra });
    document.head.append(script);
  }, attributes);
}

/**
 * What `read` finds once the page has come to rest: the same in two reads an animation frame apart, within 10 s.
 * The log, say, follows a finished reply in the frame after its layout, later on a busy machine; and a bubble just
 * put in (the stored reply replacing the streamed one) measures its `contain-intrinsic-size` placeholder until the
 * next frame decides it is on screen, so a read between the two finds a log that fits and has no scroll. `check`: a
 * concurrent test's own `expect`.
 */
export async function atRest<T>(page: Page, read: () => Promise<T>, check = expect): Promise<T> {
  let last = '';
  await check
    .poll(
      async () => {
        await animationFrames(page);
        const now = JSON.stringify(await read());
        const same = now === last;
        last = now;
        return same;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return JSON.parse(last) as T;
}

/**
 * Clicks `target`, in the log, as a visitor does: scrolled to with the wheel, then pressed once it is at rest. The
 * log keeps a reply taller than itself at its start until the reader scrolls (wheel, touch, press or key). A button
 * below that start, scrolled into view by Playwright alone, can still move in the frames after: a bubble just put in
 * is laid out from its placeholder size, and the log takes a reply it keeps at its start back there as its content
 * resizes. Playwright checks what is under the pointer only as the press starts; on a busy machine a move between
 * the press and the release takes the release elsewhere, and the click is lost without an error. `check`: a
 * concurrent test's own `expect`.
 */
export async function clickInLog(page: Page, target: Locator, check = expect) {
  await target.waitFor();
  const log = page.locator(W.log);
  await log.hover();
  await page.mouse.wheel(0, await log.evaluate((element) => element.scrollHeight));
  await atRest(page, () => target.boundingBox(), check);
  await target.click();
}

/** Holds back the files whose URL matches `file`; resolves to the function that lets them through. */
export async function holdFile(page: Page, file: RegExp): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(file, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * Holds back the chat file, so that the launcher's loading frame stays on screen; resolves to the function that lets
 * it through.
 */
export const holdChatFile = (page: Page) => holdFile(page, /askbox-chat\.[\w-]+\.js$/);

/** Opens the panel, types `text` and presses Enter. */
export async function ask(page: Page, text: string) {
  if (!(await page.locator(W.panel).isVisible())) await page.locator(W.launcher).click();
  await page.locator(W.input).fill(text);
  await page.locator(W.input).press('Enter');
}

/** The focused element, looking through shadow roots. */
export function deepActive(page: Page) {
  return page.evaluate(() => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el ? `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''}` : null;
  });
}

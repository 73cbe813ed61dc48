import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeBlock } from '../helpers/readme';
import { axeViolations } from './axe';
import { ask, holdChatFile, startE2E, W } from './harness';

/**
 * Styling beyond the theme in Chromium: the README's `::part` example restyles the launcher, header, bubbles,
 * composer and buttons from the page; the site's stylesheet (`data-stylesheet`) and CSS (`data-css`, `css` for
 * `mount()`) are adopted after the widget's own sheets, on the strict-CSP page too; one that fails leaves the widget
 * working in its own styles. Axe stays clean, restyled.
 */

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({ replies: [{ match: 'parcel', text: 'It is **on its way**.' }] });
});
afterAll(() => e2e?.close());

/** The README's copy-paste example. */
const EXAMPLE = readmeBlock('Styling beyond the theme', 'css');

/** Computed styles of elements inside the widget, each `[selector, property]`, by the name given. */
function computed(page: Page, wanted: Record<string, [string, string]>) {
  return page.evaluate((entries) => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    return Object.fromEntries(
      Object.entries(entries).map(([name, [selector, property]]) => {
        const element = root?.querySelector(selector);
        if (!element) throw new Error(`missing ${selector}`);
        return [name, getComputedStyle(element).getPropertyValue(property)];
      }),
    );
  }, wanted);
}

/** What the README's example changes, part by part. */
const RESTYLED: Record<string, [string, string]> = {
  launcherRadius: ['.launcher', 'border-top-left-radius'],
  launcherBackground: ['.launcher', 'background-color'],
  headerBackground: ['.head', 'background-color'],
  headerFont: ['.head', 'font-family'],
  titleFont: ['.title', 'font-family'],
  userRadius: ['.msg--user', 'border-top-left-radius'],
  userBackground: ['.msg--user', 'background-color'],
  botRadius: ['.msg--bot:not(.msg--welcome)', 'border-top-left-radius'],
  botEdge: ['.msg--bot:not(.msg--welcome)', 'border-left-width'],
  composerEdge: ['.composer', 'border-top-width'],
  sendRadius: ['.send', 'border-top-left-radius'],
  sendBackground: ['.send', 'background-color'],
  closeRadius: ['[part~="button-close"]', 'border-top-left-radius'],
};

/** The styles the README's example gives each of `RESTYLED`. */
const EXAMPLE_STYLES: Record<string, string> = {
  launcherRadius: '12px',
  launcherBackground: 'rgb(17, 94, 89)',
  headerBackground: 'rgb(17, 94, 89)',
  headerFont: 'Georgia, "Times New Roman", serif',
  titleFont: 'Georgia, "Times New Roman", serif',
  userRadius: '4px',
  userBackground: 'rgb(17, 94, 89)',
  botRadius: '4px',
  botEdge: '4px',
  composerEdge: '2px',
  sendRadius: '4px',
  sendBackground: 'rgb(17, 94, 89)',
  closeRadius: '4px',
};

/** Opens the panel (the launcher stays in the DOM, hidden while open) and has one exchange. */
async function exchange(page: Page) {
  await ask(page, 'Where is my parcel?');
  await page.locator(`${W.bot} strong`).waitFor();
}

describe('the part names from the page', () => {
  it('restyle the launcher, header, bubbles, composer and buttons as the README’s example says; axe stays clean', async () => {
    const { page, consoleErrors } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    const launcherBefore = await computed(page, { radius: RESTYLED.launcherRadius! });
    await page.addStyleTag({ content: EXAMPLE });
    // The launcher has its part before the chat file is loaded: the page's rule applies at once.
    expect(await computed(page, { radius: RESTYLED.launcherRadius! })).not.toEqual(launcherBefore);
    expect(await computed(page, { radius: RESTYLED.launcherRadius! })).toEqual({ radius: '12px' });
    await exchange(page);
    expect(await computed(page, RESTYLED)).toEqual(EXAMPLE_STYLES);
    expect(await axeViolations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('restyle the frame that stands in for the panel while the chat file loads, as the panel is restyled', async () => {
    const { page } = await e2e.open('/plain.html');
    const release = await holdChatFile(page);
    await page.addStyleTag({ content: EXAMPLE });
    await page.locator(W.launcher).click();
    await page.locator('askbox-widget .pending [role="status"]').waitFor();
    expect(
      await computed(page, {
        headerBackground: ['.pending__head', 'background-color'],
        headerFont: ['.pending__head', 'font-family'],
        titleFont: ['.pending__title', 'font-family'],
        closeRadius: ['.pending__close', 'border-top-left-radius'],
      }),
    ).toEqual({
      headerBackground: EXAMPLE_STYLES.headerBackground,
      headerFont: EXAMPLE_STYLES.headerFont,
      titleFont: EXAMPLE_STYLES.titleFont,
      closeRadius: EXAMPLE_STYLES.closeRadius,
    });
    release();
    await page.locator(W.input).waitFor();
    expect(await computed(page, { headerBackground: RESTYLED.headerBackground! })).toEqual({
      headerBackground: EXAMPLE_STYLES.headerBackground,
    });
  });

  it('without the page’s rules, the widget has none of the example’s styles (so the test above sees the example)', async () => {
    const { page } = await e2e.open('/plain.html');
    await exchange(page);
    const own = await computed(page, RESTYLED);
    expect(Object.keys(own).filter((name) => own[name] === EXAMPLE_STYLES[name])).toEqual([]);
  });
});

/** Site rules that tie Askbox's own (`.head`, `.msg--user`: the same selectors): only order makes them win. */
const SHEET = '.head { background: rgb(10, 20, 30); } .msg--user { background: rgb(10, 20, 30); }';
const CSS = '.head { background: rgb(60, 10, 10); }';

/**
 * Serves `path` with `attributes` added to its script tag (the page's own headers, its CSP included), and the site's
 * stylesheet at /site.css as `type`, with `status`.
 */
async function styledPage(path: string, attributes: string, sheet = { status: 200, type: 'text/css' }) {
  const opened = await e2e.open('/plain.html');
  const { page } = opened;
  await page.route(`**${path}`, async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace('<script src="/askbox.js"', `<script src="/askbox.js" ${attributes}`);
    await route.fulfill({ response, body });
  });
  await page.route('**/site.css', (route) =>
    route.fulfill({ status: sheet.status, contentType: sheet.type, body: SHEET }),
  );
  await page.goto(`${e2e.url}${path}`);
  return opened;
}

const SITE_STYLED: Record<string, [string, string]> = {
  header: ['.head', 'background-color'],
  user: ['.msg--user', 'background-color'],
};

describe('the site’s stylesheet and CSS', () => {
  it.each(['/plain.html', '/csp.html'])(
    'are adopted after the widget’s own on %s, the CSS after the stylesheet, with no violation or error',
    async (path) => {
      const { page, consoleErrors, pageErrors } = await styledPage(
        path,
        `data-stylesheet="/site.css" data-css="${CSS}"`,
      );
      await exchange(page);
      await expect
        .poll(() => computed(page, SITE_STYLED))
        .toEqual({ header: 'rgb(60, 10, 10)', user: 'rgb(10, 20, 30)' });
      if (path === '/csp.html')
        expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      expect(consoleErrors).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
  );

  it('stay after the code add-on’s sheet, which arrives later: a tie with its token colours is the site’s', async () => {
    const { page, consoleErrors } = await styledPage('/csp.html', 'data-css=".hljs-string { color: rgb(1, 2, 3); }"');
    await ask(page, 'Show me the JavaScript snippet');
    const token = page.locator('askbox-widget .msg--bot:not(.msg--streaming) pre .hljs-string').first();
    await token.waitFor();
    expect(await token.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(1, 2, 3)');
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it.each([
    ['a 404', { status: 404, type: 'text/css' }, 'the server answered 404'],
    ['a page that is not CSS', { status: 200, type: 'text/html' }, 'not text/css'],
  ])('that fails (%s) leaves one console error and the widget working in its own styles', async (_, sheet, reason) => {
    const { page, consoleErrors, pageErrors } = await styledPage('/csp.html', 'data-stylesheet="/site.css"', sheet);
    await exchange(page);
    const own = await computed(page, SITE_STYLED);
    expect(own.header).not.toBe('rgb(10, 20, 30)');
    expect(own.user).not.toBe('rgb(10, 20, 30)');
    // Ours, once (a 404 adds the browser's own line about the failed resource).
    const ours = () => consoleErrors.filter((line) => line.startsWith('[askbox]'));
    await expect.poll(() => ours().length).toBe(1);
    expect(ours()[0]).toContain(`The stylesheet ${e2e.url}/site.css was not applied: `);
    expect(ours()[0]).toContain(reason);
    expect(pageErrors).toEqual([]);
  });

  it('refuses a stylesheet on another origin over http, or a data: URL, with one console error and no request', async () => {
    for (const url of ['http://evil.example/evil.css', 'data:text/css,.head{background:red}']) {
      const { page, consoleErrors, requests } = await styledPage('/plain.html', `data-stylesheet="${url}"`);
      await exchange(page);
      expect(consoleErrors).toEqual([expect.stringContaining(`The site's styles are left out`)]);
      expect(requests.filter((request) => request.endsWith('.css'))).toEqual([]);
    }
  });
});

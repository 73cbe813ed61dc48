import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../demo/server';
import { freshBuild } from '../helpers/build';
import { launchFirefox, launchWebKit, requireEngines, until, type Engine } from '../helpers/engines';

/**
 * The core walk in the engines of Firefox and Safari, as in Chromium: boot without a page error, open by keyboard,
 * send and stream a markdown reply, keep it across a reload, close with Escape back to the launcher, the strict-CSP
 * page with highlighted code and math, a phone-sized window, a long reply's thumbs-down with a comment, and copying
 * the conversation. Keyboard only: the same keys in every engine, no driver-specific clicks (a control is given focus
 * by script, then pressed).
 */

/** Every page records its errors first (WebKit's driver has no console API), with the page's nonce. */
const RECORDER = `window.__errors = [];
addEventListener('error', (event) => __errors.push(String(event.message)));
addEventListener('unhandledrejection', (event) => __errors.push(String(event.reason)));`;

const ROOT = `document.querySelector('askbox-widget')?.shadowRoot`;
const inWidget = (selector: string) => `${ROOT}?.querySelector(${JSON.stringify(selector)})`;
/** The focused element through shadow roots: its tag, and its label when it has one. */
const FOCUSED = `(() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  return el ? el.tagName + (el.getAttribute('aria-label') ? ' ' + el.getAttribute('aria-label') : '') : '';
})()`;
const REPLY = `${ROOT}?.querySelector('.msg--bot:not(.msg--welcome):not(.msg--streaming) strong')?.textContent`;
const LONG = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1} of a long answer, with enough words to wrap.`);
/** `selector`'s box against the log's visible (client) box: how far it is above and below it, and its height. */
const inLog = (selector: string) => `(() => {
  const log = ${inWidget('.log')}, el = ${inWidget(selector)};
  const top = log.getBoundingClientRect().top + log.clientTop, box = el.getBoundingClientRect();
  return { above: top - box.top, below: box.bottom - top - log.clientHeight, height: box.height };
})()`;
/** `selector`'s box: its size, and whether it lies inside the panel. */
const inPanel = (selector: string) => `(() => {
  const panel = ${inWidget('.panel')}.getBoundingClientRect(), box = ${inWidget(selector)}.getBoundingClientRect();
  return { width: box.width, height: box.height, inside: box.left >= panel.left && box.right <= panel.right
    && box.top >= panel.top && box.bottom <= panel.bottom };
})()`;

let server: DemoServer;

beforeAll(async () => {
  requireEngines();
  freshBuild('dist/askbox.js');
  server = await startDemoServer({
    port: 0,
    headScript: RECORDER,
    scenario: {
      replies: [
        { match: 'returns', text: 'Returns are free for **30 days**.', chunkSize: 6, delayMs: 30 },
        { match: 'long', text: LONG.join('\n\n') },
      ],
    },
  });
});
afterAll(() => server?.close());

describe.each([
  ['firefox', launchFirefox],
  ['webkit', launchWebKit],
] as const)('the core walk in %s', (_name, launch) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await launch();
  }, 60_000);
  afterAll(() => engine?.close());

  /** Tabs from the top of the page to the launcher, opens it with Enter, and waits for focus in the message box. */
  async function openByKeyboard() {
    await until(engine, inWidget('button.launcher'));
    for (let step = 0; step < 30 && !(await engine.read<string>(FOCUSED)).startsWith('BUTTON Chat'); step++)
      await engine.press('Tab');
    expect(await engine.read<string>(FOCUSED)).toMatch(/^BUTTON Chat/);
    await engine.press('Enter');
    await until(engine, inWidget('.panel'));
    await until(engine, `${FOCUSED} === 'TEXTAREA Message'`);
  }

  /** Loads `path` as a first-time visitor: nothing stored from an earlier walk. */
  async function fresh(path: string) {
    await engine.goto(`${server.url}${path}`);
    await engine.read('(localStorage.clear(), sessionStorage.clear(), true)');
    await engine.goto(`${server.url}${path}`);
  }

  async function ask(question: string) {
    await engine.type(question);
    await engine.press('Enter');
    await until(engine, `${REPLY} === '30 days'`);
  }

  it('boots clean, streams a markdown reply, keeps it across a reload, and Escape returns to the launcher', async () => {
    await fresh('/');
    await openByKeyboard();
    await ask('How do returns work?');
    expect(await engine.read(`${ROOT}.querySelector('.msg--user').textContent`)).toContain('How do returns work?');

    await engine.press('Escape');
    await until(engine, `!${inWidget('.panel')}`);
    expect(await engine.read<string>(FOCUSED)).toMatch(/^BUTTON Chat/);

    await engine.goto(`${server.url}/`);
    await openByKeyboard();
    await until(engine, `${REPLY} === '30 days'`);
    expect(await engine.read('window.__errors')).toEqual([]);
  }, 90_000);

  it('chats on the strict-CSP page without a violation', async () => {
    await fresh('/csp.html');
    await openByKeyboard();
    await ask('And returns?');
    expect(await engine.read('window.cspViolations')).toEqual([]);
    expect(await engine.read('window.__errors')).toEqual([]);
  }, 90_000);

  /** Gives `selector` focus by script, then presses Enter on it, as a keyboard visitor who reached it would. */
  async function press(selector: string) {
    await until(engine, inWidget(selector));
    await engine.read(`(${inWidget(selector)}.focus(), true)`);
    await engine.press('Enter');
  }

  /** Waits two animation frames in the page: what follows a layout (the log keeping its place) has run. */
  async function frames() {
    await engine.read(
      `(window.__frames = 0, requestAnimationFrame(() => requestAnimationFrame(() => (window.__frames = 2))), true)`,
    );
    await until(engine, 'window.__frames === 2');
  }

  it('rates a long reply down with a comment: the box in view and focused, then a visible thanks', async () => {
    await fresh('/');
    await openByKeyboard();
    await engine.type('A long one, please');
    await engine.press('Enter');
    await until(engine, `${ROOT}?.querySelector('.msg--bot:not(.msg--welcome):not(.msg--streaming) .rate--down')`);
    // Read down to the end of the reply, where its rating is; thumbs-down opens the comment box.
    await press('.jump');
    await press('.msg--bot:last-of-type .rate--down');
    await until(engine, `${FOCUSED} === 'INPUT'`);
    await frames();
    const field = await engine.read<{ above: number; below: number; height: number }>(inLog('.comment input'));
    expect(field.height).toBeGreaterThan(0);
    expect(field.above, JSON.stringify(field)).toBeLessThanOrEqual(0);
    expect(field.below, JSON.stringify(field)).toBeLessThanOrEqual(0);
    await engine.type('Too long');
    await engine.press('Enter');
    await until(engine, inWidget('.comment__thanks'));
    expect(await engine.read(inPanel('.comment__thanks'))).toMatchObject({ inside: true });
    expect(await engine.read<number>(`${inWidget('.comment__thanks')}.getBoundingClientRect().height`)).toBeGreaterThan(
      0,
    );
    expect(await engine.read<string>(FOCUSED)).toBe('BUTTON Not helpful');
    expect(await engine.read('window.__errors')).toEqual([]);
  }, 90_000);

  it('copies the conversation from the menu, and shows "Copied" in the panel', async () => {
    await fresh('/');
    await openByKeyboard();
    await ask('How do returns work?');
    await press('button[aria-haspopup="menu"]');
    const focusedItem = `${ROOT}.activeElement?.getAttribute('role') === 'menuitem' && ${ROOT}.activeElement.textContent`;
    await until(engine, focusedItem);
    await engine.press('ArrowDown');
    expect(await engine.read(focusedItem)).toBe('Copy conversation');
    await engine.press('Enter');
    await until(engine, inWidget('.head__note'));
    const note = await engine.read<{ width: number; height: number; inside: boolean }>(inPanel('.head__note'));
    expect(note.inside).toBe(true);
    expect(note.width * note.height).toBeGreaterThan(0);
    expect(await engine.read('window.__errors')).toEqual([]);
  }, 90_000);

  it('highlights code and typesets math (the add-ons) on the strict-CSP page, without a violation', async () => {
    await fresh('/csp.html');
    await openByKeyboard();
    // The knowledge base's developer guide answers these with a fenced JavaScript block, and with math.
    await engine.type('Show me the JavaScript snippet');
    await engine.press('Enter');
    // Finished: a question sent while the reply streams would wait in the queue.
    await until(engine, inWidget('.msg--bot:not(.msg--streaming) pre .hljs-string'));
    await engine.type('What is the overage formula?');
    await engine.press('Enter');
    await until(engine, inWidget('.msg--bot math[display="block"] mfrac'));
    const math = await engine.read<{ ns: string; height: number }>(
      `(() => { const m = ${inWidget('.msg--bot math[display="block"]')};
        return { ns: m.namespaceURI, height: m.getBoundingClientRect().height }; })()`,
    );
    // Laid out as MathML: the fraction stands taller than a line of text.
    expect(math.ns).toBe('http://www.w3.org/1998/Math/MathML');
    expect(math.height).toBeGreaterThan(20);
    expect(await engine.read('window.cspViolations')).toEqual([]);
    expect(await engine.read('window.__errors')).toEqual([]);
  }, 90_000);

  it('fills a phone-sized window with the panel, nothing off-screen, on the strict-CSP page', async () => {
    await engine.resize(460, 844);
    await fresh('/csp.html');
    await openByKeyboard();
    // A streamed reply resizes the log many times: no ResizeObserver loop error may reach the page.
    await ask('Returns, on a phone?');
    // Once its opening animation has run (these engines do not reduce motion).
    await until(engine, `${ROOT}.getAnimations().length === 0`);
    const box = await engine.read<{ left: number; right: number; top: number; bottom: number; width: number }>(
      `(() => { const r = ${inWidget('.panel')}.getBoundingClientRect();
        return { left: r.left, right: r.right - innerWidth, top: r.top, bottom: r.bottom - innerHeight, width: r.width - innerWidth }; })()`,
    );
    expect(await engine.read<number>('innerWidth')).toBeLessThanOrEqual(480);
    // Phone-sized, the panel is the whole window.
    for (const edge of Object.values(box)) expect(Math.abs(edge), JSON.stringify(box)).toBeLessThanOrEqual(1);
    expect(await engine.read<number>('document.documentElement.scrollWidth - innerWidth')).toBeLessThanOrEqual(0);
    expect(await engine.read('window.__errors')).toEqual([]);
  }, 90_000);
});

// Reference launchers for the boot benchmark (issue 19): hand-written scripts that do the DOM work Askbox's launcher
// must do at boot, and nothing of Askbox's own logic (config validation, locales, the registry, the API, the
// handover between copies). Measured in the same run as the builds, they show how far above the floor the launcher
// is: what a launcher button costs a page at all, what it costs in a shadow root with Askbox's real stylesheet, and
// what the page hooks Askbox keeps from boot on add to that.
//
// Each script is a function serialised into the page, so its code is type-checked here. tsx compiles with esbuild's
// keepNames, which wraps named inner functions in a `__name()` helper the page does not have: the functions below
// declare no inner named functions (see `script`, which refuses such a text).
import { readFileSync } from 'node:fs';
import { Features, transform } from 'lightningcss';
import type { Browser } from 'playwright-core';

/** What a reference launcher leaves on the page: `checkFloors` holds each to it before anything is measured. */
interface Drawn {
  /** A plain `<button>` in `<body>`. */
  button: boolean;
  /** Askbox's launcher in a shadow root, fixed in place by the adopted stylesheet. */
  launcher: boolean;
  /** `<askbox-chat>` defined. */
  element: boolean;
}

/** A reference launcher: its column's label, the script's text, and what it draws. */
export interface Floor {
  label: string;
  code: string;
  drawn: Drawn;
}

/**
 * Lightning CSS's targets for vite.config.ts's `build.target` (es2022), as Vite converts it (its `esMap`): the
 * minified sheet must be the one the build ships, which `floors` checks.
 */
const version = (major: number, minor = 0) => (major << 16) | (minor << 8);
const ES2022 = {
  chrome: version(94),
  edge: version(94),
  safari: version(16, 4),
  ios_saf: version(16, 4),
  firefox: version(93),
  opera: version(80),
};

/** src/styles/launcher.css minified as the build minifies it (vite.config.ts's `css` option). */
function launcherCss(): string {
  const code = readFileSync(new URL('../../src/styles/launcher.css', import.meta.url));
  return transform({ filename: 'launcher.css', code, minify: true, exclude: Features.LightDark, targets: ES2022 })
    .code.toString()
    .trim();
}

/** A plain `<button>`, fixed in the corner with an inline style: what any launcher button costs a page. */
const plainButton = () => {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Chat';
  button.style.cssText = 'position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%';
  button.setAttribute('aria-label', 'Chat');
  button.addEventListener('click', () => undefined);
  document.body.append(button);
};

/** Askbox's launcher DOM in a shadow root with its stylesheet (`css`); returns the host element and the widget root. */
const shadowLauncher = (css: string) => {
  // findScript, readAttributes: the tag's settings.
  const settings = { ...(document.currentScript as HTMLScriptElement).dataset };
  // createLauncher: the widget's root (language, direction, position and scheme classes) and the panel's slot.
  const root = document.createElement('div');
  root.lang = 'en';
  root.dir = 'ltr';
  root.className = `askbox askbox--bubble askbox--${settings.position ?? 'bottom-right'} askbox--light`;
  const slot = document.createElement('div');
  slot.className = 'askbox__slot';
  // createLauncher: the button with its icon (drawn by the stylesheet) and its unread badge.
  const button = document.createElement('button');
  button.className = 'launcher';
  button.type = 'button';
  button.setAttribute('aria-controls', 'askbox-panel');
  const icon = document.createElement('span');
  icon.className = 'launcher__icon';
  const badge = document.createElement('span');
  badge.className = 'launcher__badge';
  badge.setAttribute('aria-hidden', 'true');
  button.append(icon, badge);
  // createLauncher: the press, and the hover, focus and touch that warm the chat.
  button.addEventListener('click', () => undefined);
  for (const type of ['pointerenter', 'focus', 'pointerdown'])
    button.addEventListener(type, () => undefined, { once: true });
  root.append(slot, button);
  // createLauncher's paint: the button's name and state, the badge's count.
  button.setAttribute('aria-label', 'Chat');
  button.setAttribute('aria-expanded', 'false');
  badge.textContent = '';
  // createShadowHost: the host element, its shadow root, the launcher's constructed stylesheet.
  const host = document.createElement('askbox-widget');
  const shadow = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  shadow.adoptedStyleSheets = [sheet];
  shadow.append(root);
  // keepPlaced: into the page's <body>.
  document.body.append(host);
  return host;
};

/** The page hooks Askbox keeps from boot on, for the launcher in `host`. */
const pageHooks = (host: HTMLElement) => {
  // followScreen: the visual viewport, followed once the screen is phone-sized (a media query's change event).
  const screen = window.visualViewport;
  const phone = matchMedia('(max-width: 480px)');
  phone.addEventListener('change', () => undefined);
  if (phone.matches) screen?.addEventListener('resize', () => undefined);
  // keepPlaced: put back into <body> if a single-page app swaps it, and checked once the page has loaded.
  const observer = new MutationObserver(() => undefined);
  observer.observe(document.documentElement, { childList: true });
  observer.observe(document.body, { childList: true });
  if (document.readyState !== 'complete') addEventListener('load', () => host.isConnected, { once: true });
  // defineElement: <askbox-chat>, for widgets a page writes as elements.
  customElements.define('askbox-chat', class extends HTMLElement {});
};

/**
 * A script calling `steps` in order, each with the previous one's result, under V8's compile hint as Askbox's build
 * writes it (vite.config.ts's `postBanner`), so that the floor and the launcher are compiled alike.
 */
function script(steps: readonly ((input: never) => unknown)[], css: string): string {
  const code = steps.reduce<string>((input, step) => `(${step.toString()})(${input})`, JSON.stringify(css));
  if (code.includes('__name'))
    throw new Error('browser-floor: a reference launcher declares a named inner function (see the header)');
  return `//# allFunctionsCalledOnLoad\n${code};\n`;
}

/**
 * The reference launchers, cheapest first. `build` is the current build's text: the stylesheet minified here must
 * be the one it ships, else the benchmark stops rather than compare against another sheet.
 */
export function floors(build: string): Floor[] {
  const css = launcherCss();
  if (!build.includes(css))
    throw new Error(
      'browser-floor: dist/askbox.js does not carry src/styles/launcher.css as minified here: update ES2022 or the ' +
        'transform options to match vite.config.ts',
    );
  return [
    {
      label: 'floor: <button>',
      code: script([plainButton], ''),
      drawn: { button: true, launcher: false, element: false },
    },
    {
      label: 'floor: shadow launcher',
      code: script([shadowLauncher], css),
      drawn: { button: false, launcher: true, element: false },
    },
    {
      label: 'floor: + page hooks',
      code: script([shadowLauncher, pageHooks], css),
      drawn: { button: false, launcher: true, element: true },
    },
  ];
}

/**
 * Loads each reference launcher's page (`urls[i]` for `list[i]`) once and throws unless it ran without a page error
 * and drew what it should: a script that failed half-way would be measured as a cheaper floor than it is.
 */
export async function checkFloors(browser: Browser, list: readonly Floor[], urls: readonly string[]): Promise<void> {
  for (const [index, floor] of list.entries()) {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(urls[index] ?? '', { waitUntil: 'load' });
      const drawn = await page.evaluate((): Drawn => {
        const root = document.querySelector('askbox-widget')?.shadowRoot;
        const launcher = root?.querySelector('.launcher');
        return {
          button: document.querySelector('body > button') !== null,
          launcher: launcher instanceof HTMLElement && getComputedStyle(launcher).position === 'fixed',
          element: customElements.get('askbox-chat') !== undefined,
        };
      });
      if (errors.length > 0 || JSON.stringify(drawn) !== JSON.stringify(floor.drawn))
        throw new Error(
          `browser-floor: "${floor.label}" drew ${JSON.stringify(drawn)}, not ${JSON.stringify(floor.drawn)}${errors.length > 0 ? `; page errors: ${errors.join('; ')}` : ''}`,
        );
    } finally {
      await context.close();
    }
  }
}

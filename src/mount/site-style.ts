import type { WidgetConfig } from '../config/schema.js';
import { parseSiteStyle } from '../config/stylesheet.js';
import { sheetConstructor } from './shadow-host.js';

/** The site's styles in one shadow root, kept after every sheet of the widget's own so that they win a tie. */
export interface SiteStyles {
  /** Moves the site's sheets back after every other: called after the widget adds a sheet of its own. */
  raise(): void;
  remove(): void;
}

/** The site's two sheets: `data-stylesheet`'s first, then `css`, which can thus override it. */
const STYLESHEET = 0;
const CSS = 1;

/**
 * Fetches the site's stylesheet. Resolves with its text, or with undefined after one console error saying why: a
 * stylesheet that fails leaves the widget in its own styles.
 */
async function fetchStylesheet(url: string): Promise<string | undefined> {
  let reason: string;
  try {
    // Same-origin credentials only; another origin must agree to serve it (CORS), as for a module script.
    const response = await fetch(url, { mode: 'cors', credentials: 'same-origin' });
    const type = response.headers.get('content-type') ?? '';
    // SECURITY: only what its server calls CSS, as a browser asks of a cross-origin <link rel="stylesheet">.
    if (response.ok && /^text\/css\b/i.test(type)) return await response.text();
    reason = response.ok ? `it is served as "${type}", not text/css` : `the server answered ${response.status}`;
  } catch {
    reason = "the request failed (the network, the page's CSP connect-src, or no CORS headers on another origin)";
  }
  console.error(`[askbox] The stylesheet ${url} was not applied: ${reason}`);
  return undefined;
}

/** The site's two sheets in a shadow root: what fills them, keeps them last and takes them out. */
interface SiteSheets extends SiteStyles {
  fill(index: number, css: string): void;
}

/**
 * Two empty constructed stylesheets adopted into `root` after those it has (no inline style, so nothing for a strict
 * CSP to block; `baseURL` resolves the stylesheet's own `url()`s). Throws where the page patched CSSStyleSheet.
 */
function adoptConstructed(root: ShadowRoot, Sheet: typeof CSSStyleSheet, baseURL: string | undefined): SiteSheets {
  const sheets = [new Sheet(baseURL ? { baseURL } : {}), new Sheet()];
  for (const sheet of sheets) sheet.replaceSync('');
  const others = () => root.adoptedStyleSheets.filter((sheet) => !sheets.includes(sheet));
  const raise = () => {
    root.adoptedStyleSheets = [...others(), ...sheets];
  };
  raise();
  return {
    fill: (index, css) => sheets[index]?.replaceSync(css),
    raise,
    remove: () => {
      root.adoptedStyleSheets = others();
    },
  };
}

/** Two empty `<style>` elements with the page's nonce, after the others in `root`. */
function appendStyles(root: ShadowRoot, nonce: string | undefined): SiteSheets {
  const styles = [STYLESHEET, CSS].map(() => root.ownerDocument.createElement('style'));
  for (const style of styles) if (nonce) style.setAttribute('nonce', nonce);
  const raise = () => {
    const last = [...root.querySelectorAll('style')].filter((style) => !styles.includes(style)).pop();
    if (last) last.after(...styles);
    else root.prepend(...styles);
  };
  raise();
  return {
    fill: (index, css) => {
      const style = styles[index];
      if (style) style.textContent = css;
    },
    raise,
    remove: () => {
      for (const style of styles) style.remove();
    },
  };
}

/** The site's sheets in `root`: constructed where the browser has them, else `<style>`s, as for the widget's own. */
function adoptSiteSheets(root: ShadowRoot, { baseURL, nonce }: { baseURL?: string; nonce: string | undefined }) {
  const Sheet = sheetConstructor(root);
  try {
    if (Sheet) return adoptConstructed(root, Sheet, baseURL);
  } catch {
    // A polyfilled or patched CSSStyleSheet: <style> elements instead.
  }
  return appendStyles(root, nonce);
}

/**
 * Starts the site's styles of one chat (`data-stylesheet`, `css`), read from its settings as given: the stylesheet
 * is fetched at once, ahead of the panel; `adopt` puts both into the widget's shadow root once it is shown. Fetched,
 * not linked: a `<link rel="stylesheet">` in the shadow root would come before its adopted sheets in the cascade (the
 * widget's own, which it could then not override), and a strict CSP's `style-src` would have to allow it.
 */
export function createSiteStyles(config: Pick<WidgetConfig, 'input' | 'styleNonce'>, page: string) {
  const { url, css } = parseSiteStyle(config.input, page);
  const loading = url ? fetchStylesheet(url) : undefined;
  return {
    adopt(root: ShadowRoot): SiteStyles {
      if (!url && !css) return { raise: () => undefined, remove: () => undefined };
      const sheets = adoptSiteSheets(root, { baseURL: url, nonce: config.styleNonce });
      if (css) sheets.fill(CSS, css);
      void loading?.then((text) => text !== undefined && sheets.fill(STYLESHEET, text));
      return { raise: sheets.raise, remove: sheets.remove };
    },
  };
}

/** The element the widget lives in, and how to take it away again. */
export interface ShadowHost {
  host: HTMLElement;
  root: ShadowRoot;
  destroy(): void;
}

/** The host element's tag: a custom-element name no page stylesheet is likely to target. */
export const HOST_TAG = 'askbox-widget';

/** Creates a host element with an open shadow root holding `css` and `content`, for the caller to place. */
export function createShadowHost(
  doc: Document,
  options: { css: string; nonce: string | undefined; content: Node },
): ShadowHost {
  const host = doc.createElement(HOST_TAG);
  const root = host.attachShadow({ mode: 'open' });
  addStyles(root, options.css, options.nonce);
  root.append(options.content);
  return { host, root, destroy: () => host.remove() };
}

/**
 * Adds a stylesheet to `root`, after those it has: a constructed stylesheet where supported (no inline style, so
 * nothing for a strict CSP to block), else a `<style>` that carries the page's nonce.
 */
export function addStyles(root: ShadowRoot, css: string, nonce: string | undefined): void {
  if (adoptStyles(root, css)) return;
  const style = root.ownerDocument.createElement('style');
  if (nonce) style.setAttribute('nonce', nonce);
  style.textContent = css;
  // After the sheets already there (the cascade order), before the content.
  const last = [...root.querySelectorAll('style')].pop();
  if (last) last.after(style);
  else root.prepend(style);
}

function adoptStyles(root: ShadowRoot, css: string): boolean {
  try {
    const Sheet = sheetConstructor(root);
    if (!Sheet) return false;
    const sheet = new Sheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return true;
  } catch {
    // A polyfilled or patched CSSStyleSheet: fall back to a <style> element.
    return false;
  }
}

/** The constructor of stylesheets `root` can adopt, if its browser has them (else `<style>` elements do). */
export function sheetConstructor(root: ShadowRoot): typeof CSSStyleSheet | undefined {
  const view = root.ownerDocument.defaultView;
  return view && 'adoptedStyleSheets' in root && typeof view.CSSStyleSheet?.prototype.replaceSync === 'function'
    ? view.CSSStyleSheet
    : undefined;
}

/** The element the widget lives in, and how to take it away again. */
export interface ShadowHost {
  host: HTMLElement;
  root: ShadowRoot;
  /** The element Preact renders into. */
  container: HTMLElement;
  destroy(): void;
}

/** The host element's tag: a custom-element name no page stylesheet is likely to target. */
export const HOST_TAG = 'askbox-widget';

/**
 * Appends a host element with an open shadow root to `target` and installs `css` in it: as a constructed
 * stylesheet where supported (no inline style, so nothing for a strict CSP to block), else as a `<style>` that
 * carries the page's nonce.
 */
export function createShadowHost(
  target: HTMLElement,
  options: { css: string; nonce?: string | undefined },
): ShadowHost {
  const doc = target.ownerDocument;
  const host = doc.createElement(HOST_TAG);
  const root = host.attachShadow({ mode: 'open' });
  if (!adoptStyles(root, options.css)) {
    const style = doc.createElement('style');
    if (options.nonce) style.setAttribute('nonce', options.nonce);
    style.textContent = options.css;
    root.append(style);
  }
  const container = doc.createElement('div');
  root.append(container);
  target.append(host);
  return { host, root, container, destroy: () => host.remove() };
}

function adoptStyles(root: ShadowRoot, css: string): boolean {
  try {
    const view = root.ownerDocument.defaultView;
    if (!view || !('adoptedStyleSheets' in root) || typeof view.CSSStyleSheet?.prototype.replaceSync !== 'function')
      return false;
    const sheet = new view.CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
    return true;
  } catch {
    // A polyfilled or patched CSSStyleSheet: fall back to a <style> element.
    return false;
  }
}

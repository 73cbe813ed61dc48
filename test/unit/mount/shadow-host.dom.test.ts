import { afterEach, describe, expect, it } from 'vitest';
import { addStyles, createShadowHost, HOST_TAG } from '../../../src/mount/shadow-host';

afterEach(() => document.body.replaceChildren());

const content = () => document.createElement('div');

describe('createShadowHost', () => {
  it('creates one host with an open shadow root holding the content, and adopts the stylesheet', () => {
    const inner = content();
    const shadow = createShadowHost(document, { css: '.x{color:red}', nonce: undefined, content: inner });
    expect(shadow.host.localName).toBe(HOST_TAG);
    document.body.append(shadow.host);
    expect(shadow.root.mode).toBe('open');
    expect(inner.parentNode).toBe(shadow.root);
    expect(shadow.root.adoptedStyleSheets.map((sheet) => sheet.cssRules[0]?.cssText)).toEqual(['.x { color: red; }']);
    addStyles(shadow.root, '.y{color:blue}', undefined);
    expect(shadow.root.adoptedStyleSheets).toHaveLength(2);
    shadow.destroy();
    expect(document.body.querySelector(HOST_TAG)).toBeNull();
  });

  it('falls back to <style> elements carrying the nonce, in order and before the content, when constructable stylesheets are unavailable', () => {
    const original = window.CSSStyleSheet.prototype.replaceSync;
    // A hostile page or an old browser: replaceSync is missing.
    Object.defineProperty(window.CSSStyleSheet.prototype, 'replaceSync', { value: undefined, configurable: true });
    try {
      const inner = content();
      const shadow = createShadowHost(document, { css: '.x{color:red}', nonce: 'abc123', content: inner });
      addStyles(shadow.root, '.y{color:blue}', 'abc123');
      const children = [...shadow.root.children];
      expect(children.map((child) => child.textContent)).toEqual(['.x{color:red}', '.y{color:blue}', '']);
      expect(children.slice(0, 2).map((style) => style.getAttribute('nonce'))).toEqual(['abc123', 'abc123']);
      expect(children[2]).toBe(inner);
    } finally {
      Object.defineProperty(window.CSSStyleSheet.prototype, 'replaceSync', { value: original, configurable: true });
    }
  });
});

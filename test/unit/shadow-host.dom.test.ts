import { afterEach, describe, expect, it } from 'vitest';
import { createShadowHost, HOST_TAG } from '../../src/mount/shadow-host';

afterEach(() => document.body.replaceChildren());

describe('createShadowHost', () => {
  it('appends one host with an open shadow root and adopts the stylesheet', () => {
    const shadow = createShadowHost(document.body, { css: '.x{color:red}' });
    expect(document.body.querySelectorAll(HOST_TAG)).toHaveLength(1);
    expect(shadow.root.mode).toBe('open');
    expect(shadow.root.contains(shadow.container)).toBe(true);
    const adopted = shadow.root.adoptedStyleSheets.length > 0;
    expect(adopted || shadow.root.querySelector('style') !== null).toBe(true);
    shadow.destroy();
    expect(document.body.querySelector(HOST_TAG)).toBeNull();
  });

  it('falls back to a <style> carrying the nonce when constructable stylesheets are unavailable', () => {
    const original = window.CSSStyleSheet.prototype.replaceSync;
    // A hostile page or an old browser: replaceSync is missing.
    Object.defineProperty(window.CSSStyleSheet.prototype, 'replaceSync', { value: undefined, configurable: true });
    try {
      const shadow = createShadowHost(document.body, { css: '.x{color:red}', nonce: 'abc123' });
      const style = shadow.root.querySelector('style');
      expect(style?.getAttribute('nonce')).toBe('abc123');
      expect(style?.textContent).toBe('.x{color:red}');
    } finally {
      Object.defineProperty(window.CSSStyleSheet.prototype, 'replaceSync', { value: original, configurable: true });
    }
  });
});

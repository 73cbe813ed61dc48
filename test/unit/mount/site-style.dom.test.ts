import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount } from '../../../src/mount/mount';
import { addStyles, createShadowHost, HOST_TAG } from '../../../src/mount/shadow-host';
import { createSiteStyles } from '../../../src/mount/site-style';

/**
 * The site's styles in the shadow root: `css` adopted at once and `data-stylesheet` once fetched, both after every
 * sheet of the widget's own (added before or after them), taken out again; a stylesheet that fails leaves one console
 * error and the widget's own styles.
 */
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  document.body.replaceChildren();
});

const PAGE = 'https://shop.example/help';
const OWN = '.own{color:red}';

/** A shadow root holding the widget's own sheet. */
const shadowRoot = () =>
  createShadowHost(document, { css: OWN, nonce: 'n0nce', content: document.createElement('div') }).root;

/** The first rule of each sheet `root` adopts, in cascade order. */
const adopted = (root: ShadowRoot) => root.adoptedStyleSheets.map((sheet) => sheet.cssRules[0]?.cssText ?? '');

/** A `fetch` that answers every request with `body` as `type` (`status` 200 unless given). */
function serve(body: string, type = 'text/css; charset=utf-8', status = 200) {
  const fetch = vi.fn(async () => new Response(body, { status, headers: { 'content-type': type } }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('the site styles', () => {
  it('adopts `css` at once, after the widget’s own, and keeps it after a sheet the widget adds later', () => {
    const root = shadowRoot();
    const site = createSiteStyles({ input: { css: '.site{color:blue}' }, styleNonce: undefined }, PAGE).adopt(root);
    expect(adopted(root)).toEqual(['.own { color: red; }', '', '.site { color: blue; }']);
    addStyles(root, '.addon{color:green}', undefined);
    site.raise();
    expect(adopted(root)).toEqual(['.own { color: red; }', '.addon { color: green; }', '', '.site { color: blue; }']);
    site.remove();
    expect(adopted(root)).toEqual(['.own { color: red; }', '.addon { color: green; }']);
  });

  it('fetches the stylesheet when the chat is created (same-origin credentials, CORS) and adopts it before `css`', async () => {
    const fetch = serve('.sheet{color:teal}');
    const styles = createSiteStyles(
      { input: { stylesheet: '/site.css', css: '.css{color:navy}' }, styleNonce: undefined },
      PAGE,
    );
    expect(fetch).toHaveBeenCalledWith('https://shop.example/site.css', { mode: 'cors', credentials: 'same-origin' });
    const root = shadowRoot();
    styles.adopt(root);
    await vi.waitFor(() =>
      expect(adopted(root)).toEqual(['.own { color: red; }', '.sheet { color: teal; }', '.css { color: navy; }']),
    );
  });

  it.each([
    ['a 404', () => serve('nope', 'text/plain', 404), 'the server answered 404'],
    ['a page that is not CSS', () => serve('<h1>hi</h1>', 'text/html'), 'it is served as "text/html", not text/css'],
    [
      'a network or CORS failure',
      () =>
        vi.stubGlobal(
          'fetch',
          vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
        ),
      'the request failed',
    ],
  ])('leaves %s out with one console error, the widget in its own styles', async (_, answer, reason) => {
    answer();
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const root = shadowRoot();
    createSiteStyles({ input: { stylesheet: '/site.css' }, styleNonce: undefined }, PAGE).adopt(root);
    await vi.waitFor(() => expect(error).toHaveBeenCalledTimes(1));
    expect(String(error.mock.calls[0]?.[0])).toContain(
      `The stylesheet https://shop.example/site.css was not applied: ${reason}`,
    );
    expect(adopted(root)).toEqual(['.own { color: red; }', '', '']);
  });

  it('fetches nothing and adopts nothing for a refused URL, after one console error', () => {
    const fetch = serve('.x{}');
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const root = shadowRoot();
    createSiteStyles({ input: { stylesheet: '//evil.example/x.css' }, styleNonce: undefined }, PAGE).adopt(root);
    expect(fetch).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledTimes(1);
    expect(adopted(root)).toEqual(['.own { color: red; }']);
  });

  it('without constructed stylesheets, adds nonce’d <style>s after the widget’s own', async () => {
    const original = window.CSSStyleSheet.prototype.replaceSync;
    Object.defineProperty(window.CSSStyleSheet.prototype, 'replaceSync', { value: undefined, configurable: true });
    try {
      serve('.sheet{color:teal}');
      const root = shadowRoot();
      const site = createSiteStyles(
        { input: { stylesheet: '/site.css', css: '.css{}' }, styleNonce: 'n0nce' },
        PAGE,
      ).adopt(root);
      addStyles(root, '.addon{}', 'n0nce');
      site.raise();
      const styles = () =>
        [...root.querySelectorAll('style')].map((style) => `${style.textContent} ${style.getAttribute('nonce')}`);
      await vi.waitFor(() =>
        expect(styles()).toEqual([`${OWN} n0nce`, '.addon{} n0nce', '.sheet{color:teal} n0nce', '.css{} n0nce']),
      );
      site.remove();
      expect(styles()).toEqual([`${OWN} n0nce`, '.addon{} n0nce']);
    } finally {
      Object.defineProperty(window.CSSStyleSheet.prototype, 'replaceSync', { value: original, configurable: true });
    }
  });

  it('falls back to <style>s where the page patched CSSStyleSheet so that it throws', () => {
    const original = window.CSSStyleSheet.prototype.replaceSync;
    Object.defineProperty(window.CSSStyleSheet.prototype, 'replaceSync', {
      value: () => {
        throw new Error('patched');
      },
      configurable: true,
    });
    try {
      const root = shadowRoot();
      createSiteStyles({ input: { css: '.css{}' }, styleNonce: 'n0nce' }, PAGE).adopt(root);
      expect([...root.querySelectorAll('style')].map((style) => style.textContent)).toEqual([OWN, '', '.css{}']);
    } finally {
      Object.defineProperty(window.CSSStyleSheet.prototype, 'replaceSync', { value: original, configurable: true });
    }
  });

  it('adopts mount()’s `css` after every sheet of the widget’s own once the panel is shown, and takes it away with it', async () => {
    // Nothing reaches a network: what the chat asks of the proxy is answered empty.
    const fetch = vi.fn(async () => new Response('[]', { headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetch);
    const chat = mount({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox', css: '.head { letter-spacing: 3px; }' });
    chat.open();
    const root = document.querySelector(HOST_TAG)?.shadowRoot;
    if (!root) throw new Error('no widget');
    await vi.waitFor(() => expect(root.querySelector('.panel')).not.toBeNull());
    const sheets = adopted(root);
    expect(sheets.at(-1)).toBe('.head { letter-spacing: 3px; }');
    // The launcher's, the frame's and the panel's own sheets come first; the stylesheet's (none given) is empty.
    expect(sheets.length).toBeGreaterThanOrEqual(4);
    expect(sheets.at(-2)).toBe('');
    chat.destroy();
    expect(adopted(root)).not.toContain('.head { letter-spacing: 3px; }');
  });
});

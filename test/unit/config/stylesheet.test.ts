import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Stylesheet from '../../../src/config/stylesheet';

/**
 * The site's styles (`data-stylesheet`, `css`), read by the chat file: the stylesheet's URL at the edges of its rule
 * (the page's own origin, or https elsewhere) and the values that try to get out of it.
 */
afterEach(() => vi.restoreAllMocks());

// Imported afresh for each test: the URL patterns are built when the module loads, and a runner that keeps modules
// loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once per file,
// so that Stryker counts the load towards the test that checks it.
let parseSiteStyle: typeof Stylesheet.parseSiteStyle;
let stylesheetUrl: typeof Stylesheet.stylesheetUrl;
beforeEach(async () => {
  vi.resetModules();
  ({ parseSiteStyle, stylesheetUrl } = await import('../../../src/config/stylesheet'));
});

const PAGE = 'https://shop.example/help/faq?x=1#top';

describe('the stylesheet URL rule', () => {
  it.each([
    ['/css/askbox.css', 'https://shop.example/css/askbox.css'],
    ['askbox.css', 'https://shop.example/help/askbox.css'],
    ['../askbox.css?v=2', 'https://shop.example/askbox.css?v=2'],
    ['https://shop.example/askbox.css', 'https://shop.example/askbox.css'],
    ['https://cdn.shop.example/askbox.css', 'https://cdn.shop.example/askbox.css'],
    ['HTTPS://CDN.example/a.css', 'https://cdn.example/a.css'],
    ['https://cdn.example:8443/a.css', 'https://cdn.example:8443/a.css'],
    ['https://cdn.example:65535/a.css', 'https://cdn.example:65535/a.css'],
    ['https://cdn.example', 'https://cdn.example/'],
    ['https://cdn-1.example?v=1', 'https://cdn-1.example/?v=1'],
    ['https://1cdn.example/a.css', 'https://1cdn.example/a.css'],
    ['https://shop.example/a@b.css', 'https://shop.example/a@b.css'],
    ['1a:b.css', 'https://shop.example/help/1a:b.css'],
    // A colon after a character no scheme holds ends no scheme: a path.
    ['a_b:c.css', 'https://shop.example/help/a_b:c.css'],
    // A last label that starts with a digit but holds a letter is a name, not an address.
    ['https://cdn.example.2u/a.css', 'https://cdn.example.2u/a.css'],
  ])('takes %s as %s', (value, url) => {
    expect(stylesheetUrl(value, PAGE)).toBe(url);
  });

  it('takes http: on the page’s own origin only (a page served over http), never on another', () => {
    expect(stylesheetUrl('http://localhost:5173/a.css', 'http://localhost:5173/')).toBe('http://localhost:5173/a.css');
    expect(stylesheetUrl('/a.css', 'http://localhost:5173/x')).toBe('http://localhost:5173/a.css');
    expect(stylesheetUrl('http://localhost:5174/a.css', 'http://localhost:5173/')).toBeUndefined();
    expect(stylesheetUrl('http://shop.example/a.css', PAGE)).toBeUndefined();
    expect(stylesheetUrl('http://cdn.example/a.css', PAGE)).toBeUndefined();
  });

  it('takes nothing from the disk of a page opened as a file, whose origin is none', () => {
    expect(stylesheetUrl('askbox.css', 'file:///home/site/page.html')).toBeUndefined();
    expect(stylesheetUrl('/askbox.css', 'file:///home/site/page.html')).toBeUndefined();
  });

  it.each([
    ['javascript:alert(1)'],
    ['JavaScript:alert(1)'],
    ['java\tscript:alert(1)'],
    ['java\nscript:alert(1)'],
    ['java\u0000script:alert(1)'],
    ['data:text/css,body{color:red}'],
    ['data:text/css;base64,Ym9keXt9'],
    ['blob:https://shop.example/4d2a'],
    ['file:///etc/passwd'],
    ['ftp://shop.example/a.css'],
    ['vbscript:x'],
    ['//evil.example/a.css'],
    ['//shop.example/a.css'],
    ['/\\evil.example/a.css'],
    ['\\\\evil.example\\a.css'],
    ['https:\\\\evil.example\\a.css'],
    ['https://user:pass@cdn.example/a.css'],
    ['https://shop.example@evil.example/a.css'],
    ['/a.css\u2028'],
    // DEL, a control character that is no white space: a URL parser would keep it, encoded.
    ['/a\u007f.css'],
    ['https://cdn.example/a b.css'],
    ['https://'],
    ['https:evil.example/a.css'],
    ['https:/evil.example/a.css'],
    // A scheme whose absolute URL only starts later: a browser would read the host "https".
    ['https:/https://cdn.example/a.css'],
    ['https://127.0.0.1/a.css'],
    ['https://999.1.1.1/a.css'],
    ['https://[::1]/a.css'],
    ['https://cdn.example:65536/a.css'],
    ['https://cdn.example./a.css'],
    ['https://cdn.exa_mple/a.css'],
    ['c:/styles/a.css'],
    [`https://cdn.example/${'a'.repeat(2000)}.css`],
  ])('refuses %j', (value) => {
    expect(stylesheetUrl(value, PAGE)).toBeUndefined();
  });

  it('holds the length limit at 2000 characters', () => {
    const at = `/${'a'.repeat(1999)}`;
    expect(stylesheetUrl(at, PAGE)).toBe(`https://shop.example${at}`);
    expect(stylesheetUrl(`${at}a`, PAGE)).toBeUndefined();
  });
});

describe('the site style settings', () => {
  /** `parseSiteStyle(input)` and the console errors it wrote. */
  function read(input: Record<string, unknown>) {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const style = parseSiteStyle(input, PAGE);
    const errors = error.mock.calls.map((call) => String(call[0]));
    error.mockRestore();
    return { style, errors };
  }

  it('reads neither when neither is given, and says nothing', () => {
    expect(read({})).toEqual({ style: { url: undefined, css: undefined }, errors: [] });
    expect(read({ stylesheet: '', css: '  ' })).toEqual({ style: { url: undefined, css: undefined }, errors: [] });
  });

  it('reads both, the URL trimmed and resolved, the CSS as given', () => {
    const css = 'askbox-widget::part(header) { color: red }';
    expect(read({ stylesheet: ' /site.css ', css })).toEqual({
      style: { url: 'https://shop.example/site.css', css },
      errors: [],
    });
  });

  it('leaves a refused stylesheet out in one console error naming it and the rule, and keeps the CSS', () => {
    const { style, errors } = read({ stylesheet: 'javascript:alert(1)', css: 'a{}' });
    expect(style).toEqual({ url: undefined, css: 'a{}' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('"javascript:alert(1)"');
    expect(errors[0]).toContain("a URL on the page's own origin");
  });

  it('names a stylesheet and CSS that are not strings in the same one error', () => {
    const { style, errors } = read({ stylesheet: ['/a.css'], css: { color: 'red' } });
    expect(style).toEqual({ url: undefined, css: undefined });
    expect(errors).toHaveLength(1);
    // One line for each, under the line that says what happened.
    expect(errors[0]!.split('\n')).toEqual([
      "[askbox] The site's styles are left out:",
      expect.stringMatching(/^ {2}- stylesheet \["\/a\.css"\] must be /),
      '  - css must be a string of CSS',
    ]);
  });
});

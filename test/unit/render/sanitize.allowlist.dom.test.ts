// @vitest-environment jsdom
// The allowlists are exactly what they say: every HTML element and attribute name is tried, so one more entry in
// either list (a one-step widening) fails a test, as does a link scheme let through by a looser URL pattern.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sanitize } from '../../../src/render/sanitize';
import { HTML_ATTRIBUTES, HTML_TAGS } from '../../fixtures/html-names';

const ALLOWED_TAGS = new Set(
  'a b blockquote br code del em h1 h2 h3 h4 h5 h6 hr i li ol p pre s strong table tbody td th thead tr ul'.split(' '),
);
const ALLOWED_ATTRIBUTES = new Set(['href', 'title', 'start', 'align']);

// Imported afresh for each test: the allowlists are read when the module loads, and a runner that keeps modules
// loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once per file,
// so that Stryker counts the load towards the test that checks it.
let sanitize: Sanitize;
beforeEach(async () => {
  vi.resetModules();
  const { createSanitizer } = await import('../../../src/render/sanitize');
  sanitize = createSanitizer(window, { code: 'Code', table: 'Table' });
});

/** The sanitised HTML, parsed: what a browser would build from it. */
function parse(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = sanitize(html);
  return root;
}

/** The parents the HTML parser needs to keep an element where it is (a `<td>` outside a table is dropped). */
const PARENTS: Record<string, [string, string]> = {
  ...Object.fromEntries(
    ['caption', 'colgroup', 'thead', 'tbody', 'tfoot'].map((tag) => [tag, ['<table>', '</table>']] as const),
  ),
  col: ['<table><colgroup>', '</colgroup></table>'],
  tr: ['<table><tbody>', '</tbody></table>'],
  td: ['<table><tbody><tr>', '</tr></tbody></table>'],
  th: ['<table><tbody><tr>', '</tr></tbody></table>'],
  li: ['<ul>', '</ul>'],
  dt: ['<dl>', '</dl>'],
  dd: ['<dl>', '</dl>'],
  option: ['<select>', '</select>'],
  optgroup: ['<select>', '</select>'],
  rp: ['<ruby>', '</ruby>'],
  rt: ['<ruby>', '</ruby>'],
  rb: ['<ruby>', '</ruby>'],
  rtc: ['<ruby>', '</ruby>'],
  source: ['<video>', '</video>'],
  track: ['<video>', '</video>'],
  area: ['<map name="m">', '</map>'],
  param: ['<object>', '</object>'],
  legend: ['<fieldset>', '</fieldset>'],
  figcaption: ['<figure>', '</figure>'],
  summary: ['<details>', '</details>'],
};

describe('sanitize: the tag allowlist is exactly the documented one', () => {
  it('tries every tag the allowlist names, and more than a hundred it does not', () => {
    for (const tag of ALLOWED_TAGS) expect(HTML_TAGS).toContain(tag);
    expect(HTML_TAGS.length - ALLOWED_TAGS.size).toBeGreaterThan(100);
  });

  it.each(HTML_TAGS)('<%s>', (tag) => {
    const [open, close] = PARENTS[tag] ?? ['', ''];
    const root = parse(`${open}<${tag} title="t">x</${tag}>${close}`);
    expect(root.getElementsByTagName(tag).length > 0, `<${tag}> kept`).toBe(ALLOWED_TAGS.has(tag));
  });
});

/** An element's attribute names, but an emptied `is`: DOMPurify cannot remove that one, so it voids it instead. */
const names = (el: Element | null) => el?.getAttributeNames().filter((n) => n !== 'is' || el.getAttribute(n) !== '');

describe('sanitize: the attribute allowlist is exactly the documented one', () => {
  it.each(HTML_ATTRIBUTES)('%s', (name) => {
    const root = parse(`<p ${name}="x1">x</p><a href="https://ok.test/" ${name}="x1">a</a>`);
    const kept = ALLOWED_ATTRIBUTES.has(name);
    expect(names(root.querySelector('p'))).toEqual(kept ? [name] : []);
    // A link keeps its href; target and rel are the sanitiser's own, whatever the reply said.
    const own = ['href', 'target', 'rel'];
    expect(names(root.querySelector('a'))?.sort()).toEqual([...new Set([...own, ...(kept ? [name] : [])])].sort());
  });
});

describe('sanitize: link schemes are exactly http(s), mailto and tel, or none', () => {
  /** The href a link keeps, or null when the sanitiser dropped it. */
  const href = (url: string) => parse(`<a href="${url}">x</a>`).querySelector('a')?.getAttribute('href') ?? null;

  it.each([
    'https://ok.test/',
    'HTTPS://OK.TEST/',
    'Http://ok.test/',
    'MAILTO:hi@ok.test',
    'Tel:+1',
    'page.html',
    'a/b:c',
    'a.b+c-d',
    './x:y',
    '../../x',
    '?q=1:2',
    '#x:y',
    '1:2',
    'mailto',
  ])('keeps %j', (url) => {
    expect(href(url)).toBe(url);
  });

  it.each([
    'javascript:alert(1)',
    // Case-insensitive: an upper-case letter is still a letter of a scheme.
    'JAVASCRIPT:alert(1)',
    'Javascript:alert(1)',
    'DATA:text/html,x',
    'VBScript:x',
    // Anchored: an allowed scheme later in the URL does not make it safe.
    'javascript:alert(1)//https:',
    'javascript:alert(1)//mailto:',
    'javascript:alert(1)//tel:',
    'javascript:alert(1)//x/',
    'javascript:alert(1)#1',
    'vbscript:x',
    'data:text/html,x',
    'file:///x',
    'ftp://ok.test/',
    'blob:https://ok.test/x',
    'about:blank',
    'ws://ok.test/',
    'sms:+1',
    'intent://x',
    'httpx://ok.test/',
    'https+x:y',
    'x-https:y',
    'mailtox:y',
    'a.b:c',
    'a+b:c',
    'a-b:c',
  ])('drops %j', (url) => {
    expect(href(url)).toBeNull();
  });
});

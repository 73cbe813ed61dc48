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

/** `html` at each place in a reply a tag can be: first, after text, and nested in each kind of allowed container. */
const placed = (html: string): Record<string, string> => ({
  first: html,
  'after text': `Hello ${html}`,
  'in a paragraph': `<p>Hello ${html}</p>`,
  'in a list item': `<ul><li>Hello ${html}</li></ul>`,
  'in a table cell': `<table><tbody><tr><td>Hello ${html}</td></tr></tbody></table>`,
  'in a link': `<a href="https://ok.test/">Hello ${html}</a>`,
});

describe('sanitize: the tag allowlist is exactly the documented one', () => {
  it('tries every tag the allowlist names, and more than a hundred it does not', () => {
    for (const tag of ALLOWED_TAGS) expect(HTML_TAGS).toContain(tag);
    expect(HTML_TAGS.length - ALLOWED_TAGS.size).toBeGreaterThan(100);
  });

  // Wherever in the reply it appears: the parser puts a leading `<style>`, `<link>`, `<meta>`, `<script>`… in the
  // document's head, which DOMPurify then leaves out whatever its allowlist says, so only a tag after text or inside
  // an allowed element shows that the allowlist, not the parser, drops it.
  it.each(HTML_TAGS)('<%s>, first, after text and inside a paragraph, list item, table cell and link', (tag) => {
    const [open, close] = PARENTS[tag] ?? ['', ''];
    // The probe alone carries this title: the allowed elements around it are not counted as it.
    const probe = `${open}<${tag} title="probe">x</${tag}>${close}`;
    for (const [where, html] of Object.entries(placed(probe))) {
      const kept = parse(html).querySelector(`${tag}[title="probe"]`) !== null;
      expect(kept, `<${tag}> ${where} kept`).toBe(ALLOWED_TAGS.has(tag));
    }
  });
});

/** An element's attribute names, but an emptied `is`: DOMPurify cannot remove that one, so it voids it instead. */
const names = (el: Element | null) => el?.getAttributeNames().filter((n) => n !== 'is' || el.getAttribute(n) !== '');

describe('sanitize: the attribute allowlist is exactly the documented one', () => {
  it.each(HTML_ATTRIBUTES)('%s', (name) => {
    const kept = ALLOWED_ATTRIBUTES.has(name);
    // On an element that is none of the containers `placed` puts it in, so the one found is the probe.
    for (const [where, html] of Object.entries(placed(`<em ${name}="x1">x</em>`)))
      expect(names(parse(html).querySelector('em')), `on <em> ${where}`).toEqual(kept ? [name] : []);
    const root = parse(`<p ${name}="x1">x</p><a href="https://ok.test/" ${name}="x1">a</a>`);
    expect(names(root.querySelector('p'))).toEqual(kept ? [name] : []);
    // A link keeps its href; target and rel are the sanitiser's own, whatever the reply said.
    const own = ['href', 'target', 'rel'];
    expect(names(root.querySelector('a'))?.sort()).toEqual([...new Set([...own, ...(kept ? [name] : [])])].sort());
  });
});

describe('sanitize: link schemes are exactly http(s), mailto and tel, or none', () => {
  /** The href a link keeps, or null when the sanitiser dropped it, the same wherever in the reply the link is. */
  const href = (url: string) => {
    const kept = Object.values(placed(`<a title="probe" href="${url}">x</a>`)).map(
      (html) => parse(html).querySelector('a[title="probe"]')?.getAttribute('href') ?? null,
    );
    expect(new Set(kept).size, `${url} alike in every place`).toBe(1);
    return kept[0];
  };

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

// @vitest-environment jsdom
// The sanitizer on raw HTML, not only through markdown (whose renderer never emits raw tags): every allowed tag and
// attribute, everything else dropped, URL schemes with their obfuscations, and target/rel on links.
import { beforeEach, describe, expect, it } from 'vitest';
import { createSanitizer, type Sanitize } from '../../../src/render/sanitize';
import { toSources } from '../../../src/state/messages';

const ALLOWED_TAGS = [
  'a',
  'b',
  'blockquote',
  'br',
  'code',
  'del',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'li',
  'ol',
  'p',
  'pre',
  's',
  'strong',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
];

// A new sanitiser for every test: nothing one test sanitised is remembered in the next.
let sanitize: Sanitize;
beforeEach(() => {
  sanitize = createSanitizer(window, { code: 'Code', table: 'Table' });
});

/** The sanitised HTML, parsed: what a browser would build from it. */
function parse(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = sanitize(html);
  return root;
}

/** Wraps an element in the parents the HTML parser needs to keep it (table parts outside a table are dropped). */
function inContext(tag: string): string {
  if (tag === 'tr') return '<table><tbody><tr><td>x</td></tr></tbody></table>';
  if (tag === 'td' || tag === 'th') return `<table><tbody><tr><${tag}>x</${tag}></tr></tbody></table>`;
  if (tag === 'tbody' || tag === 'thead') return `<table><${tag}><tr><td>x</td></tr></${tag}></table>`;
  if (tag === 'li') return '<ul><li>x</li></ul>';
  if (tag === 'br' || tag === 'hr') return `<${tag}>`;
  return `<${tag}>x</${tag}>`;
}

describe('sanitize: the allowlist, on raw HTML', () => {
  it.each(ALLOWED_TAGS)('keeps <%s>', (tag) => {
    expect(parse(inContext(tag)).querySelector(tag)).not.toBeNull();
  });

  it.each([
    'script',
    'style',
    'img',
    'iframe',
    'object',
    'embed',
    'svg',
    'math',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'video',
    'audio',
    'source',
    'link',
    'meta',
    'base',
    'frame',
    'template',
    'details',
    'dialog',
    'marquee',
    'span',
    'div',
    'font',
  ])('drops <%s> and anything it would run, first, after text or in a list item', (tag) => {
    const hostile = `<${tag} src="x" onerror="alert(1)" onload="alert(1)">text</${tag}><p>after</p>`;
    // A leading head element (<style>, <link>, <meta>…) is dropped by the parser alone: the others try the allowlist.
    for (const html of [hostile, `Hello ${hostile}`, `<ul><li>Hello ${hostile}</li></ul>`]) {
      const root = parse(html);
      expect(root.querySelector(tag), html).toBeNull();
      expect(root.innerHTML).not.toMatch(/onerror|onload|alert/);
      expect(root.querySelector('p')?.textContent).toBe('after');
    }
  });

  it('keeps exactly href, title, start and align, and drops every other attribute', () => {
    const root = parse(
      '<a href="https://ok.test/" title="t" id="i" class="c" style="color:red" data-x="1" aria-label="l" name="n" target="_self" rel="opener" onclick="alert(1)">a</a>' +
        '<ol start="3" type="a" reversed><li value="9">x</li></ol><table><tbody><tr><td align="right" width="9" bgcolor="red">x</td></tr></tbody></table>',
    );
    const a = root.querySelector('a');
    expect(a?.getAttributeNames().sort()).toEqual(['href', 'rel', 'target', 'title']);
    expect(root.querySelector('ol')?.getAttributeNames()).toEqual(['start']);
    expect(root.querySelector('li')?.getAttributeNames()).toEqual([]);
    expect(root.querySelector('td')?.getAttributeNames()).toEqual(['align']);
  });

  it('makes every link open apart from the page, replacing what the reply said', () => {
    const root = parse('<a href="https://ok.test/" target="_top" rel="opener">a</a><a>no href</a>');
    const [linked, bare] = Array.from(root.querySelectorAll('a'));
    expect(linked?.getAttribute('target')).toBe('_blank');
    expect(linked?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(bare?.hasAttribute('target')).toBe(false);
  });

  it('leaves an href on an element that is not a link inert: no target or rel added to it', () => {
    const bold = parse('<b href="https://ok.test/">b</b>').querySelector('b');
    expect(bold?.getAttributeNames()).toEqual(['href']);
  });

  it('gives the same answer again from its memo, and a fresh sanitiser the same answer as a used one', () => {
    const html = '<p>x <a href="https://ok.test/">y</a><img src=x onerror=alert(1)></p>';
    const first = sanitize(html);
    expect(sanitize(html)).toBe(first);
    for (let i = 0; i < 600; i++) sanitize(`<p>${i}</p>`);
    expect(sanitize(html)).toBe(first);
    expect(createSanitizer(window, { code: 'Code', table: 'Table' })(html)).toBe(first);
  });
});

describe('sanitize: link schemes', () => {
  it.each([
    ['https://ok.test/a?b#c', 'https://ok.test/a?b#c'],
    ['http://ok.test/', 'http://ok.test/'],
    ['mailto:hi@ok.test', 'mailto:hi@ok.test'],
    ['tel:+123', 'tel:+123'],
    ['/help', '/help'],
    ['#section', '#section'],
    ['page.html', 'page.html'],
  ])('keeps %s', (href, kept) => {
    expect(parse(`<a href="${href}">x</a>`).querySelector('a')?.getAttribute('href')).toBe(kept);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java&#x09;script:alert(1)',
    'jav&#x0A;ascript:alert(1)',
    '&#106;avascript:alert(1)',
    '&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)',
    'javascript&colon;alert(1)',
    '\u0000javascript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://ok.test/',
    'blob:https://ok.test/x',
  ])('leaves no runnable link for %j', (href) => {
    const a = parse(`<a href="${href}">x</a>`).querySelector('a');
    expect(a?.textContent).toBe('x');
    // Dropped, or (a NUL the parser turns into U+FFFD) a relative link on the page's own scheme.
    const kept = a?.getAttribute('href');
    if (kept !== null && kept !== undefined) expect(new URL(kept, 'https://page.test/').protocol).toBe('https:');
    if (!href.startsWith('\u0000')) expect(kept).toBeNull();
  });
});

describe('source links', () => {
  it('link only http(s) documents; other schemes keep their title without a link', () => {
    const sources = toSources([
      { document_id: 'a', document_name: 'A', document_url: 'https://docs.test/a' },
      { document_id: 'b', document_name: 'B', document_url: 'HTTP://docs.test/b' },
      { document_id: 'c', document_name: 'C', document_url: 'javascript:alert(1)' },
      { document_id: 'd', document_name: 'D', document_url: ' https://docs.test/d' },
      { document_id: 'e', document_name: 'E', document_url: 'data:text/html,x' },
      { document_id: 'f', document_name: 'F', document_url: '//evil.test/f' },
      { document_id: 'g', document_name: 'G' },
    ]);
    expect(sources.map((s) => [s.id, s.url])).toEqual([
      ['a', 'https://docs.test/a'],
      ['b', 'HTTP://docs.test/b'],
      ['c', undefined],
      ['d', undefined],
      ['e', undefined],
      ['f', undefined],
      ['g', undefined],
    ]);
  });

  it('lists each document once', () => {
    expect(
      toSources([{ document_id: 'a' }, { document_id: 'a' }, { document_url: 'https://docs.test/x' }]).map((s) => s.id),
    ).toEqual(['a', 'https://docs.test/x']);
    expect(toSources([])).toEqual([]);
  });
});

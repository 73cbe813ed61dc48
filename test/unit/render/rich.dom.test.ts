// @vitest-environment jsdom
// DOMPurify's own test environment, as in sanitize.dom.test.ts: the add-ons' output goes through the sanitizer here.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { highlight } from '../../../src/addons/highlight';
import { typeset } from '../../../src/addons/typeset';
import { createMarkdownStream, LANGUAGE_ATTRIBUTE, MATH_ATTRIBUTE } from '../../../src/render/markdown';
import { highlightBlocks, neededAddons, typesetMath } from '../../../src/render/rich';
import { CODE_ALLOWLIST, MATH_ALLOWLIST } from '../../../src/render/rich-allowlist';
import { createSanitizer, type Sanitize } from '../../../src/render/sanitize';
import { RICH_XSS_CASES } from '../../fixtures/xss-rich';
import { XSS_CASES } from '../../fixtures/xss';

let sanitize: Sanitize;
beforeEach(() => {
  sanitize = createSanitizer(window, { code: 'Code', table: 'Table' });
});

/** A finished reply's blocks, as the markdown renderer writes them. */
const blocks = (markdown: string) => createMarkdownStream(document).update(markdown, true);

/** Both add-ons, as their files hand them to the chat. */
const ADDONS = {
  code: { render: (html: string) => highlightBlocks(html, highlight), allowlist: CODE_ALLOWLIST },
  math: { render: (html: string) => typesetMath(html, typeset), allowlist: MATH_ALLOWLIST },
};

/** A reply as the widget draws it with both add-ons loaded: each block through those it needs, then sanitised. */
function rich(markdown: string): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = blocks(markdown)
    .map((html) => {
      const used = neededAddons(html).map((kind) => ADDONS[kind]);
      const rendered = used.reduce((block, addon) => addon.render(block), html);
      return sanitize(
        rendered,
        used.map((addon) => addon.allowlist),
      );
    })
    .join('');
  return container;
}

const needs = (markdown: string) => blocks(markdown).flatMap(neededAddons);

describe('which add-ons a reply needs', () => {
  it.each([
    ['plain text', 'Just words, **bold** and `code`.', []],
    ['a fenced code block', '```js\nconst a = 1;\n```', ['code']],
    ['a fence without a language', '```\nplain\n```', ['code']],
    ['inline math', 'The square $x^2$ grows.', ['math']],
    ['display math', '$$\n\\frac{a}{b}\n$$', ['math']],
    ['prices', 'It costs $5 and $10 a month.', []],
    ['a price after a dollar word', 'Pay $a and $5 later.', []],
    ['a space before the closing dollar', 'Between $x and $ y.', []],
    ['a digit right after the closing dollar', 'Buy $x$5 later.', []],
    ['both', '```py\nprint(1)\n```\n\nand $y$', ['code', 'math']],
  ])('%s', (_title, markdown, expected) => {
    expect(needs(markdown)).toEqual(expected);
  });
});

describe('the add-ons on a finished block', () => {
  it('highlights a fenced block in its language, as escaped text in hljs spans', () => {
    const out = rich('```js\nconst a = "<b>";\n```');
    expect(out.querySelector('pre code span.hljs-keyword')?.textContent).toBe('const');
    expect(out.querySelector('pre code')?.textContent).toBe('const a = "<b>";');
    expect(out.querySelector('b')).toBeNull();
  });

  it('leaves a block in a language it does not know plain', () => {
    expect(highlightBlocks(blocks('```cobol\nMOVE A TO B.\n```')[0] ?? '', highlight)).not.toContain('hljs');
  });

  it('typesets inline and display math as MathML', () => {
    const out = rich('So $x^2$ holds.\n\n$$\n\\sum_i i\n$$');
    const maths = [...out.querySelectorAll('math')];
    expect(maths.map((m) => m.getAttribute('display'))).toEqual([null, 'block']);
    expect(maths[0]?.namespaceURI).toBe('http://www.w3.org/1998/Math/MathML');
    expect(out.querySelector('msup')).not.toBeNull();
  });

  it('gives a $…$ that pandoc would not read as math back its dollars', () => {
    expect(rich('Pay $a and $5 later.').textContent).toBe('Pay $a and $5 later.');
  });

  it('keeps the TeX source of a formula Temml cannot read', () => {
    const out = rich('Broken $\\frac{a$ here');
    expect(out.querySelector('math')).toBeNull();
    expect(out.querySelector('code')?.textContent).toBe('\\frac{a');
  });

  it('keeps only highlight.js class names, on spans only', () => {
    const out = document.createElement('div');
    out.innerHTML = sanitize(
      '<pre><code><span class="hljs-title function_">f</span><span class="msg panel">x</span><b class="hljs-x">y</b></code></pre>',
      [CODE_ALLOWLIST],
    );
    expect([...out.querySelectorAll('[class]')].map((e) => `${e.tagName}.${e.className}`)).toEqual([
      'SPAN.hljs-title function_',
    ]);
  });
});

describe.each([...RICH_XSS_CASES, ...XSS_CASES])('through the add-ons: $title', ({ markdown }) => {
  it('runs nothing, links nowhere, styles nothing', () => {
    const out = rich(markdown);
    const all = [...out.querySelectorAll('*')];
    expect(
      out.querySelector('script, img, iframe, style, svg, maction, annotation-xml, semantics, annotation'),
    ).toBeNull();
    for (const element of all)
      for (const { name, value } of element.attributes) {
        expect(name).not.toMatch(/^on|^style$|^id$|^src$|xlink/);
        if (name === 'href') expect(element.tagName).toBe('A');
        if (name === 'href') expect(value).not.toMatch(/^\s*(javascript|data|vbscript):/i);
        if (name === 'class') expect(`${element.tagName} ${value}`).toMatch(/^SPAN hljs-/);
      }
  });
});

describe('the add-ons see the text as it was written', () => {
  // Loaded afresh per test, so the module's patterns and entity table count towards the tests that probe them.
  let rendering: typeof import('../../../src/render/rich');
  beforeEach(async () => {
    vi.resetModules();
    rendering = await import('../../../src/render/rich');
  });
  const ESCAPED = 'a &lt; b &amp;&amp; c &gt; &quot;q&quot;&nbsp;&#39;';
  const WRITTEN = 'a < b && c > "q"\u00a0&#39;';

  it('hands each fenced block to the highlighter unescaped, with its language or none, and keeps its result', () => {
    const seen: [string, string][] = [];
    const html =
      `<pre><code ${LANGUAGE_ATTRIBUTE}="j&amp;s">${ESCAPED}</code></pre><p>between</p>` +
      `<pre><code>second</code></pre>`;
    const out = rendering.highlightBlocks(html, (text, language) => (seen.push([text, language]), `[${language}]`));
    expect(seen).toEqual([
      [WRITTEN, 'j&s'],
      ['second', ''],
    ]);
    expect(out).toBe('<pre><code>[j&s]</code></pre><p>between</p><pre><code>[]</code></pre>');
  });

  it('leaves a block the highlighter declines exactly as it was', () => {
    const html = `<pre><code ${LANGUAGE_ATTRIBUTE}="cobol">MOVE A TO B.</code></pre>`;
    expect(rendering.highlightBlocks(html, () => undefined)).toBe(html);
  });

  it('hands each math span to the typesetter unescaped and trimmed, block or inline, and keeps a declined one', () => {
    const seen: [string, boolean][] = [];
    const html =
      `<p><code ${MATH_ATTRIBUTE}="inline"> ${ESCAPED} </code> and ` +
      `<code ${MATH_ATTRIBUTE}="inline">x</code></p><pre ${MATH_ATTRIBUTE}="block">\ny\n</pre>`;
    const out = rendering.typesetMath(html, (tex, display) => {
      seen.push([tex, display]);
      return tex === 'x' ? undefined : `<math>${display ? 'B' : 'I'}</math>`;
    });
    expect(seen).toEqual([
      [WRITTEN, false],
      ['x', false],
      ['y', true],
    ]);
    expect(out).toBe(`<p><math>I</math> and <code ${MATH_ATTRIBUTE}="inline">x</code></p><math>B</math>`);
  });
});

// @vitest-environment jsdom
// The add-ons' allowlists (rich-allowlist.ts) are exactly what they say, read through the sanitiser they extend: every
// element and attribute Temml and highlight.js write survives (a name dropped from a list, a narrowing, fails here),
// the MathML that can link, toggle or carry HTML does not (a widening fails here, as in sanitize.allowlist), and each
// list adds nothing to a block the other add-on went through alone.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RichAllowlist } from '../../../src/render/rich-allowlist';
import type { Sanitize } from '../../../src/render/sanitize';
import { HTML_ATTRIBUTES } from '../../fixtures/html-names';

/** The presentation MathML elements Temml writes, each kept. */
const MATHML_KEPT = [
  'menclose',
  'merror',
  'mfrac',
  'mi',
  'mmultiscripts',
  'mn',
  'mo',
  'mover',
  'mpadded',
  'mphantom',
  'mprescripts',
  'mroot',
  'mrow',
  'ms',
  'mspace',
  'msqrt',
  'mstyle',
  'msub',
  'msubsup',
  'msup',
  'mtable',
  'mtd',
  'mtext',
  'mtr',
  'munder',
  'munderover',
  'none',
];
/** MathML that can toggle, link or carry other markup, or that Temml does not write: each dropped. */
const MATHML_DROPPED = ['maction', 'semantics', 'annotation', 'annotation-xml', 'mglyph', 'malignmark', 'mlabeledtr'];
/** The attributes that shape a formula, each kept on the element it is tried on. */
const ATTRIBUTES_KEPT = [
  'accent',
  'accentunder',
  'columnalign',
  'columnlines',
  'columnspacing',
  'depth',
  'display',
  'displaystyle',
  'fence',
  'form',
  'height',
  'largeop',
  'linethickness',
  'lspace',
  'mathvariant',
  'maxsize',
  'minsize',
  'movablelimits',
  'notation',
  'rowalign',
  'rowlines',
  'rowspacing',
  'rspace',
  'scriptlevel',
  'separator',
  'stretchy',
  'symmetric',
  'voffset',
  'width',
];
/** The reply allowlist's own attributes, which the rich one extends (sanitize.ts). */
const REPLY_ATTRIBUTES = new Set(['href', 'title', 'start', 'align']);

// Imported afresh for each test, as in sanitize.allowlist: the allowlists are read when the module loads.
let sanitize: Sanitize;
let lists: Record<'code' | 'math', RichAllowlist>;
beforeEach(async () => {
  vi.resetModules();
  const { createSanitizer } = await import('../../../src/render/sanitize');
  const { CODE_ALLOWLIST, MATH_ALLOWLIST } = await import('../../../src/render/rich-allowlist');
  sanitize = createSanitizer(window, { code: 'Code', table: 'Table' });
  lists = { code: CODE_ALLOWLIST, math: MATH_ALLOWLIST };
});

/** The sanitiser's output for `html` after the add-ons named (both by default), parsed. */
function parse(html: string, addons: readonly ('code' | 'math')[] = ['code', 'math']): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = sanitize(
    html,
    addons.map((name) => lists[name]),
  );
  return root;
}

describe('the add-ons’ allowlist', () => {
  it.each(MATHML_KEPT)('keeps <%s> inside <math>', (tag) => {
    const out = parse(`<math display="block"><${tag}>1</${tag}></math>`);
    expect(out.querySelector('math')?.getAttribute('display')).toBe('block');
    expect(out.querySelector(`math ${tag}`)?.textContent).toBe('1');
  });

  it.each(MATHML_DROPPED)('drops <%s> inside <math>', (tag) => {
    expect(parse(`<math><${tag}><mi>x</mi></${tag}></math>`).querySelector(`math ${tag}`)).toBeNull();
  });

  it.each(ATTRIBUTES_KEPT)('keeps %s on a MathML element', (name) => {
    expect(parse(`<math><mo ${name}="1">+</mo></math>`).querySelector('mo')?.getAttribute(name)).toBe('1');
  });

  it('drops every other attribute from a MathML element', () => {
    const kept = new Set([...ATTRIBUTES_KEPT, ...REPLY_ATTRIBUTES, 'class']);
    // DOMPurify leaves `is` in place emptied (as sanitize.allowlist reads it): it names no element then.
    const survives = (name: string) => {
      const mo = parse(`<math><mo ${name}="1">+</mo></math>`).querySelector('mo');
      return !mo || (mo.hasAttribute(name) && !(name === 'is' && mo.getAttribute(name) === ''));
    };
    const widened = HTML_ATTRIBUTES.filter((name) => !kept.has(name)).filter(survives);
    expect(widened).toEqual([]);
  });

  it.each([
    ['hljs-keyword', true],
    ['hljs-title function_', true],
    // highlight.js's own spelling of nested scopes: a modifier of one or more underscores each.
    ['hljs-title class_ inherited__', true],
    ['hljs-title evil', false],
    ['evil hljs-title', false],
    ['hljs-title function_ x', false],
  ] as const)('keeps class="%s" on a <span>: %s', (value, kept) => {
    expect(parse(`<span class="${value}">f</span>`).querySelector('span')?.className ?? '').toBe(kept ? value : '');
  });

  it('keeps highlight.js’s class on a <span> only', () => {
    expect(parse('<b class="hljs-keyword">h</b>').querySelector('[class]')).toBeNull();
  });

  it('keeps MathML after the math add-on, and no highlighted span', () => {
    const out = parse('<math><mi>x</mi></math><span class="hljs-keyword">k</span>', ['math']);
    expect(out.querySelector('math mi')?.textContent).toBe('x');
    expect(out.querySelector('span')).toBeNull();
  });

  it('keeps highlighted spans after the code add-on, and no MathML', () => {
    const out = parse('<math><mi>x</mi></math><span class="hljs-keyword">k</span>', ['code']);
    expect(out.querySelector('span.hljs-keyword')?.textContent).toBe('k');
    expect(out.querySelector('math, mi')).toBeNull();
  });

  it('keeps each set of lists apart in one sanitiser: none, code, math, both, in turn', () => {
    const html = '<math><mi>x</mi></math><span class="hljs-keyword">k</span>';
    const kept = (addons: readonly ('code' | 'math')[]) => {
      const out = parse(html, addons);
      return [out.querySelector('math mi') !== null, out.querySelector('span.hljs-keyword') !== null];
    };
    expect([kept([]), kept(['code']), kept(['math']), kept(['code', 'math'])]).toEqual([
      [false, false],
      [false, true],
      [true, false],
      [true, true],
    ]);
  });

  it('keeps neither without an add-on: the reply allowlist alone', () => {
    const out = parse('<math><mi>x</mi></math><span class="hljs-keyword">k</span>', []);
    expect(out.querySelector('math, mi, span')).toBeNull();
    expect(out.textContent).toBe('k');
  });
});

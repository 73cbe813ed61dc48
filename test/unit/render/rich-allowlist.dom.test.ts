// @vitest-environment jsdom
// The add-ons' allowlist (rich-allowlist.ts) is exactly what it says, read through the rich sanitiser: every element
// and attribute Temml and highlight.js write survives (a name dropped from the list, a narrowing, fails here), and
// the MathML that can link, toggle or carry HTML does not (a widening fails here, as in sanitize.allowlist).
import { beforeEach, describe, expect, it, vi } from 'vitest';
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
beforeEach(async () => {
  vi.resetModules();
  const { createSanitizer } = await import('../../../src/render/sanitize');
  sanitize = createSanitizer(window, { code: 'Code', table: 'Table' });
});

/** The rich sanitiser's output for `html`, parsed. */
function parse(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = sanitize(html, true);
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
});

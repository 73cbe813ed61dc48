/**
 * SECURITY: what the add-ons' output may add to the reply allowlist (sanitize.ts), and nothing else.
 * - The highlighter's `<span class="hljs-…">`: a class attribute survives on a `<span>` only, and only when it is
 *   highlight.js's (`hljs-*`, with its `function_`-style modifiers); any other is dropped whole.
 * - Temml's MathML, presentation elements only: no `maction` (it can toggle and link), no `annotation-xml` (which
 *   may carry HTML), no `semantics`; attributes that shape the formula, never `href`, `xlink:href`, `style`,
 *   `class`, `id` or event handlers.
 */
export const RICH_TAGS = [
  'span',
  'math',
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

/** The attributes of the add-ons' output (see `RICH_TAGS`); `class` is narrowed by `richClass`. */
export const RICH_ATTRIBUTES = [
  'class',
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

/** A class attribute as highlight.js writes it: `hljs-keyword`, or `hljs-title function_` with its modifiers. */
const HLJS_CLASS = /^hljs-[a-z_-]+(?: [a-z]+_+)*$/;

/** Whether a `class` attribute may stay on `element`: highlight.js's own, on a `<span>`. */
export function isRichClass(element: string, value: string): boolean {
  return element === 'SPAN' && HLJS_CLASS.test(value);
}

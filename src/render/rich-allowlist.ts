/**
 * SECURITY: what each add-on's output may add to the reply allowlist (sanitize.ts), and nothing else. Each list
 * travels in its add-on's file, which the chat file pins by its hash, so that the chat file carries none of it, and
 * a block is sanitised with the lists of the add-ons that went through it only: a block with code alone keeps no
 * MathML, and one with math alone no class.
 */
export interface RichAllowlist {
  /** The add-on's name, which keys the sanitiser built with its list. */
  readonly name: string;
  /** The elements its output adds. */
  readonly tags: readonly string[];
  /** The attributes its output adds. */
  readonly attributes: readonly string[];
  /** Whether a `class` attribute may stay on an element (by its `nodeName`); without it, none may. */
  readonly keepsClass?: (element: string, value: string) => boolean;
}

/** A class attribute as highlight.js writes it: `hljs-keyword`, or `hljs-title function_` with its modifiers. */
const HLJS_CLASS = /^hljs-[a-z_-]+(?: [a-z]+_+)*$/;

/**
 * The highlighter's `<span class="hljs-…">`: a class attribute survives on a `<span>` only, and only when it is
 * highlight.js's (`hljs-*`, with its `function_`-style modifiers); any other is dropped whole.
 */
export const CODE_ALLOWLIST: RichAllowlist = {
  name: 'code',
  tags: ['span'],
  attributes: ['class'],
  keepsClass: (element, value) => element === 'SPAN' && HLJS_CLASS.test(value),
};

/**
 * Temml's MathML, presentation elements only: no `maction` (it can toggle and link), no `annotation-xml` (which may
 * carry HTML), no `semantics`; attributes that shape the formula, never `href`, `xlink:href`, `style`, `class`, `id`
 * or event handlers.
 */
export const MATH_ALLOWLIST: RichAllowlist = {
  name: 'math',
  tags: [
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
  ],
  attributes: [
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
  ],
};

import type { ReadonlySignal } from '@preact/signals';
import { LANGUAGE_ATTRIBUTE, MATH_ATTRIBUTE } from './markdown.js';

/** The add-ons a reply may need: the syntax highlighter and the TeX typesetter. */
export type AddonKind = 'code' | 'math';

/**
 * What the add-ons do, once loaded: each takes a finished block of the markdown renderer's HTML and returns it with
 * its code highlighted (`highlightBlocks`) or its math typeset (`typesetMath`). The result is NOT yet safe: it goes
 * through the sanitizer's add-on allowlist like the rest of the block.
 */
export type Renderers = Record<AddonKind, (html: string) => string>;

/** The add-ons loaded so far. */
export type LoadedRenderers = Partial<Renderers>;

/** The add-ons a widget may load, and those it has (created by mount/addons.ts). */
export interface Addons {
  /** The renderers loaded so far: a new object each time one arrives, so that replies showing code or math redraw. */
  readonly ready: ReadonlySignal<LoadedRenderers>;
  /** The loaded add-ons' stylesheets, joined (the code's token colours). */
  readonly css: ReadonlySignal<string>;
  /** Loads `kind`'s file, once per page however often it is asked for; a failed load is not tried again. */
  need(kind: AddonKind): void;
}

/** A fenced code block's `<pre><code>` as streaming-markdown's renderer writes it, with its language if it has one. */
const CODE = /* @__PURE__ */ new RegExp(`<pre><code(?: ${LANGUAGE_ATTRIBUTE}="([^"]*)")?>([^<]*)</code></pre>`, 'g');

/**
 * A math span, and the character after it. Pandoc's rule for `$…$`, which smd's parser only half applies: the
 * opening `$` is followed by a non-space (smd checks that), the closing one follows a non-space and is not followed
 * by a digit, so `$5 and $10` and `$a and $5` stay prices.
 */
const MATH = /* @__PURE__ */ new RegExp(
  `<(?:code|pre) ${MATH_ATTRIBUTE}="(?<kind>inline|block)">(?<tex>[^<]*)</(?:code|pre)>(?=(?<next>\\d?))`,
  'g',
);

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&nbsp;': '\u00a0' };

/** Text (or an attribute) as it was before the browser's HTML serialiser escaped it. */
const unescape = (html: string) => html.replace(/&(?:amp|lt|gt|quot|nbsp);/g, (entity) => ENTITIES[entity] ?? entity);

/** Whether an inline span is math by pandoc's rule (a display one always is). */
function isMath({ kind, tex = '', next }: Partial<Record<'kind' | 'tex' | 'next', string>>): boolean {
  return kind === 'block' || (!/(?:\s|&nbsp;)$/.test(tex) && next === '');
}

/**
 * Whether a block holds math by pandoc's rule (`isMath`'s, as one test, so that the chat file need not carry the
 * add-on's parsing): a display span, or an inline one whose TeX ends in a non-space with no digit after it.
 */
const HOLDS_MATH = /* @__PURE__ */ new RegExp(
  `<pre ${MATH_ATTRIBUTE}="block">|<code ${MATH_ATTRIBUTE}="inline">[^<]*[^\\s<](?<!&nbsp;)</code>(?!\\d)`,
);

/** Which add-ons a block of the markdown renderer's HTML needs: a fenced code block, math by pandoc's rule. */
export function neededAddons(html: string): AddonKind[] {
  const kinds: AddonKind[] = [];
  if (html.includes('<pre><code')) kinds.push('code');
  if (HOLDS_MATH.test(html)) kinds.push('math');
  return kinds;
}

/**
 * A finished block with each fenced code block highlighted by `highlight` (highlight.js's HTML for the text and the
 * fence's language, or nothing to leave it plain). Works on the serialised HTML, so that no markup is parsed outside
 * the sanitizer, which the result goes through.
 */
export function highlightBlocks(html: string, highlight: (text: string, language: string) => string | undefined) {
  return html.replace(CODE, (block, language: string | undefined, text: string) => {
    const highlighted = highlight(unescape(text), unescape(language ?? ''));
    return highlighted === undefined ? block : `<pre><code>${highlighted}</code></pre>`;
  });
}

/**
 * A finished block with its math typeset by `typeset` (MathML for the TeX and whether it is `$$…$$`, or nothing to
 * leave the source): a `$…$` that pandoc would not read as math goes back to its text, dollars included.
 */
export function typesetMath(html: string, typeset: (tex: string, display: boolean) => string | undefined) {
  return html.replace(MATH, (span: string, ...rest: unknown[]) => {
    // The named groups come last.
    const groups = rest.at(-1) as Record<'kind' | 'tex' | 'next', string>;
    if (!isMath(groups)) return `$${groups.tex}$`;
    return typeset(unescape(groups.tex).trim(), groups.kind === 'block') ?? span;
  });
}

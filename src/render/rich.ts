import type { ReadonlySignal } from '@preact/signals';
import { LANGUAGE_ATTRIBUTE, MATH_ATTRIBUTE } from './markdown.js';
import type { RichAllowlist } from './rich-allowlist.js';

/** The add-ons a reply may need: the syntax highlighter and the TeX typesetter. */
export type AddonKind = 'code' | 'math';

/**
 * An add-on, once loaded: `render` takes a finished block of the markdown renderer's HTML and returns it with its
 * code highlighted (`highlightBlocks`) or its math typeset (`typesetMath`). The result is NOT yet safe: it goes
 * through the sanitizer extended by `allowlist`, what the add-on's output adds to the reply allowlist, and no more.
 */
export interface Renderer {
  render: (html: string) => string;
  allowlist: RichAllowlist;
}

/** The add-ons loaded so far. */
export type LoadedRenderers = Partial<Record<AddonKind, Renderer>>;

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

/** A math span: `$…$` (inline) or `$$…$$` (block), marked as math by pandoc's rule in markdown.ts. */
const MATH = /* @__PURE__ */ new RegExp(
  `<(?:code|pre) ${MATH_ATTRIBUTE}="(?<kind>inline|block)">(?<tex>[^<]*)</(?:code|pre)>`,
  'g',
);

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&nbsp;': '\u00a0' };

/** Text (or an attribute) as it was before the browser's HTML serialiser escaped it. */
const unescape = (html: string) => html.replace(/&(?:amp|lt|gt|quot|nbsp);/g, (entity) => ENTITIES[entity] ?? entity);

/** Which add-ons a block of the markdown renderer's HTML needs: a fenced code block, math by pandoc's rule. */
export function neededAddons(html: string): AddonKind[] {
  const kinds: AddonKind[] = [];
  if (html.includes('<pre><code')) kinds.push('code');
  if (html.includes(` ${MATH_ATTRIBUTE}="`)) kinds.push('math');
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
 * leave the source).
 */
export function typesetMath(html: string, typeset: (tex: string, display: boolean) => string | undefined) {
  return html.replace(MATH, (span: string, ...rest: unknown[]) => {
    // The named groups come last.
    const groups = rest.at(-1) as Record<'kind' | 'tex', string>;
    return typeset(unescape(groups.tex).trim(), groups.kind === 'block') ?? span;
  });
}

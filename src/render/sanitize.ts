import createDOMPurify, { type Config } from 'dompurify';
import type { RichAllowlist } from './rich-allowlist.js';

/** HTML that has been through `sanitize()`: the only kind `ui/Markdown.tsx` will set as inner HTML. */
export type SafeHtml = string & { readonly __brand: 'SafeHtml' };

/**
 * SECURITY: a strict allowlist for bot replies. Text formatting, lists, quotes, code, tables and links only:
 * no scripts, styles, forms, media, iframes, SVG/MathML, event handlers, ids/classes or data attributes; URLs
 * limited to http(s), mailto, tel and relative ones (no `javascript:`, `data:`, `vbscript:`).
 */
const CONFIG: Config = {
  ALLOWED_TAGS: [
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
    // Stryker disable next-line StringLiteral: DOMPurify keeps a table's <tbody> even when it is not listed here.
    'tbody',
    'td',
    'th',
    'thead',
    'tr',
    'ul',
  ],
  ALLOWED_ATTR: ['href', 'title', 'start', 'align'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z0-9.+-]+(?:[^a-z0-9.+\-:]|$))/i,
};

/** The reply allowlist extended, as DOMPurify extends one, by what the add-ons that went through a block add. */
const extendedConfig = (extras: readonly RichAllowlist[]): Config => ({
  ...CONFIG,
  ADD_TAGS: extras.flatMap((extra) => extra.tags),
  ADD_ATTR: extras.flatMap((extra) => extra.attributes),
});

/**
 * A sanitiser: HTML in, the strict reply allowlist's HTML out; for a block the add-ons went through, with what their
 * allowlists add (rich-allowlist.ts), the lists of those add-ons only.
 */
export type Sanitize = (html: string, extras?: readonly RichAllowlist[]) => SafeHtml;

/** Results kept per sanitiser, by input (the oldest go first). */
const MEMO_SIZE = 500;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

interface PurifierOptions {
  view: Window & typeof globalThis;
  labels: Readonly<Record<'code' | 'table', string>>;
  /** The add-ons' allowlists, added to the reply's. */
  extras: readonly RichAllowlist[];
}

/** A DOMPurify instance of its own, set to the reply allowlist (with `extras`) and the hooks below. */
function createPurifier({ view, labels, extras }: PurifierOptions) {
  const purifier = createDOMPurify(view);
  // Stryker disable next-line BooleanLiteral: jsdom has no Trusted Types, so true returns the same string there.
  purifier.setConfig({ ...extendedConfig(extras), RETURN_TRUSTED_TYPE: false });
  // A class stays only where an add-on's list keeps it (the reply allowlist keeps none).
  purifier.addHook('uponSanitizeAttribute', (node, data) => {
    if (data.attrName === 'class')
      data.keepAttr = extras.some((extra) => extra.keepsClass?.(node.nodeName, data.attrValue) === true);
  });
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
    // Set after the allowlist ran, so the reply itself can set none of these.
    if (node.nodeName === 'PRE' || node.nodeName === 'TABLE') {
      node.setAttribute('tabindex', '0');
      if (node.nodeName === 'PRE') node.setAttribute('role', 'region');
      node.setAttribute('aria-label', node.nodeName === 'PRE' ? labels.code : labels.table);
    }
  });
  return purifier;
}

/**
 * Creates a sanitiser with the strict reply allowlist (extended, for the add-ons' output, by their lists), one per
 * widget.
 * Its DOMPurify instances are its own, so the hooks and config never touch a host app's DOMPurify, and vice versa;
 * each is created, and its config parsed, on its first call (passing the config to every call would parse it again
 * each time, and a streaming reply is sanitised once per animation frame). Results are kept by input: a reply sanitised block by block while it streams costs
 * lookups, not parses, when it is committed as a message.
 * Code blocks and tables scroll sideways when wide, so they are made keyboard-reachable and named by `labels`
 * (a table keeps its own role, a code block becomes a named region).
 * SECURITY: DOMPurify returns its input untouched where it deems itself unsupported; we fail closed instead and
 * show the markup as text.
 */
export function createSanitizer(
  view: Window & typeof globalThis,
  labels: Readonly<Record<'code' | 'table', string>>,
): Sanitize {
  // A purifier per set of add-on allowlists, by their names ('' for the reply allowlist alone).
  const purifiers = new Map<string, ReturnType<typeof createDOMPurify>>();
  const memo = new Map<string, SafeHtml>();
  const purify = (html: string, extras: readonly RichAllowlist[], kind: string) => {
    // Stryker disable next-line LogicalOperator: a new instance per call sanitises alike, only slower.
    const purifier = purifiers.get(kind) ?? createPurifier({ view, labels, extras });
    purifiers.set(kind, purifier);
    return purifier.isSupported ? purifier.sanitize(html) : html.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
  };
  return (html, extras = []) => {
    // A result with add-ons' lists is kept apart from the plain one of the same input.
    const kind = extras.map((extra) => extra.name).join();
    const key = `${kind}:${html}`;
    let safe = memo.get(key);
    // Stryker disable next-line ConditionalExpression: sanitising again gives the same answer, only slower.
    if (safe === undefined) {
      safe = purify(html, extras, kind) as SafeHtml;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: eviction bounds memory; answers are alike.
      if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
      memo.set(key, safe);
    }
    return safe;
  };
}

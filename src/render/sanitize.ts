import createDOMPurify, { type Config } from 'dompurify';

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

let purifier: ReturnType<typeof createDOMPurify> | undefined;

// A DOMPurify instance of our own, so the hook and config below never touch a host app's DOMPurify, and vice
// versa. The config is parsed once here: passing it to every sanitize() call would parse it again each time, and
// a streaming reply calls sanitize() once per animation frame.
function getPurifier() {
  if (!purifier) {
    purifier = createDOMPurify(window);
    purifier.setConfig({ ...CONFIG, RETURN_TRUSTED_TYPE: false });
    purifier.addHook('afterSanitizeAttributes', (node) => {
      if (node.nodeName === 'A' && node.hasAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
  }
  return purifier;
}

/**
 * The last results, by input: a reply is sanitised block by block while it streams and again, whole, when it is
 * committed as a message; the blocks are the same strings, so the second pass costs lookups, not parses.
 * Sanitising is a pure function of its input (the config never changes), so the memo is shared by every widget.
 */
const memo = new Map<string, SafeHtml>();
const MEMO_SIZE = 500;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Sanitises an HTML string with the strict reply allowlist.
 * SECURITY: DOMPurify returns its input untouched where it deems itself unsupported; we fail closed instead and
 * show the markup as text.
 */
export function sanitize(html: string): SafeHtml {
  let safe = memo.get(html);
  if (safe === undefined) {
    const purify = getPurifier();
    safe = (purify.isSupported ? purify.sanitize(html) : html.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)) as SafeHtml;
    if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
    memo.set(html, safe);
  }
  return safe;
}

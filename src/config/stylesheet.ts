/** The settings of the site's own styles, which the chat file reads: `data-stylesheet` and `css` (`mount()`). */
export type SiteStyleKey = 'stylesheet' | 'css';

/** The site's styles, checked: the stylesheet's absolute URL, and the CSS text. */
export interface SiteStyle {
  url?: string | undefined;
  css?: string | undefined;
}

/** What `data-stylesheet` must be, as its console error says. */
const STYLESHEET_RULE =
  'a URL on the page\'s own origin (e.g. "/css/askbox.css") or an https: URL on another origin that serves it with CORS';

/** The longest stylesheet URL accepted, as for the limit notice's link. */
const MAX_URL_LENGTH = 2000;

// SECURITY: the stylesheet is fetched and adopted as CSS, which can restyle the panel and send what it shows to the
// origin it names (a background-image per attribute value). So it comes from the page's own origin, or over https
// from an origin that agrees to serve it (CORS). Spelled out, never guessed: a protocol-relative `//host`, a
// backslash (read as a slash), whitespace or control characters (which URL parsing strips), credentials, an IP
// address for a host, and every other scheme (`javascript:`, `data:`, `blob:`, `file:`, `http:` on another origin)
// are refused. The WordPress plugin checks the same rule (widget-rules.php, held to this one by its test).
const UNSAFE = /[\s\\]/;
/** A scheme: what a URL starts with when it is not relative. */
const SCHEME = /^[a-z][a-z\d+.-]*:/i;
/** An absolute URL as the rule spells it: http(s), a host name (its last label not a number), an optional port. */
const ABSOLUTE = /^https?:\/\/(?:[a-z\d-]+\.)*(?=[\d-]*[a-z])[a-z\d-]+(?::\d{1,5})?(?:[/?#]|$)/i;

/** Whether `value` holds a control character, which a URL parser would drop without a word. */
const hasControl = (value: string) => [...value].some((c) => c < ' ' || c === '\u007f');

/**
 * The URL `data-stylesheet` names, resolved against `page` (the page's URL), if the rule above allows it; else
 * undefined. A relative path resolves as a link of the page would.
 */
export function stylesheetUrl(value: string, page: string): string | undefined {
  if (value.length > MAX_URL_LENGTH || UNSAFE.test(value) || hasControl(value) || value.startsWith('//'))
    return undefined;
  if (SCHEME.test(value) && !ABSOLUTE.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, page);
  } catch {
    // A port past 65535.
    return undefined;
  }
  const own = url.origin === new URL(page).origin;
  const allowed = url.protocol === 'https:' || (own && url.protocol === 'http:');
  return allowed ? url.href : undefined;
}

/**
 * The site's styles in `input` (the widget's settings as given), read by the chat file so that the launcher carries
 * none of their rules. A bad value is left out and named in one console error; the widget keeps its own styles.
 */
export function parseSiteStyle(input: Readonly<Record<string, unknown>>, page: string): SiteStyle {
  const { stylesheet, css } = input;
  const problems: string[] = [];
  let url: string | undefined;
  if (stylesheet !== undefined && stylesheet !== '') {
    url = typeof stylesheet === 'string' ? stylesheetUrl(stylesheet.trim(), page) : undefined;
    if (!url) problems.push(`stylesheet ${JSON.stringify(stylesheet)} must be ${STYLESHEET_RULE}`);
  }
  if (css !== undefined && typeof css !== 'string') problems.push('css must be a string of CSS');
  if (problems.length > 0) console.error(`[askbox] The site's styles are left out:\n  - ${problems.join('\n  - ')}`);
  return { url, css: typeof css === 'string' && css.trim() ? css : undefined };
}

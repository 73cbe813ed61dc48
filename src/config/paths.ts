/**
 * Page rules: `showOn` and `hideOn` (`data-show-on`, `data-hide-on`) keep a widget to some pages of a site, so that
 * one tag in a theme's footer can stay off `/checkout/*`.
 *
 * A pattern is a path matched against the whole of `location.pathname`, case-sensitively, in which `*` stands for
 * any run of characters, `/` included, as `*` does in a URLPattern pathname: `/checkout/*` matches `/checkout/` and
 * `/checkout/step/2` but not `/checkout`; `/docs*` matches `/docs`, `/docs/a` and `/docs-old`. No other character
 * is special: URLPattern's groups and parameters (`:id`, `(…)`, `{…}`, `?`) and `\` are refused rather than
 * matched as text, and so are a query or fragment (`?`, `#`), which a pathname never holds.
 */

/** Characters that mean something else to URLPattern, or belong to a URL's query or fragment. */
const SYNTAX = /[?#:(){}\\]/;

/**
 * The patterns in `value`: a string of patterns separated by commas or white space, or (from `mount()`) an array
 * of them; [] for none. A pattern that is not a path (see above), or a value that is no pattern at all (a number…),
 * is reported through `fail`. Letters beyond ASCII
 * are percent-encoded as UTF-8, as the browser encodes them in `location.pathname`.
 */
export function parsePaths(value: unknown, fail: (message: string) => void): string[] {
  const given = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return given
    .flatMap((item) => String(item).split(/[\s,]+/))
    .filter(Boolean)
    .map((pattern) => {
      try {
        if (/^[/*]/.test(pattern) && !SYNTAX.test(pattern)) return pattern.replace(/[^\0-~]+/g, encodeURI);
      } catch {
        // encodeURI refuses a lone surrogate: not a path either.
      }
      fail(`"${pattern}" is not a path pattern such as "/checkout/*"`);
      return pattern;
    });
}

/**
 * Whether `path` matches `pattern` (see above), piece by piece between the stars: the first piece starts the path,
 * the last ends it, and each other is taken at its leftmost place after the one before, which is exact when `*` is
 * the only wildcard. SECURITY: no RegExp is built, so the page's text is only ever compared as text, and a pattern
 * with many stars costs at most a scan of the path per piece: a RegExp's backtracking (`.*a.*a.*a…`) on a long URL
 * that a link can make up would freeze the page.
 */
export function matchesPath(pattern: string, path: string): boolean {
  const [first = '', ...rest] = pattern.split('*');
  const last = rest.pop();
  if (last === undefined) return path === first;
  let at = first.length;
  const end = path.length - last.length;
  if (end < at || !path.startsWith(first) || !path.endsWith(last)) return false;
  for (const piece of rest) {
    const found = path.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

/**
 * Whether a widget with these rules belongs on the page at `path`: no `showOn` or one of them matches, and none of
 * `hideOn` does (hiding wins).
 */
export function pathAllowed(rules: { showOn: readonly string[]; hideOn: readonly string[] }, path: string): boolean {
  const matches = (pattern: string) => matchesPath(pattern, path);
  return (rules.showOn.length === 0 || rules.showOn.some(matches)) && !rules.hideOn.some(matches);
}

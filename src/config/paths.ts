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
      fail(`"${pattern}" is not a path pattern (e.g. "/checkout/*", where * matches any characters)`);
      return pattern;
    });
}

/**
 * Whether `path` matches `pattern` (see above): the pattern as a RegExp in which `.*` stands for each `*`.
 * SECURITY: every other character that is not a letter, digit or `_` is escaped, so the page's text is only ever
 * matched as text (no `.` wildcard, `[…]` class or `(…)` group of its own), and the anchors hold it to the whole path.
 */
export function matchesPath(pattern: string, path: string): boolean {
  return new RegExp(`^${pattern.replace(/\W/g, (c) => (c === '*' ? '.*' : `\\${c}`))}$`).test(path);
}

/**
 * Whether a widget with these rules belongs on the page at `path`: no `showOn` or one of them matches, and none of
 * `hideOn` does (hiding wins).
 */
export function pathAllowed(rules: { showOn: readonly string[]; hideOn: readonly string[] }, path: string): boolean {
  const matches = (pattern: string) => matchesPath(pattern, path);
  return (rules.showOn.length === 0 || rules.showOn.some(matches)) && !rules.hideOn.some(matches);
}

/** What the proxy reads of a request's URL: its forwarded query, its path for a log line. */

/** The listed query parameters of `url`, as a query string. */
export function query(url: URL, keys: readonly string[]): string {
  const out = new URLSearchParams();
  for (const key of keys) {
    const value = url.searchParams.get(key);
    if (value !== null) out.set(key, value);
  }
  const text = out.toString();
  return text ? `?${text}` : '';
}

/** The path for a log line: stream tokens are capabilities, so they are left out. */
export function logPath(url: URL): string {
  return url.pathname.replace(/\/stream\/[^/]*/, '/stream/:token');
}

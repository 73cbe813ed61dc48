import type { ProxyLogEntry } from './options.js';

/**
 * A `log` for `createProxy` that writes what a site owner acts on to the console, one JSON line each: warnings (no
 * secret set, a limit refused), errors, and visitors' ratings (the default `onFeedback` is a `feedback` line).
 * Request lines stay out: the host or framework logs requests already, and one line per request would bury the rest.
 * PRIVACY: the visitor's IP is dropped from every line. SECURITY: entries carry no key, secret, grant or stream token.
 *
 * @example
 * const proxy = createProxy({ apiKey, botIds, secret, log: logToConsole });
 */
export function logToConsole(entry: ProxyLogEntry): void {
  if (entry.level === 'info' && entry.event !== 'feedback') return;
  const { ip: _ip, ...shown } = entry;
  const line = JSON.stringify(shown);
  if (entry.level === 'error') console.error(line);
  else if (entry.level === 'warn') console.warn(line);
  else console.log(line);
}

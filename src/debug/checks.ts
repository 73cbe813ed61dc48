/**
 * The self-diagnosis checks (`?askbox-debug=1`), as pure functions of what the overlay measured: each becomes one
 * line for the site owner, in plain words, with what to do. Nothing here reads or shows a secret: the proxy's
 * health route answers only whether it is up, whether it is an Askbox proxy and whether it serves a bot id (which
 * every page with the widget carries anyway).
 */

/** One line of the report. */
export interface Check {
  level: 'ok' | 'warn' | 'fail';
  text: string;
}

/** What `GET <proxy>/health?bot_id=…` gave: a status and JSON body, or the fetch's failure. */
export type HealthResult = { status: number; body: unknown } | { error: string };

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** The widget whose proxy is checked: its proxy's URL and bot id, and the origin of the page it is on. */
interface ProxiedWidget {
  proxyUrl: string;
  botId: string;
  origin: string;
}

/** The proxy and bot checks for one widget, from its proxy's health answer. */
export function checkProxy({ proxyUrl, botId, origin }: ProxiedWidget, result: HealthResult): Check[] {
  if ('error' in result)
    return [
      {
        level: 'fail',
        text: `The proxy at ${proxyUrl} did not answer (${result.error}). It is down, the URL is wrong, or it refuses this site: a proxy on another origin must list ${origin} in allowedOrigins.`,
      },
    ];
  const body = record(result.body);
  if (result.status === 403)
    return [
      {
        level: 'fail',
        text: `The proxy at ${proxyUrl} refused this site${typeof body.message === 'string' ? ` ("${body.message}")` : ''}: add ${origin} to its allowedOrigins.`,
      },
    ];
  if (result.status !== 200 || body.proxy !== 'askbox')
    return [
      {
        level: 'fail',
        text: `${proxyUrl} answered ${result.status}, but not as an Askbox proxy: check data-proxy-url (it must point at the proxy's base path, e.g. /askbox).`,
      },
    ];
  return [
    { level: 'ok', text: `The proxy at ${proxyUrl} answers as an Askbox proxy.` },
    body.bot === true
      ? { level: 'ok', text: `The proxy serves bot ${botId}.` }
      : {
          level: 'fail',
          text: `The proxy does not serve bot ${botId}: add it to the proxy's botIds, or fix data-bot-id.`,
        },
  ];
}

/** The chat file's line: each failure to load it (URL and reason), or none. */
export function checkChatFile(failures: readonly string[]): Check {
  return failures.length === 0
    ? { level: 'ok', text: 'The chat file loads, or has not been needed yet.' }
    : {
        level: 'fail',
        text: `${failures.join('; ')}. Host askbox-chat.*.js next to askbox.js, unchanged (see README, Install).`,
      };
}

/** The CSP line: the violations seen since the script started, or none. */
export function checkCsp(violations: readonly string[]): Check {
  return violations.length === 0
    ? { level: 'ok', text: 'No Content-Security-Policy violation seen.' }
    : {
        level: 'fail',
        text: `Content-Security-Policy blocked: ${violations.join('; ')}. Allow Askbox's script, its proxy (connect-src) and its nonce (see README, strict CSP).`,
      };
}

/** The storage line: which of the page's storage areas refuse to be written. */
export function checkStorage(blocked: readonly string[]): Check {
  return blocked.length === 0
    ? { level: 'ok', text: 'localStorage and sessionStorage work.' }
    : {
        level: 'warn',
        text: `${blocked.join(' and ')} refused (private mode, or blocked by the browser): conversations and the open panel will not survive a reload.`,
      };
}

/**
 * The duplicate-tag line: tags that name the same widget (bot, proxy, instance) with different settings. The first
 * one's settings win; the others are ignored.
 */
export function checkTags(tags: ReadonlyArray<Readonly<Record<string, string | undefined>>>): Check {
  const seen = new Map<string, string>();
  const differing = new Set<string>();
  for (const tag of tags) {
    const key = `${tag.botId}@${tag.proxyUrl}#${tag.instance ?? ''}`;
    const settings = JSON.stringify(Object.entries(tag).sort());
    if (seen.has(key) && seen.get(key) !== settings) differing.add(`bot ${tag.botId}`);
    if (!seen.has(key)) seen.set(key, settings);
  }
  return differing.size === 0
    ? { level: 'ok', text: 'No widget is added twice with different settings.' }
    : {
        level: 'warn',
        text: `The script is added twice for ${[...differing].join(', ')} with different settings: the first tag's win. Remove the other (a theme and a plugin both adding it?), or give it its own data-instance.`,
      };
}

/** A box on the page, in viewport pixels. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Whether two boxes share any area. */
export const overlaps = (a: Box, b: Box): boolean =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** The overlap line: the page's fixed elements that cover the launcher's corner (cookie bars, other widgets). */
export function checkOverlap(covering: readonly string[]): Check {
  return covering.length === 0
    ? { level: 'ok', text: "Nothing else fixed on the page overlaps the launcher's corner." }
    : {
        level: 'warn',
        text: `Fixed elements overlap the launcher's corner: ${covering.join(', ')}. Move the launcher with data-offset-x / data-offset-y or data-position, or set data-z-index.`,
      };
}

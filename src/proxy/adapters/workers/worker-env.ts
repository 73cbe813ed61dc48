import type { DurableObjectNamespaceLike } from '../../stores/durable-object.js';
import type { Limits, ProxyOptions, Timeouts } from '../../core/options.js';
import type { ProofOfWorkOptions } from '../../core/proof.js';
import { isClientIpSource, WORKER_CLIENT_IP } from './conninfo.js';

/**
 * A Worker's environment → the proxy's options. Pure: the entry (`worker.ts`) adds the store and the log, and
 * `createProxy` checks the values it shares with every runtime.
 */

/** The Worker's bindings: secrets (`wrangler secret put`), `[vars]` and the limits object. */
export interface AskboxWorkerEnv {
  /** SECURITY: a secret; it reaches upstream requests only, never a response or a log line. */
  CODY_API_KEY?: string;
  /** Comma-separated bot ids. */
  ASKBOX_BOT_IDS?: string;
  /** Comma-separated secrets (a secret): the first signs, all verify. */
  ASKBOX_SECRET?: string;
  /** Verifies signed-in visitors (a secret shared with the site's server, `identitySecret`); unset: none are. */
  ASKBOX_IDENTITY_SECRET?: string;
  /** Comma-separated origins of the sites that embed the widget. */
  ASKBOX_ALLOWED_ORIGINS?: string;
  /** The proxy's public URL: only requests for its host are served (with `ASKBOX_ALLOWED_HOSTS`). */
  ASKBOX_PUBLIC_URL?: string;
  /** Comma-separated further hosts (`name[:port]`) the Worker answers on. */
  ASKBOX_ALLOWED_HOSTS?: string;
  /** Comma-separated origins the service's reply streams may come from, besides its own. */
  ASKBOX_STREAM_ORIGINS?: string;
  /**
   * Names this site's buckets in a Durable Object namespace that several Workers share (default: the host of
   * `ASKBOX_PUBLIC_URL`, else of the first allowed host).
   */
  ASKBOX_SITE_ID?: string;
  ASKBOX_BASE_PATH?: string;
  /** Comma-separated focus document ids. */
  ASKBOX_DOCUMENT_IDS?: string;
  /** The service's base URL (default `https://getcody.ai/api/v1`). */
  CODY_API_URL?: string;
  /**
   * Proof of work before each new conversation: `true`, or a JSON object of `cost`, `prefixLength`, `raisedCost`,
   * `raisedPrefixLength`, `ttlSeconds` (createProxy checks the ranges). Unset or `false`: off.
   */
  ASKBOX_PROOF_OF_WORK?: string;
  /** JSON: any of `limits`, `timeouts`, `grantTtlSeconds`, `streamTtlSeconds`, `clientIp`. */
  ASKBOX_OPTIONS?: string;
  /** The `AskboxLimits` Durable Object namespace. */
  ASKBOX_LIMITS?: DurableObjectNamespaceLike;
}

/** The options `ASKBOX_OPTIONS` may carry: plain JSON values, nothing that holds a secret or code. */
export type JsonOptions = Pick<
  ProxyOptions,
  'limits' | 'timeouts' | 'grantTtlSeconds' | 'streamTtlSeconds' | 'clientIp'
>;

const RATES = [
  'visitorMessages',
  'ipMessages',
  'visitorConversations',
  'ipConversations',
  'visitorActions',
  'ipActions',
] as const satisfies readonly (keyof Limits)[];
const DAILY = ['visitorMessagesPerDay', 'ipMessagesPerDay'] as const satisfies readonly (keyof Limits)[];
const TIMEOUTS = [
  'connectMs',
  'firstByteMs',
  'idleMs',
  'maxStreamMs',
  'storeMs',
] as const satisfies readonly (keyof Timeouts)[];
const JSON_KEYS = [
  'limits',
  'timeouts',
  'grantTtlSeconds',
  'streamTtlSeconds',
  'clientIp',
] as const satisfies readonly (keyof JsonOptions)[];

/** A comma-separated variable as a list (blanks dropped). */
const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * The proxy options from a Worker's environment, without the stores and `log` (the entry adds those).
 * Throws one Error naming every problem of `ASKBOX_OPTIONS`; the other values are checked by `createProxy`.
 */
export function optionsFromEnv(env: AskboxWorkerEnv): Omit<ProxyOptions, 'store' | 'peopleStore' | 'log'> {
  const secret = list(env.ASKBOX_SECRET);
  // SECURITY: a random secret per isolate would make grants fail at random (another isolate cannot check them).
  if (!secret.length) throw new Error('ASKBOX_SECRET is required: set it with `wrangler secret put ASKBOX_SECRET`');
  const streamOrigins = list(env.ASKBOX_STREAM_ORIGINS);
  return {
    // A pasted secret often ends in a newline, which would make every upstream call a 401.
    apiKey: (env.CODY_API_KEY ?? '').trim(),
    botIds: list(env.ASKBOX_BOT_IDS),
    secret,
    // Trimmed as the key is: a pasted secret often ends in a newline, and every signed-in visitor would be refused.
    ...(env.ASKBOX_IDENTITY_SECRET ? { identitySecret: env.ASKBOX_IDENTITY_SECRET.trim() } : {}),
    allowedOrigins: list(env.ASKBOX_ALLOWED_ORIGINS),
    allowedHosts: list(env.ASKBOX_ALLOWED_HOSTS),
    ...(streamOrigins.length ? { streamOrigins } : {}),
    documentIds: list(env.ASKBOX_DOCUMENT_IDS),
    ...(env.ASKBOX_PUBLIC_URL ? { publicUrl: env.ASKBOX_PUBLIC_URL.trim() } : {}),
    ...(env.ASKBOX_BASE_PATH ? { basePath: env.ASKBOX_BASE_PATH.trim() } : {}),
    ...(env.CODY_API_URL ? { upstream: env.CODY_API_URL.trim() } : {}),
    clientIp: WORKER_CLIENT_IP,
    ...(env.ASKBOX_OPTIONS ? parseJsonOptions(env.ASKBOX_OPTIONS) : {}),
    ...proofOfWorkFromEnv(env.ASKBOX_PROOF_OF_WORK),
  };
}

/** `ASKBOX_PROOF_OF_WORK` as the `proofOfWork` option: `true`, `false`, or a JSON object (its ranges: createProxy). */
function proofOfWorkFromEnv(value: string | undefined): Pick<ProxyOptions, 'proofOfWork'> {
  const text = value?.trim();
  if (!text || text === 'false') return {};
  if (text === 'true') return { proofOfWork: true };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: parsed stays undefined, which objectOf names below.
  }
  const issues: string[] = [];
  const keys = ['cost', 'prefixLength', 'raisedCost', 'raisedPrefixLength', 'ttlSeconds'] as const;
  const options = objectOf(parsed, { name: 'ASKBOX_PROOF_OF_WORK (true, false or a JSON object)', keys, issues });
  for (const key of keys)
    if (options?.[key] !== undefined && !isPositive(options[key]))
      issues.push(`ASKBOX_PROOF_OF_WORK.${key} must be a positive number`);
  if (issues.length) throw new Error(issues.join('; '));
  return { proofOfWork: options as ProofOfWorkOptions };
}

/** The site id that prefixes this Worker's keys in the shared `AskboxLimits` object. */
export function siteIdFromEnv(env: AskboxWorkerEnv): string {
  const explicit = env.ASKBOX_SITE_ID?.trim();
  if (explicit) return explicit;
  // Stryker disable next-line MethodExpression: the URL parser drops the blanks around a URL itself.
  const publicUrl = env.ASKBOX_PUBLIC_URL?.trim();
  try {
    if (publicUrl) return new URL(publicUrl).host;
  } catch {
    // createProxy names the bad URL.
  }
  return list(env.ASKBOX_ALLOWED_HOSTS)[0] ?? 'askbox';
}

/**
 * Checks `ASKBOX_OPTIONS`: known keys only (a misspelt limit must not silently fall back to the default), each of
 * the right type. Ranges that `createProxy` checks for every runtime (burst ≥ 1 and so on) are left to it.
 */
export function parseJsonOptions(text: string): JsonOptions {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('ASKBOX_OPTIONS is not JSON');
  }
  const issues: string[] = [];
  const options = objectOf(value, { name: 'ASKBOX_OPTIONS', keys: JSON_KEYS, issues });
  // Stryker disable next-line StringLiteral: objectOf notes exactly one issue when it returns nothing.
  if (!options) throw new Error(issues.join('; '));
  if (options.limits !== undefined && options.limits !== false) {
    const limits = objectOf(options.limits, { name: 'limits', keys: [...RATES, ...DAILY], issues });
    for (const name of RATES) {
      if (limits?.[name] === undefined) continue;
      const rate = objectOf(limits[name], { name: `limits.${name}`, keys: ['burst', 'perMinute'], issues });
      for (const field of ['burst', 'perMinute'] as const)
        if (rate && !isPositive(rate[field])) issues.push(`limits.${name}.${field} must be a positive number`);
    }
    for (const name of DAILY)
      if (limits?.[name] !== undefined && !isPositive(limits[name]))
        issues.push(`limits.${name} must be a positive number`);
  }
  if (options.timeouts !== undefined) {
    const timeouts = objectOf(options.timeouts, { name: 'timeouts', keys: TIMEOUTS, issues });
    for (const name of TIMEOUTS)
      if (timeouts?.[name] !== undefined && !isPositive(timeouts[name]))
        issues.push(`timeouts.${name} must be a positive number of milliseconds`);
  }
  for (const name of ['grantTtlSeconds', 'streamTtlSeconds'] as const) {
    if (options[name] !== undefined && !isPositive(options[name]))
      issues.push(`${name} must be a positive number of seconds`);
  }
  if (options.clientIp !== undefined && !isClientIpSource(options.clientIp)) {
    issues.push('clientIp must be {"header":"cf-connecting-ip"} or {"header":"x-forwarded-for","trustedHops":n}');
  }
  if (issues.length) throw new Error(issues.join('; '));
  return options as JsonOptions;
}

/** What `objectOf` checks a value against: its name in messages, the keys it may have, and where issues go. */
interface Shape<K extends string> {
  name: string;
  keys: readonly K[];
  issues: string[];
}

/** `value` as an object with only `keys`, or undefined after noting why not. */
function objectOf<K extends string>(
  value: unknown,
  { name, keys, issues }: Shape<K>,
): Partial<Record<K, unknown>> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.push(`${name} must be a JSON object`);
    return undefined;
  }
  const unknown = Object.keys(value).filter((key) => !(keys as readonly string[]).includes(key));
  if (unknown.length)
    issues.push(
      `${name} has unknown ${unknown.length > 1 ? 'keys' : 'key'} ${unknown.join(', ')} (it takes ${keys.join(', ')})`,
    );
  return value as Partial<Record<K, unknown>>;
}

function isPositive(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

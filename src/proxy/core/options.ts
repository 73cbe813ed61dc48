import type { LimitStore } from './limits.js';
import type { PeopleStore } from './people.js';
import { isPrivateHost, type StreamHosts } from './hosts.js';
import { createMemoryPeopleStore, createMemoryStore } from '../stores/memory.js';
import { resolveProofOfWork, type ProofOfWorkOptions, type ProofOfWorkSettings } from './proof.js';
import type { AesGcm } from './seal.js';
import {
  BASE_PATH,
  DEFAULT_LIMITS as CONTRACT_LIMITS,
  DEFAULT_TIMEOUTS as CONTRACT_TIMEOUTS,
  HOST_PATTERN,
  ID_PATTERN,
  SECRET_MIN_LENGTH,
  SERVICE,
  TRUSTED_HOPS,
  TTLS,
} from '../../protocol/contract.js';

/** A token bucket: `burst` requests at once, refilled at `perMinute`. */
export interface Rate {
  burst: number;
  perMinute: number;
}

/** The abuse limits; every refusal is a 429 with `Retry-After`, before any upstream call. */
export interface Limits {
  /** Messages per visitor (grant). */
  visitorMessages: Rate;
  /** Messages per client IP. */
  ipMessages: Rate;
  /** New conversations per visitor (when the visitor shows an earlier grant). */
  visitorConversations: Rate;
  /** New conversations per client IP. */
  ipConversations: Rate;
  /** Ratings and deletions per visitor: they cost no reply, but each reaches `onFeedback` or the service. */
  visitorActions: Rate;
  /** Ratings and deletions per client IP. */
  ipActions: Rate;
  /**
   * Messages per visitor a day: a bucket of this size refilled over 24 hours, so at most twice this many in the
   * first 24 hours (a full bucket, then its refill) and this many a day after that.
   */
  visitorMessagesPerDay: number;
  /** Messages per client IP a day, however many visitors it plays: a bucket refilled over 24 hours, like the above. */
  ipMessagesPerDay: number;
}

/** Upstream timeouts, in milliseconds. */
export interface Timeouts {
  /** Until the service's response headers arrive (every call but a synchronous send). */
  connectMs: number;
  /** Until a synchronous reply (POST /messages) or a stream's first byte arrives: the bot is thinking. */
  firstByteMs: number;
  /** Silence allowed between two chunks of a body. */
  idleMs: number;
  /** The longest a reply stream may last. */
  maxStreamMs: number;
  /** Until the limit store answers; past it the request is refused with a 503 (fail closed). */
  storeMs: number;
}

/** Where the client's IP comes from. Default: the socket (given by the runtime adapter). */
export type ClientIpSource = { header: 'cf-connecting-ip' } | { header: 'x-forwarded-for'; trustedHops: number };

/** What a limit refusal reports to `onLimit`. */
export interface LimitEvent {
  /** `action`: a rating or a deletion. */
  action: 'message' | 'conversation' | 'action';
  ip: string;
  visitorId: string | undefined;
  retryAfterSeconds: number;
}

/** A visitor's rating of one reply, as `onFeedback` receives it. */
export interface FeedbackEvent {
  conversationId: string;
  /** The reply's message id, as the widget names it; the service is not asked whether it exists. */
  messageId: string;
  rating: 'up' | 'down';
  /** The visitor's words, at most 500 characters; absent when none. */
  comment?: string;
  /** The visitor's stable id (from their grant), to tell a changed rating (same ids) from another visitor's. */
  visitorId: string;
}

/** One structured log line. SECURITY: never carries the key, a secret, a grant or a stream token. */
export interface ProxyLogEntry {
  level: 'info' | 'warn' | 'error';
  event: 'request' | 'limit' | 'limits' | 'people' | 'upstream' | 'config' | 'feedback' | 'delete';
  method?: string;
  /** The path, with stream tokens replaced by `:token` and without the query. */
  path?: string;
  status?: number;
  ms?: number;
  ip?: string;
  message?: string;
}

/** Options of `createProxy`. */
export interface ProxyOptions {
  /** The Cody API key. SECURITY: it is added to upstream requests only and never appears in a response or log. */
  apiKey: string;
  /** The bots visitors may talk to; conversations of any other bot are refused. */
  botIds: readonly string[];
  /** The service's base URL (default `https://getcody.ai/api/v1`). */
  upstream?: string;
  /** Where the proxy is mounted (default `/askbox`); requests outside it get a 404. */
  basePath?: string;
  /** Origins of pages on other hosts that may call the proxy (CORS). `*` is refused. Same-host pages always may. */
  allowedOrigins?: readonly string[];
  /**
   * Signs visitor grants and seals stream URLs (≥ 16 characters). A list rotates keys: the first signs, all verify.
   * Default: random per process, so conversations do not survive a restart; set it in production.
   */
  secret?: string | readonly string[];
  /**
   * Verifies signed-in visitors (≥ 16 characters, shared with the site's server only): the site sends the person's
   * id and HMAC-SHA256(identitySecret, id) in hex, and the proxy keeps that person's conversations for them on any
   * device. Unset: identity headers are refused (403), anonymous visitors work as ever.
   */
  identitySecret?: string;
  /** Where signed-in people's conversation lists live (default: this process's memory, bounded). */
  peopleStore?: PeopleStore;
  /**
   * The proxy's public origin (e.g. `https://example.com`): the same-host check uses it, not the Host header, and
   * only requests for its host (or one of `allowedHosts`) are served.
   */
  publicUrl?: string;
  /**
   * More hosts (`host` or `host:port`) the proxy answers on, besides `publicUrl`'s. With neither set, only loopback
   * hosts are served (127.0.0.0/8, `localhost`, `[::1]`, any port); any other Host is a 421.
   * SECURITY: this is what defeats DNS rebinding.
   */
  allowedHosts?: readonly string[];
  /**
   * Origins the service's reply streams may come from, besides its own (default: the Cody service's stream host
   * when `upstream` is the default). Stream URLs anywhere else, or on a private network, are refused.
   */
  streamOrigins?: readonly string[];
  /** How long a visitor keeps access to a conversation, in whole seconds from 60 to a year (default 30 days). */
  grantTtlSeconds?: number;
  /** How long a stream token may be opened, in whole seconds from 1 to 3600 (default 60 s). */
  streamTtlSeconds?: number;
  /** Focus documents visitors may choose; any other choice is replaced by this whole set (none: the field is dropped). */
  documentIds?: readonly string[];
  /** Abuse limits, each partially overridable; `false` turns them off. */
  limits?: Partial<Limits> | false;
  /** Where limit buckets live (default: this process's memory). */
  store?: LimitStore;
  /**
   * Require a proof of work (ALTCHA v2, PBKDF2) before each new conversation, issued at `GET challenge` and solved by
   * the widget in the background; its cost rises for an IP or visitor that asks for many. `true` takes the defaults.
   */
  proofOfWork?: boolean | ProofOfWorkOptions;
  /** Trust a header for the client IP; only behind a proxy that sets it. */
  clientIp?: ClientIpSource;
  /** Decides whether a request may proceed (site login, captcha): false is a 403, a Response is sent as is. */
  authorize?: (request: Request) => boolean | Response | Promise<boolean | Response>;
  /** Told about every limit refusal. */
  onLimit?: (event: LimitEvent) => void;
  /**
   * Receives each rating a visitor gives a reply (the service has no feedback endpoint, so nothing goes upstream).
   * Default: an `info` log line of event `feedback` (with `log: logToConsole`, on the console). A rejection is a 503
   * the widget may retry. One rating is one call: the widget sends a thumbs-down once, with the visitor's comment if
   * they write one. One visitor has one rating of a reply, which they may change or a Retry may send again: store by
   * `conversationId`, `messageId` and `visitorId`, and keep a comment while the rating stays the same.
   */
  onFeedback?: (event: FeedbackEvent) => void | Promise<void>;
  /**
   * Told once a visitor's conversation is deleted at the service, so that what the site keeps of it (the ratings
   * `onFeedback` stored) goes too. A rejection is logged; the deletion at the service stands.
   */
  onDelete?: (event: { conversationId: string; visitorId: string }) => void | Promise<void>;
  timeouts?: Partial<Timeouts>;
  /**
   * The most reply streams this process relays at once (default: no cap); past it a new stream is refused with a
   * 503 and `Retry-After`, which the widget retries. Per process (per isolate on Workers).
   */
  maxStreams?: number;
  /**
   * Structured log lines, one per request plus warnings, errors and (by default) ratings. Default: none at all, so
   * pass one: `logToConsole` writes the warnings, errors and ratings to the console.
   */
  log?: (entry: ProxyLogEntry) => void;
  fetch?: typeof fetch;
  /**
   * The AES-256-GCM that seals stream tokens (default: Web Crypto). On Node, `nodeAesGcm` from `askbox/proxy/node`
   * seals the same tokens at a fraction of the CPU. SECURITY: it must be AES-256-GCM with a 16-byte tag, checked.
   */
  aesGcm?: AesGcm;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

/** Per-request facts only the runtime knows. */
export interface ProxyContext {
  /** The socket's remote address. */
  clientIp?: string;
}

/** Safe defaults for a site with real visitors: generous for people, tight for scripts (the wire contract's). */
export const DEFAULT_LIMITS: Limits = CONTRACT_LIMITS;

/** Upstream and store timeouts when none are set (the wire contract's). */
export const DEFAULT_TIMEOUTS: Timeouts = CONTRACT_TIMEOUTS;

const HOST = new RegExp(HOST_PATTERN);
export const ID = new RegExp(ID_PATTERN);

/** The options, checked and completed with defaults. */
export interface ResolvedOptions {
  apiKey: string;
  bots: ReadonlySet<string>;
  upstream: string;
  upstreamOrigin: string;
  base: string;
  origins: ReadonlySet<string>;
  secrets: readonly string[];
  /** The public host (host[:port]) when `publicUrl` is set. */
  publicHost: string | undefined;
  /** The public origin when `publicUrl` is set: absolute stream URLs are made on it. */
  publicOrigin: string | undefined;
  /** The hosts served: `publicUrl`'s and `allowedHosts`; empty means loopback hosts only. */
  hosts: ReadonlySet<string>;
  streamHosts: StreamHosts;
  grantTtlSeconds: number;
  streamTtlMs: number;
  documentIds: readonly string[];
  limits: Limits | false;
  store: LimitStore;
  /** The secret that verifies signed-in visitors; undefined: none are. */
  identitySecret: string | undefined;
  people: PeopleStore;
  proofOfWork: ProofOfWorkSettings | undefined;
  timeouts: Timeouts;
  maxStreams: number | undefined;
  now: () => number;
}

/** Checks the options and fills in defaults; throws one clear Error on a misconfiguration. */
export function resolveOptions(options: ProxyOptions): ResolvedOptions {
  if (typeof options.apiKey !== 'string' || !options.apiKey) fail('apiKey is required');
  if (!options.botIds?.length || !options.botIds.every((id) => ID.test(id)))
    fail('botIds must list at least one valid bot id');
  const origins = originSet('allowedOrigins', options.allowedOrigins, 'the sites that embed the widget');
  const secrets = options.secret === undefined ? [randomSecret()] : [options.secret].flat();
  if (!secrets.length || secrets.some((s) => typeof s !== 'string' || s.length < SECRET_MIN_LENGTH))
    fail(`secret must be a string of at least ${SECRET_MIN_LENGTH} characters, or a non-empty list of them`);
  const publicUrl =
    options.publicUrl === undefined
      ? undefined
      : (parseUrl(options.publicUrl) ?? fail(`publicUrl "${options.publicUrl}" is not a URL`));
  const upstream = (options.upstream ?? SERVICE.upstream).replace(/\/+$/, '');
  const upstreamUrl = parseUrl(upstream) ?? fail(`upstream "${upstream}" is not a URL`);
  const hosts = new Set(options.allowedHosts ?? []);
  for (const host of hosts) if (!HOST.test(host)) fail(`allowedHosts: "${host}" is not a host (name[:port])`);
  if (publicUrl) hosts.add(publicUrl.host);
  const streamOrigins = originSet(
    'streamOrigins',
    options.streamOrigins ?? (upstream === SERVICE.upstream ? [SERVICE.streamOrigin] : []),
    'the hosts the service streams from',
  );
  const documentIds = options.documentIds ?? [];
  if (!documentIds.every((id) => ID.test(id))) fail('documentIds must be document ids');
  const limits = options.limits === false ? false : { ...DEFAULT_LIMITS, ...options.limits };
  if (limits) {
    const rates = [
      limits.visitorMessages,
      limits.ipMessages,
      limits.visitorConversations,
      limits.ipConversations,
      limits.visitorActions,
      limits.ipActions,
    ];
    const daily = [limits.visitorMessagesPerDay, limits.ipMessagesPerDay];
    if (!rates.every((r) => r.burst >= 1 && r.perMinute > 0) || !daily.every((n) => n >= 1))
      fail('limits need burst ≥ 1, perMinute > 0, visitorMessagesPerDay ≥ 1 and ipMessagesPerDay ≥ 1');
  }
  checkTrustedHops(options.clientIp);
  const store = options.store ?? createMemoryStore();
  // A store written before stream tokens became single-use has no claim; it must not fail every stream later on.
  if (typeof store.take !== 'function' || typeof store.claim !== 'function')
    fail('store must have take(checks, now) and claim(key, ttlMs, now)');
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  if (options.maxStreams !== undefined && !(Number.isInteger(options.maxStreams) && options.maxStreams >= 1))
    fail('maxStreams must be a whole number ≥ 1');
  if (!Object.values(timeouts).every((ms) => ms > 0)) fail('timeouts must be positive numbers of milliseconds');
  return {
    apiKey: options.apiKey,
    bots: new Set(options.botIds),
    upstream,
    upstreamOrigin: upstreamUrl.origin,
    // Stryker disable next-line Regex: only a lone "/" ends in a slash here, so `^` changes nothing.
    base: `/${(options.basePath ?? BASE_PATH).replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, ''),
    origins,
    secrets,
    publicHost: publicUrl?.host,
    publicOrigin: publicUrl?.origin,
    hosts,
    streamHosts: {
      upstreamOrigin: upstreamUrl.origin,
      streamOrigins,
      privateUpstream: isPrivateHost(upstreamUrl.hostname),
    },
    grantTtlSeconds: seconds('grantTtlSeconds', options.grantTtlSeconds),
    streamTtlMs: seconds('streamTtlSeconds', options.streamTtlSeconds) * 1000,
    documentIds,
    limits,
    store,
    ...resolveIdentity(options),
    proofOfWork: resolveProofOfWork(options.proofOfWork),
    timeouts,
    maxStreams: options.maxStreams,
    now: options.now ?? Date.now,
  };
}

/** The identity secret, checked as `secret` is, and the people store (default: memory). */
function resolveIdentity(options: ProxyOptions): Pick<ResolvedOptions, 'identitySecret' | 'people'> {
  const secret = options.identitySecret;
  if (secret !== undefined && (typeof secret !== 'string' || secret.length < SECRET_MIN_LENGTH))
    fail(`identitySecret must be a string of at least ${SECRET_MIN_LENGTH} characters`);
  const people = options.peopleStore ?? createMemoryPeopleStore();
  if (!['list', 'add', 'remove'].every((name) => typeof people[name as keyof PeopleStore] === 'function'))
    fail('peopleStore must have list(person, now), add(entry) and remove(person, id)');
  return { identitySecret: secret, people };
}

/** SECURITY: a count of hops out of range would read an address the client wrote; refused as on every runtime. */
function checkTrustedHops(source: ClientIpSource | undefined): void {
  if (source?.header !== 'x-forwarded-for') return;
  const { min, max, message } = TRUSTED_HOPS;
  if (!Number.isInteger(source.trustedHops) || source.trustedHops < min || source.trustedHops > max) fail(message);
}

/** A lifetime option: whole seconds within the contract's range, or its default when unset. */
function seconds(name: keyof typeof TTLS, value: number | undefined): number {
  const { default: fallback, min, max } = TTLS[name];
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max)
    fail(`${name} must be a whole number of seconds from ${min} to ${max}`);
  return value;
}

/** A list of origins (`scheme://host[:port]`, exactly as `URL.origin` spells them) as a set. */
function originSet(name: string, list: readonly string[] | undefined, what: string): Set<string> {
  const origins = new Set(list ?? []);
  if (origins.has('*')) fail(`"*" is not allowed in ${name}; list ${what}`);
  for (const origin of origins)
    if (parseUrl(origin)?.origin !== origin) fail(`"${origin}" is not an origin (scheme://host[:port])`);
  return origins;
}

function fail(message: string): never {
  throw new Error(`createProxy: ${message}`);
}

function parseUrl(text: string): URL | undefined {
  return URL.canParse(text) ? new URL(text) : undefined;
}

function randomSecret(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('');
}

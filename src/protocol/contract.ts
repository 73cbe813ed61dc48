/**
 * The wire contract of Askbox's token proxy, written once. The TypeScript proxy and the Workers entry import it; the
 * PHP proxy carries a generated copy (`npm run build:php`, checked by test/contract/contract-php.test.ts), and the
 * WordPress plugin checks its settings against the widget rules in that copy. Plain data only (no functions, no
 * RegExp objects), so it serialises to JSON and PHP unchanged. The freezes are marked pure so that the widget, which
 * reads only WIDGET_RULES, bundles nothing else of it.
 */

/** Where the proxy answers, under its base path, and with which methods. */
export const ROUTES = /* @__PURE__ */ Object.freeze({
  conversations: { path: 'conversations', methods: ['GET', 'POST'] },
  /** A visitor's own conversation, deleted at the service (its grant only). */
  conversation: { path: 'conversations/{id}', methods: ['DELETE'] },
  /** A rating of a reply; the service has no such endpoint, so it goes to the site's `onFeedback`, never upstream. */
  feedback: { path: 'feedback', methods: ['POST'] },
  messages: { path: 'messages', methods: ['GET', 'POST'] },
  messageStream: { path: 'messages/stream', methods: ['POST'] },
  stream: { path: 'stream/{token}', methods: ['GET'] },
  health: { path: 'health', methods: ['GET'] },
  challenge: { path: 'challenge', methods: ['GET'] },
});

/**
 * Every method some route takes (the union of ROUTES, sorted): what a CORS preflight allows and what the
 * WordPress plugin registers its REST route for. Computed once here, so no runtime writes its own list.
 */
export const ROUTE_METHODS: readonly string[] = /* @__PURE__ */ (() =>
  Object.freeze([...new Set(Object.values(ROUTES).flatMap((route) => route.methods))].sort()))();

/** Where the proxy answers when `basePath` is not set. */
export const BASE_PATH = '/askbox';

/** The service, when `upstream` is not set, and the bounds on what the proxy reads from it. */
export const SERVICE = /* @__PURE__ */ Object.freeze({
  /** cody-api.md §0: the base URL. */
  upstream: 'https://getcody.ai/api/v1',
  /** Where that service serves its reply streams (cody-api.md, endpoint 21); allowed only with the default upstream. */
  streamOrigin: 'https://stream.aimcaiface.com',
  /** The longest chain of redirects followed to reach a stream. */
  streamHopsMax: 3,
  /** The largest JSON answer read, in bytes: the service's largest, a page of messages, is far below it. */
  jsonMaxBytes: 1024 * 1024,
});

/**
 * A host as a URL spells it (`allowedHosts`, the host of an origin), as a RegExp source: a lowercase name or a
 * bracketed IPv6 literal, and an optional port.
 */
export const HOST_PATTERN = '^(?:[a-z0-9-]+(?:\\.[a-z0-9-]+)*|\\[[0-9a-f:.]+\\])(?::\\d{1,5})?$';

/** Headers on every answer the proxy makes, refusals and misconfiguration included. */
export const BASE_HEADERS = /* @__PURE__ */ Object.freeze({
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
});

/** A CORS preflight's cache lifetime, in seconds (its methods are ROUTE_METHODS). */
export const CORS_MAX_AGE_SECONDS = 600;

/** The shortest signing secret accepted, in characters. */
export const SECRET_MIN_LENGTH = 16;

/**
 * `clientIp: {header: 'x-forwarded-for', trustedHops}`: the proxies in front that each append one address. Out of
 * this range is a misconfiguration on every runtime, refused at start-up with TRUSTED_HOPS.message.
 */
export const TRUSTED_HOPS = /* @__PURE__ */ Object.freeze({
  min: 1,
  max: 10,
  message: 'clientIp.trustedHops must be a whole number from 1 to 10',
});

/** The request header that carries a visitor's grant. */
export const GRANT_HEADER = 'x-askbox-grant';

/** Signed-in visitors (issue 35): the site's server signs the person's id with the proxy's `identitySecret`. */
export const IDENTITY = /* @__PURE__ */ Object.freeze({
  /** The person's id as the site knows it, sent by the widget on every request when signed in. */
  userHeader: 'x-askbox-user',
  /** HMAC-SHA256(identitySecret, id as UTF-8), lowercase hex. */
  hashHeader: 'x-askbox-user-hash',
  /** What an id may be: header-safe, no spaces, at most 128 characters. */
  userIdPattern: '^[A-Za-z0-9._@:+=-]{1,128}$',
  hashPattern: '^[0-9a-f]{64}$',
  /** The key a person's conversations, grants and limits go by: `u-` + the first 40 hex digits of
   *  HMAC-SHA256(identitySecret, personLabel + id). 42 characters, so never an anonymous visitor id (22). */
  personLabel: 'askbox-person:',
  personKeyPattern: '^u-[0-9a-f]{40}$',
  /** The newest conversations kept per person; an older one drops out of the list (it stays at the service). */
  conversationsMax: 50,
});

/**
 * The request headers a CORS preflight allows (`Access-Control-Allow-Headers`, joined by `, `). Built in a pure
 * function, like ROUTE_METHODS: a bare read of IDENTITY's fields would keep IDENTITY in the widget's bundle.
 */
export const CORS_ALLOW_HEADERS: readonly string[] = /* @__PURE__ */ (() =>
  Object.freeze(['content-type', GRANT_HEADER, IDENTITY.userHeader, IDENTITY.hashHeader]))();

/** Conversation, bot, document and visitor ids, as a RegExp source (the service's ids are 12 alphanumerics). */
export const ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';

/** Body and field limits. Lengths are in characters: Unicode code points, as the service counts them. */
export const FIELDS = /* @__PURE__ */ Object.freeze({
  /** cody-api.md, endpoint 19: `content` ≤ 2000 characters. */
  contentMax: 2000,
  /** Longer conversation names are cut here (never refused). */
  nameMax: 100,
  /** The largest request body read, in bytes. */
  bodyMaxBytes: 64 * 1024,
  /** The deepest JSON parsed: the bodies are flat objects with at most a list of ids. */
  jsonDepthMax: 4,
  /** A visitor's comment on a rating. */
  feedbackCommentMax: 500,
});

/** The ratings a visitor may give a reply. */
export const RATINGS = /* @__PURE__ */ Object.freeze(['up', 'down'] as const);

/** The abuse limits a proxy runs on when none are set: token buckets and daily caps. */
export const DEFAULT_LIMITS = /* @__PURE__ */ Object.freeze({
  visitorMessages: /* @__PURE__ */ Object.freeze({ burst: 6, perMinute: 6 }),
  ipMessages: /* @__PURE__ */ Object.freeze({ burst: 30, perMinute: 30 }),
  visitorConversations: /* @__PURE__ */ Object.freeze({ burst: 3, perMinute: 1 }),
  ipConversations: /* @__PURE__ */ Object.freeze({ burst: 10, perMinute: 5 }),
  /** Ratings and deletions, which cost no reply but must not flood the site's `onFeedback` or the service. */
  visitorActions: /* @__PURE__ */ Object.freeze({ burst: 20, perMinute: 10 }),
  ipActions: /* @__PURE__ */ Object.freeze({ burst: 60, perMinute: 30 }),
  visitorMessagesPerDay: 200,
  ipMessagesPerDay: 1000,
});

/** Upstream and store timeouts in milliseconds, when none are set. */
export const DEFAULT_TIMEOUTS = /* @__PURE__ */ Object.freeze({
  connectMs: 10_000,
  firstByteMs: 60_000,
  idleMs: 30_000,
  maxStreamMs: 300_000,
  storeMs: 500,
});

/** Lifetimes in whole seconds: the default and the allowed range. */
export const TTLS = /* @__PURE__ */ Object.freeze({
  grantTtlSeconds: /* @__PURE__ */ Object.freeze({ default: 30 * 24 * 3600, min: 60, max: 365 * 24 * 3600 }),
  streamTtlSeconds: /* @__PURE__ */ Object.freeze({ default: 60, min: 1, max: 3600 }),
});

/** How long a visitor waits after the limit store failed (the 503's `Retry-After`). */
export const BUSY_RETRY_SECONDS = 5;

/**
 * What the proxy logs, one `error` line, when a store cannot answer (the visitor gets the `busy` refusal: it fails
 * closed), keyed by that line's `event`: the limit store (buckets, stream claims, proof-of-work nonces) or the people
 * store (signed-in people's conversation lists). The cause follows the words, after a colon.
 */
export const STORE_FAILURES = /* @__PURE__ */ Object.freeze({
  limits: 'The limit store failed',
  people: 'The people store failed',
});

/** The bucket keys, by action and subject; `{ip}` and `{visitor}` are filled in. */
export const BUCKET_KEYS = /* @__PURE__ */ Object.freeze({
  ipMessages: 'msg:ip:{ip}',
  ipMessagesPerDay: 'day:ip:{ip}',
  visitorMessages: 'msg:v:{visitor}',
  visitorMessagesPerDay: 'day:v:{visitor}',
  ipConversations: 'conv:ip:{ip}',
  visitorConversations: 'conv:v:{visitor}',
  ipActions: 'act:ip:{ip}',
  visitorActions: 'act:v:{visitor}',
  streamClaim: 'stream:{id}',
  /** Soft buckets: an empty one raises the cost of the next challenge, it never refuses. */
  challengeIp: 'pow:ip:{ip}',
  challengeVisitor: 'pow:v:{visitor}',
  /** A solved challenge, by its nonce: it opens one conversation. */
  proofClaim: 'pow:used:{id}',
});

/**
 * Which buckets each limited action takes a token from, all or none. `limit` names both the option in `limits`
 * and the key in BUCKET_KEYS; `refill` is `minute` (a `{burst, perMinute}` rate) or `day` (a daily cap refilled over
 * 24 hours). A `visitor` bucket is taken only when the request names a visitor: a first conversation carries no
 * grant, and one bucket shared by every visitor-less request would let one client starve every new visitor of the
 * site (the IP buckets still count it).
 */
export const LIMIT_BUCKETS = /* @__PURE__ */ Object.freeze({
  message: [
    { limit: 'ipMessages', subject: 'ip', refill: 'minute' },
    { limit: 'ipMessagesPerDay', subject: 'ip', refill: 'day' },
    { limit: 'visitorMessages', subject: 'visitor', refill: 'minute' },
    { limit: 'visitorMessagesPerDay', subject: 'visitor', refill: 'day' },
  ],
  conversation: [
    { limit: 'ipConversations', subject: 'ip', refill: 'minute' },
    { limit: 'visitorConversations', subject: 'visitor', refill: 'minute' },
  ],
  /** Ratings and deletions. */
  action: [
    { limit: 'ipActions', subject: 'ip', refill: 'minute' },
    { limit: 'visitorActions', subject: 'visitor', refill: 'minute' },
  ],
} as const);

/**
 * Proof of work before a new conversation (issue 22, item 5): ALTCHA v2 challenges, PBKDF2/SHA-256 in
 * non-deterministic mode (the key must start with `prefixLength` zero hex digits), so issuing one costs the proxy an
 * HMAC and no key derivation. Expected work: 16^prefixLength tries of `cost` iterations each; checking a solution is
 * one derivation of `cost`. The levels are tuned by `npm run bench:pow` (≈5 M iterations per CPU-second natively).
 */
export const PROOF_OF_WORK = /* @__PURE__ */ Object.freeze({
  algorithm: 'PBKDF2/SHA-256',
  keyLength: 32,
  /** The challenges are signed with HMAC-SHA-256(secret, keyLabel) in hex, never with the secret itself. */
  keyLabel: 'askbox-pow',
  /** Every visitor: 256,000 iterations expected, about 50 ms of native CPU (200 ms on a phone 4× slower). */
  normal: /* @__PURE__ */ Object.freeze({ cost: 16_000, prefixLength: 1 }),
  /** Past a soft bucket: 8.2 M iterations expected, about 1.6 CPU-seconds natively, for each conversation. */
  raised: /* @__PURE__ */ Object.freeze({ cost: 32_000, prefixLength: 2 }),
  costRange: /* @__PURE__ */ Object.freeze({ min: 1, max: 1_000_000 }),
  prefixLengthRange: /* @__PURE__ */ Object.freeze({ min: 1, max: 6 }),
  /** How long a challenge may be solved and used, in whole seconds. */
  ttlSeconds: /* @__PURE__ */ Object.freeze({ default: 300, min: 10, max: 3600 }),
  /** Challenges issued before the cost is raised: near the conversation limits, per IP and per visitor. */
  ipChallenges: /* @__PURE__ */ Object.freeze({ burst: 10, perMinute: 5 }),
  visitorChallenges: /* @__PURE__ */ Object.freeze({ burst: 3, perMinute: 1 }),
});

/**
 * How many entries the bounded stores keep, and which go first. Every store follows one eviction rule: a bucket
 * expires when it would be full again had it been empty at its last take (`lifetime`, capacity ÷ refill), and a
 * forgotten bucket is a full one (the lenient side), so expired buckets are dropped first and change nothing. A store
 * with a count bound (memory, Durable Object, PHP's SQLite) then drops, beyond `buckets`, those that expire soonest:
 * the ones nearest to full, whose loss forgives the least. Redis keeps each bucket until its key expires
 * (PEXPIRE of the same lifetime) and has no count bound of its own; its memory is the server's `maxmemory`.
 */
export const STORE_SIZES = /* @__PURE__ */ Object.freeze({
  /** Buckets (and stream claims) kept at most; beyond it the soonest to expire go. */
  buckets: 100_000,
  /** Verified grants remembered, so a repeated grant costs no HMAC. */
  verifiedGrants: 10_000,
  /** Verified identity headers remembered, so a signed-in person's next request costs no HMAC. */
  verifiedIdentities: 10_000,
  /** People whose conversation lists a bounded store keeps; beyond it the least recently used person goes. */
  people: 10_000,
});

/** Every refusal the proxy itself makes: its status and its message, in the service's envelope. */
export const REFUSALS = /* @__PURE__ */ Object.freeze({
  notFound: { status: 404, message: 'Not found.' },
  conversationNotFound: { status: 404, message: 'Conversation not found.' },
  streamGone: { status: 404, message: 'This stream does not exist or has expired.' },
  methodNotAllowed: { status: 405, message: 'Method not allowed.' },
  wrongHost: { status: 421, message: 'This chat is not served on this host.' },
  originRefused: { status: 403, message: 'This site is not allowed to use this chat.' },
  notAuthorized: { status: 403, message: 'You are not allowed to use this chat.' },
  /** A signed-in visitor whose identity headers do not verify (issue 35). */
  identityRefused: { status: 403, message: 'Your sign-in could not be verified. Please sign in again.' },
  /** `GET conversations` without identity headers: the list is a signed-in person's. */
  identityRequired: { status: 401, message: 'Sign in to see your conversations.' },
  /** A new conversation without a valid, unused, unexpired proof of work; the widget solves a new one and retries. */
  proofRequired: { status: 428, message: 'Please wait a moment: the chat is getting ready.' },
  unsupportedType: { status: 415, message: 'The request body must be application/json.' },
  unreadableBody: { status: 400, message: 'The request body could not be read.' },
  /** Node's adapter, before the proxy runs: a missing, repeated or malformed `Host`. */
  malformedHost: { status: 400, message: 'The Host header is malformed.' },
  /** Node's adapter: a request target no URL can be made of. */
  malformedTarget: { status: 400, message: 'The request target is malformed.' },
  /** PHP only: an underscore twin of the client-IP header, which PHP files under the same name. */
  headerTwin: { status: 400, message: 'The request carries a header twin of the client address header.' },
  /** PHP only: a body not all there within `timeouts.bodyMs`. */
  bodyTimeout: { status: 408, message: 'The request body took too long to arrive.' },
  bodyTooLarge: { status: 413, message: 'The request body is too large.' },
  tooDeep: { status: 400, message: 'The request body is nested too deeply.' },
  notAnObject: { status: 400, message: 'The request body must be a JSON object.' },
  clientGone: { status: 499, message: 'The client went away.' },
  unexpectedAnswer: { status: 502, message: 'The chat service sent an unexpected response.' },
  upstreamFailed: { status: 502, message: 'The chat service could not handle the request.' },
  noStream: { status: 502, message: 'The chat service did not return a stream.' },
  unreachable: { status: 502, message: 'The chat service could not be reached.' },
  busy: { status: 503, message: 'The chat is busy. Please try again shortly.' },
  /** PHP only: an error the proxy did not foresee (the JavaScript runtimes answer `unreachable`). */
  unavailable: { status: 503, message: 'The chat is unavailable right now. Please try again later.' },
  timeout: { status: 504, message: 'The chat service did not answer in time.' },
  misconfigured: { status: 503, message: 'The chat proxy is misconfigured.' },
});

/**
 * The 429 of a limit, `{noun}` being the action's (LIMIT_NOUNS) and `{seconds}` the wait: the only refusal whose
 * message is built.
 */
export const LIMIT_MESSAGE = 'Too many {noun}. Please try again in {seconds} seconds.';

/**
 * The `{noun}` of LIMIT_MESSAGE for each action a limit counts. The widget tells the two refusals apart by it
 * (api/errors.ts `isConversationLimit`), so that a visitor who starts conversations too quickly is told so.
 */
export const LIMIT_NOUNS = /* @__PURE__ */ Object.freeze({
  message: 'messages',
  conversation: 'new conversations',
  /** Ratings and deletions. */
  action: 'requests',
});

/**
 * The service's validation messages (Laravel's wording, cody-api.md §3); `{attribute}` is the field name with `_`
 * read as a space. A 422's `message` is the first error, plus ` (and N more error[s])`.
 */
export const VALIDATION = /* @__PURE__ */ Object.freeze({
  required: 'The {attribute} field is required.',
  string: 'The {attribute} field must be a string.',
  max: 'The {attribute} field must not be greater than {max} characters.',
  invalid: 'The selected {attribute} is invalid.',
  boolean: 'The {attribute} field must be true or false.',
});

/** What the widget accepts in its settings; the WordPress plugin refuses what the widget would refuse. */
export const WIDGET_RULES = /* @__PURE__ */ Object.freeze({
  /**
   * A CSS colour, case-insensitive: hex of 3, 4, 6 or 8 digits, a colour function or a keyword. No `;`, braces,
   * quotes, `url(` or escapes can get through.
   */
  colorPattern:
    '^(#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\\([0-9a-z.,%\\s/+-]{1,60}\\)|[a-z]{3,30})$',
  /** Text lengths in characters. */
  titleMax: 80,
  welcomeMax: 1000,
  placeholderMax: 200,
  launcherLabelMax: 60,
  conversationNameMax: 100,
  /** The greeting beside the closed launcher (`data-greeting`): a line or two, as its bubble holds it. */
  greetingMax: 150,
  /** Seconds on the page before the greeting shows (`data-greeting-delay`); fractions allowed. */
  greetingDelay: /* @__PURE__ */ Object.freeze({ default: 5, min: 1, max: 600 }),
  /** The consent text (`data-consent`, short Markdown with a link), which the visitor accepts before the first message. */
  consentMax: 1000,
});

<?php
/**
 * Askbox token proxy for PHP 8.1+ (shared hosting, WordPress): the same routes, policy and grants as the
 * JavaScript proxy (src/proxy/core/proxy.ts), in one self-contained file with no extension beyond PHP's defaults
 * (json, hash, openssl, pdo_sqlite; upstream calls use PHP's own HTTP streams, so allow_url_fopen must be on).
 *
 * Grants are byte-compatible with the Node and Workers proxies (`g1.<conversation>.<bot>.<visitor>.<expiry>.
 * <base64url HMAC-SHA256>`), so a site can switch runtimes without breaking stored conversations.
 *
 * Use: copy this file next to a small entry script and call askbox_proxy_handle() with your settings:
 *
 *   require __DIR__ . '/askbox-proxy.php';
 *   askbox_proxy_handle([
 *       'apiKey' => getenv('CODY_API_KEY'),
 *       'botIds' => ['yiu456ytyUjk'],
 *       'secret' => getenv('ASKBOX_SECRET'), // unset: one is made once and kept in storeDir
 *       'basePath' => '/askbox.php',
 *   ]);
 *
 * Further settings mirror the JavaScript proxy's options (allowedOrigins, publicUrl, grantTtlSeconds,
 * streamTtlSeconds, documentIds, limits, clientIp, timeouts, log, authorize), plus `metricsLog` (true: one JSON line
 * per request to the error log, with the Node proxy's OpenTelemetry names; see askbox_metrics_request), `storeDir` (the folder of the
 * limit store, an SQLite file; default `askbox-data` beside the web root, or ASKBOX_STORE_DIR), `requestPath` (the
 * path to route, when a framework has already taken the URL apart) and `linkBase` (the public URL prefix of the
 * stream links it hands out).
 *
 * This file is joined from src/proxy/php/parts/ by `npm run build:php` (scripts/build-php.ts) in the Askbox
 * repository: a change is made there, in the part it concerns, and this file made again.
 */

declare(strict_types=1);

// The wire contract: ASKBOX_CONTRACT, written between the two marker lines from src/protocol/contract.ts when
// `npm run build:php` joins the parts, then the names the code reads it by.

// <askbox-contract> Generated from src/protocol/contract.ts by `npm run build:php`: do not edit.
const ASKBOX_CONTRACT = [
    'baseHeaders' => [
        'cache-control' => 'no-store',
        'x-content-type-options' => 'nosniff',
        'referrer-policy' => 'no-referrer',
    ],
    'basePath' => '/askbox',
    'bucketKeys' => [
        'ipMessages' => 'msg:ip:{ip}',
        'ipMessagesPerDay' => 'day:ip:{ip}',
        'visitorMessages' => 'msg:v:{visitor}',
        'visitorMessagesPerDay' => 'day:v:{visitor}',
        'ipConversations' => 'conv:ip:{ip}',
        'visitorConversations' => 'conv:v:{visitor}',
        'ipActions' => 'act:ip:{ip}',
        'visitorActions' => 'act:v:{visitor}',
        'streamClaim' => 'stream:{id}',
        'challengeIp' => 'pow:ip:{ip}',
        'challengeVisitor' => 'pow:v:{visitor}',
        'proofClaim' => 'pow:used:{id}',
    ],
    'busyRetrySeconds' => 5,
    'corsAllowHeaders' => ['content-type', 'x-askbox-grant', 'x-askbox-user', 'x-askbox-user-hash'],
    'corsMaxAgeSeconds' => 600,
    'defaultLimits' => [
        'visitorMessages' => [
            'burst' => 6,
            'perMinute' => 6,
        ],
        'ipMessages' => [
            'burst' => 30,
            'perMinute' => 30,
        ],
        'visitorConversations' => [
            'burst' => 3,
            'perMinute' => 1,
        ],
        'ipConversations' => [
            'burst' => 10,
            'perMinute' => 5,
        ],
        'visitorActions' => [
            'burst' => 20,
            'perMinute' => 10,
        ],
        'ipActions' => [
            'burst' => 60,
            'perMinute' => 30,
        ],
        'visitorMessagesPerDay' => 200,
        'ipMessagesPerDay' => 1000,
    ],
    'defaultTimeouts' => [
        'connectMs' => 10000,
        'firstByteMs' => 60000,
        'idleMs' => 30000,
        'maxStreamMs' => 300000,
        'storeMs' => 500,
    ],
    'fields' => [
        'contentMax' => 2000,
        'nameMax' => 100,
        'bodyMaxBytes' => 65536,
        'jsonDepthMax' => 4,
        'feedbackCommentMax' => 500,
    ],
    'grantHeader' => 'x-askbox-grant',
    'hostPattern' => '^(?:[a-z0-9-]+(?:\\.[a-z0-9-]+)*|\\[[0-9a-f:.]+\\])(?::\\d{1,5})?$',
    'identity' => [
        'userHeader' => 'x-askbox-user',
        'hashHeader' => 'x-askbox-user-hash',
        'userIdPattern' => '^[A-Za-z0-9._@:+=-]{1,128}$',
        'hashPattern' => '^[0-9a-f]{64}$',
        'personLabel' => 'askbox-person:',
        'personKeyPattern' => '^u-[0-9a-f]{40}$',
        'conversationsMax' => 50,
    ],
    'idPattern' => '^[A-Za-z0-9_-]{1,64}$',
    'limitBuckets' => [
        'message' => [[
            'limit' => 'ipMessages',
            'subject' => 'ip',
            'refill' => 'minute',
        ], [
            'limit' => 'ipMessagesPerDay',
            'subject' => 'ip',
            'refill' => 'day',
        ], [
            'limit' => 'visitorMessages',
            'subject' => 'visitor',
            'refill' => 'minute',
        ], [
            'limit' => 'visitorMessagesPerDay',
            'subject' => 'visitor',
            'refill' => 'day',
        ]],
        'conversation' => [[
            'limit' => 'ipConversations',
            'subject' => 'ip',
            'refill' => 'minute',
        ], [
            'limit' => 'visitorConversations',
            'subject' => 'visitor',
            'refill' => 'minute',
        ]],
        'action' => [[
            'limit' => 'ipActions',
            'subject' => 'ip',
            'refill' => 'minute',
        ], [
            'limit' => 'visitorActions',
            'subject' => 'visitor',
            'refill' => 'minute',
        ]],
    ],
    'limitMessage' => 'Too many {noun}. Please try again in {seconds} seconds.',
    'limitNouns' => [
        'message' => 'messages',
        'conversation' => 'new conversations',
        'action' => 'requests',
    ],
    'proofOfWork' => [
        'algorithm' => 'PBKDF2/SHA-256',
        'keyLength' => 32,
        'keyLabel' => 'askbox-pow',
        'normal' => [
            'cost' => 16000,
            'prefixLength' => 1,
        ],
        'raised' => [
            'cost' => 32000,
            'prefixLength' => 2,
        ],
        'costRange' => [
            'min' => 1,
            'max' => 1000000,
        ],
        'prefixLengthRange' => [
            'min' => 1,
            'max' => 6,
        ],
        'ttlSeconds' => [
            'default' => 300,
            'min' => 10,
            'max' => 3600,
        ],
        'ipChallenges' => [
            'burst' => 10,
            'perMinute' => 5,
        ],
        'visitorChallenges' => [
            'burst' => 3,
            'perMinute' => 1,
        ],
    ],
    'ratings' => ['up', 'down'],
    'refusals' => [
        'notFound' => [
            'status' => 404,
            'message' => 'Not found.',
        ],
        'conversationNotFound' => [
            'status' => 404,
            'message' => 'Conversation not found.',
        ],
        'streamGone' => [
            'status' => 404,
            'message' => 'This stream does not exist or has expired.',
        ],
        'methodNotAllowed' => [
            'status' => 405,
            'message' => 'Method not allowed.',
        ],
        'wrongHost' => [
            'status' => 421,
            'message' => 'This chat is not served on this host.',
        ],
        'originRefused' => [
            'status' => 403,
            'message' => 'This site is not allowed to use this chat.',
        ],
        'notAuthorized' => [
            'status' => 403,
            'message' => 'You are not allowed to use this chat.',
        ],
        'identityRefused' => [
            'status' => 403,
            'message' => 'Your sign-in could not be verified. Please sign in again.',
        ],
        'identityRequired' => [
            'status' => 401,
            'message' => 'Sign in to see your conversations.',
        ],
        'proofRequired' => [
            'status' => 428,
            'message' => 'Please wait a moment: the chat is getting ready.',
        ],
        'unsupportedType' => [
            'status' => 415,
            'message' => 'The request body must be application/json.',
        ],
        'unreadableBody' => [
            'status' => 400,
            'message' => 'The request body could not be read.',
        ],
        'malformedHost' => [
            'status' => 400,
            'message' => 'The Host header is malformed.',
        ],
        'malformedTarget' => [
            'status' => 400,
            'message' => 'The request target is malformed.',
        ],
        'headerTwin' => [
            'status' => 400,
            'message' => 'The request carries a header twin of the client address header.',
        ],
        'bodyTimeout' => [
            'status' => 408,
            'message' => 'The request body took too long to arrive.',
        ],
        'bodyTooLarge' => [
            'status' => 413,
            'message' => 'The request body is too large.',
        ],
        'tooDeep' => [
            'status' => 400,
            'message' => 'The request body is nested too deeply.',
        ],
        'notAnObject' => [
            'status' => 400,
            'message' => 'The request body must be a JSON object.',
        ],
        'clientGone' => [
            'status' => 499,
            'message' => 'The client went away.',
        ],
        'unexpectedAnswer' => [
            'status' => 502,
            'message' => 'The chat service sent an unexpected response.',
        ],
        'upstreamFailed' => [
            'status' => 502,
            'message' => 'The chat service could not handle the request.',
        ],
        'noStream' => [
            'status' => 502,
            'message' => 'The chat service did not return a stream.',
        ],
        'unreachable' => [
            'status' => 502,
            'message' => 'The chat service could not be reached.',
        ],
        'busy' => [
            'status' => 503,
            'message' => 'The chat is busy. Please try again shortly.',
        ],
        'unavailable' => [
            'status' => 503,
            'message' => 'The chat is unavailable right now. Please try again later.',
        ],
        'timeout' => [
            'status' => 504,
            'message' => 'The chat service did not answer in time.',
        ],
        'misconfigured' => [
            'status' => 503,
            'message' => 'The chat proxy is misconfigured.',
        ],
    ],
    'routes' => [
        'conversations' => [
            'path' => 'conversations',
            'methods' => ['GET', 'POST'],
        ],
        'conversation' => [
            'path' => 'conversations/{id}',
            'methods' => ['DELETE'],
        ],
        'feedback' => [
            'path' => 'feedback',
            'methods' => ['POST'],
        ],
        'messages' => [
            'path' => 'messages',
            'methods' => ['GET', 'POST'],
        ],
        'messageStream' => [
            'path' => 'messages/stream',
            'methods' => ['POST'],
        ],
        'stream' => [
            'path' => 'stream/{token}',
            'methods' => ['GET'],
        ],
        'health' => [
            'path' => 'health',
            'methods' => ['GET'],
        ],
        'challenge' => [
            'path' => 'challenge',
            'methods' => ['GET'],
        ],
    ],
    'routeMethods' => ['DELETE', 'GET', 'POST'],
    'secretMinLength' => 16,
    'service' => [
        'upstream' => 'https://getcody.ai/api/v1',
        'streamOrigin' => 'https://stream.aimcaiface.com',
        'streamHopsMax' => 3,
        'jsonMaxBytes' => 1048576,
    ],
    'storeFailures' => [
        'limits' => 'The limit store failed',
        'people' => 'The people store failed',
    ],
    'storeSizes' => [
        'buckets' => 100000,
        'verifiedGrants' => 10000,
        'verifiedIdentities' => 10000,
        'people' => 10000,
    ],
    'trustedHops' => [
        'min' => 1,
        'max' => 10,
        'message' => 'clientIp.trustedHops must be a whole number from 1 to 10',
    ],
    'ttls' => [
        'grantTtlSeconds' => [
            'default' => 2592000,
            'min' => 60,
            'max' => 31536000,
        ],
        'streamTtlSeconds' => [
            'default' => 60,
            'min' => 1,
            'max' => 3600,
        ],
    ],
    'validation' => [
        'required' => 'The {attribute} field is required.',
        'string' => 'The {attribute} field must be a string.',
        'max' => 'The {attribute} field must not be greater than {max} characters.',
        'invalid' => 'The selected {attribute} is invalid.',
        'boolean' => 'The {attribute} field must be true or false.',
    ],
    'widgetRules' => [
        'colorPattern' => '^(#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\\([0-9a-z.,%\\s/+-]{1,60}\\)|[a-z]{3,30})$',
        'titleMax' => 80,
        'welcomeMax' => 1000,
        'placeholderMax' => 200,
        'launcherLabelMax' => 60,
        'conversationNameMax' => 100,
        'greetingMax' => 150,
        'greetingDelay' => [
            'default' => 5,
            'min' => 1,
            'max' => 600,
        ],
        'consentMax' => 1000,
    ],
];
// </askbox-contract>

const ASKBOX_ID = '~' . ASKBOX_CONTRACT['idPattern'] . '~';
const ASKBOX_MAX_BODY = ASKBOX_CONTRACT['fields']['bodyMaxBytes'];
const ASKBOX_MAX_DEPTH = ASKBOX_CONTRACT['fields']['jsonDepthMax'];
const ASKBOX_MAX_NAME = ASKBOX_CONTRACT['fields']['nameMax'];
/** The longest message the service takes (cody-api.md, endpoint 19), in code points. */
const ASKBOX_MAX_CONTENT = ASKBOX_CONTRACT['fields']['contentMax'];
/** The most an upstream JSON answer may weigh; past it the answer is a 502 (a hostile service cannot exhaust memory). */
const ASKBOX_MAX_UPSTREAM_JSON = ASKBOX_CONTRACT['service']['jsonMaxBytes'];
/** The longest chain of redirects followed to reach a stream. */
const ASKBOX_MAX_STREAM_HOPS = ASKBOX_CONTRACT['service']['streamHopsMax'];
const ASKBOX_DEFAULT_UPSTREAM = ASKBOX_CONTRACT['service']['upstream'];
const ASKBOX_HOST = '~' . ASKBOX_CONTRACT['hostPattern'] . '~';
/** The abuse limits by default, as the JavaScript proxy's DEFAULT_LIMITS. */
const ASKBOX_DEFAULT_LIMITS = ASKBOX_CONTRACT['defaultLimits'];
/** Buckets kept at most, as the memory store: beyond it those soonest full again are forgotten. */
const ASKBOX_MAX_BUCKETS = ASKBOX_CONTRACT['storeSizes']['buckets'];
/** How long a request waits for another worker's write before the store counts as unable to answer. */
const ASKBOX_STORE_WAIT_MS = ASKBOX_CONTRACT['defaultTimeouts']['storeMs'];
/** The Retry-After of a 503 when the store cannot answer. */
const ASKBOX_STORE_RETRY_SECONDS = ASKBOX_CONTRACT['busyRetrySeconds'];
const ASKBOX_BASE_HEADERS = ASKBOX_CONTRACT['baseHeaders'];

// The entry: askbox_proxy_handle() and the settings it takes, checked and completed with the JavaScript proxy's
// defaults (origins, the store folder, the kept secret, lifetimes).

/** Handles the current request; never throws, never answers a hostile request with a 5xx, never prints the key. */
function askbox_proxy_handle(array $options): void
{
    try {
        $config = askbox_config($options);
        $config['metricsLog'] = $options['metricsLog'] ?? false;
        if (!is_bool($config['metricsLog'])) throw new InvalidArgumentException('metricsLog must be true or false');
    } catch (InvalidArgumentException $error) {
        error_log('[askbox] ' . $error->getMessage());
        askbox_refuse('misconfigured');
        return;
    }
    $started = microtime(true);
    $method = strtoupper($_SERVER['REQUEST_METHOD'] ?? 'GET');
    $path = (string) ($options['requestPath'] ?? parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH));
    try {
        $status = askbox_dispatch($config, $method, $path);
    } catch (Throwable $error) {
        $store = askbox_failed_store($error);
        $words = $store === null ? '' : ASKBOX_CONTRACT['storeFailures'][$store] . ': ';
        askbox_log($config, ['level' => 'error', 'event' => $store ?? 'upstream', 'method' => $method, 'message' => get_class($error) . ': ' . $words . $error->getMessage()]);
        // SECURITY: fail closed, in words for the visitor; what broke is in the log only.
        $busy = $store !== null;
        $message = $busy ? ASKBOX_CONTRACT['refusals']['busy']['message'] : ASKBOX_CONTRACT['refusals']['unavailable']['message'];
        askbox_metric_refusal(['askbox.refusal.reason' => $busy ? 'busy' : 'unavailable']);
        $status = headers_sent() ? 200 : askbox_send(503, ['message' => $message], $busy ? ['Retry-After' => (string) ASKBOX_STORE_RETRY_SECONDS] : []);
    }
    askbox_log($config, ['level' => $status === 429 ? 'warn' : 'info', 'event' => $status === 429 ? 'limit' : 'request', 'method' => $method,
        'path' => preg_replace('#/stream/[^/]*#', '/stream/:token', $path), 'status' => $status, 'ms' => (int) round((microtime(true) - $started) * 1000)]);
    askbox_metrics_request($config, $method, $path, $status);
}

/** The store that failed, as its log line's event names it (`limits`, `people`); null when no store did. */
function askbox_failed_store(Throwable $error): ?string
{
    if ($error instanceof AskboxStoreError) return 'people';
    return $error instanceof AskboxLimitStoreError ? 'limits' : null;
}

/** The options, checked and completed with the same defaults as the JavaScript proxy. */
function askbox_config(array $o): array
{
    $fail = static fn (string $m) => throw new InvalidArgumentException($m);
    if (!is_string($o['apiKey'] ?? null) || $o['apiKey'] === '') $fail('apiKey is required');
    $bots = $o['botIds'] ?? [];
    if (!is_array($bots) || !$bots || array_filter($bots, static fn ($b) => !is_string($b) || !preg_match(ASKBOX_ID, $b))) $fail('botIds must list at least one valid bot id');
    // getenv() answers false for an unset variable: no secret given, so the one kept in the store folder signs.
    $given = $o['secret'] ?? null;
    $secrets = in_array($given, [null, false, '', []], true) ? [askbox_kept_secret(askbox_store_dir($o))] : array_values((array) $given);
    if (!$secrets || array_filter($secrets, static fn ($s) => !is_string($s) || strlen($s) < ASKBOX_CONTRACT['secretMinLength'])) $fail('secret must be a string of at least ' . ASKBOX_CONTRACT['secretMinLength'] . ' characters, or a list of them');
    $origins = askbox_origin_list('allowedOrigins', $o['allowedOrigins'] ?? []);
    $limits = $o['limits'] ?? [];
    if ($limits !== false && !is_array($limits)) $fail('limits must be false or an object of limits');
    $limits = $limits === false ? false : array_merge(ASKBOX_DEFAULT_LIMITS, $limits);
    if ($limits !== false) {
        foreach (['visitorMessages', 'ipMessages', 'visitorConversations', 'ipConversations', 'visitorActions', 'ipActions'] as $name) {
            $r = $limits[$name];
            if (!is_array($r) || !is_numeric($r['burst'] ?? null) || !is_numeric($r['perMinute'] ?? null) || $r['burst'] < 1 || $r['perMinute'] <= 0) $fail('limits need burst ≥ 1, perMinute > 0, visitorMessagesPerDay ≥ 1 and ipMessagesPerDay ≥ 1');
        }
        foreach (['visitorMessagesPerDay', 'ipMessagesPerDay'] as $name) {
            if (!is_numeric($limits[$name]) || $limits[$name] < 1) $fail('limits need burst ≥ 1, perMinute > 0, visitorMessagesPerDay ≥ 1 and ipMessagesPerDay ≥ 1');
        }
    }
    if (isset($o['onFeedback']) && !is_callable($o['onFeedback'])) $fail('onFeedback must be a callable');
    if (isset($o['onDelete']) && !is_callable($o['onDelete'])) $fail('onDelete must be a callable');
    $public = isset($o['publicUrl']) ? parse_url((string) $o['publicUrl']) : null;
    if ($public === false || ($public !== null && (!isset($public['scheme'], $public['host']) || !in_array(strtolower($public['scheme']), ['http', 'https'], true)))) $fail('publicUrl is not a URL');
    $upstream = rtrim((string) ($o['upstream'] ?? ASKBOX_DEFAULT_UPSTREAM), '/');
    $up = parse_url($upstream);
    if (!isset($up['scheme'], $up['host'])) $fail('upstream is not a URL');
    $hosts = [];
    foreach ((array) ($o['allowedHosts'] ?? []) as $host) {
        if (!is_string($host) || !preg_match(ASKBOX_HOST, $host)) $fail('allowedHosts: "' . (is_string($host) ? $host : gettype($host)) . '" is not a host (name[:port])');
        $hosts[] = $host;
    }
    if ($public) $hosts[] = askbox_host($public);
    $clientIp = $o['clientIp'] ?? null;
    $header = is_array($clientIp) ? ($clientIp['header'] ?? null) : null;
    $hops = is_array($clientIp) ? ($clientIp['trustedHops'] ?? null) : null;
    if ($clientIp !== null && !($header === 'cf-connecting-ip' || ($header === 'x-forwarded-for' && is_int($hops)))) {
        $fail('clientIp must be null (the socket), {"header": "cf-connecting-ip"} or {"header": "x-forwarded-for", "trustedHops": n}');
    }
    $range = ASKBOX_CONTRACT['trustedHops'];
    if ($header === 'x-forwarded-for' && ($hops < $range['min'] || $hops > $range['max'])) $fail($range['message']);
    $timeouts = array_merge(ASKBOX_CONTRACT['defaultTimeouts'] + ['bodyMs' => 10000], (array) ($o['timeouts'] ?? []));
    foreach ($timeouts as $ms) if (!is_int($ms) && !is_float($ms) || $ms <= 0) $fail('timeouts must be positive numbers of milliseconds');
    return [
        'apiKey' => $o['apiKey'],
        'bots' => array_values($bots),
        'secrets' => $secrets,
        'origins' => $origins,
        'upstream' => $upstream,
        'upstreamOrigin' => askbox_origin($up),
        'hosts' => array_values(array_unique($hosts)),
        'streamOrigins' => askbox_origin_list('streamOrigins', $o['streamOrigins'] ?? ($upstream === ASKBOX_DEFAULT_UPSTREAM ? [ASKBOX_CONTRACT['service']['streamOrigin']] : [])),
        'privateUpstream' => askbox_private_host((string) $up['host']),
        'base' => '/' . trim((string) ($o['basePath'] ?? ASKBOX_CONTRACT['basePath']), '/'),
        'linkBase' => rtrim((string) ($o['linkBase'] ?? '/' . trim((string) ($o['basePath'] ?? ASKBOX_CONTRACT['basePath']), '/')), '/'),
        'publicHost' => $public ? askbox_host($public) : null,
        'grantTtl' => askbox_ttl($o, 'grantTtlSeconds'),
        'streamTtlMs' => askbox_ttl($o, 'streamTtlSeconds') * 1000,
        'documentIds' => array_values((array) ($o['documentIds'] ?? [])),
        'limits' => $limits,
        'proofOfWork' => askbox_pow_config($o['proofOfWork'] ?? false, $fail),
        'storeDir' => askbox_store_dir($o),
        'clientIp' => $clientIp,
        'timeouts' => $timeouts,
        'authorize' => $o['authorize'] ?? null,
        'log' => $o['log'] ?? null,
        'onFeedback' => $o['onFeedback'] ?? null,
        'onDelete' => $o['onDelete'] ?? null,
    ] + askbox_identity_config($o);
}

/** A list of origins (scheme://host[:port], exactly as a URL's origin spells it: lowercase, no default port). */
function askbox_origin_list(string $name, mixed $list): array
{
    if (!is_array($list)) throw new InvalidArgumentException("$name must be a list of origins");
    foreach ($list as $origin) {
        if ($origin === '*') throw new InvalidArgumentException("\"*\" is not allowed in $name; list each origin");
        $parts = is_string($origin) ? parse_url($origin) : false;
        $exact = is_array($parts) && isset($parts['scheme'], $parts['host']) && in_array($parts['scheme'], ['http', 'https'], true)
            && askbox_origin($parts) === $origin && preg_match(ASKBOX_HOST, askbox_host($parts));
        if (!$exact) throw new InvalidArgumentException('"' . (is_string($origin) ? $origin : gettype($origin)) . '" is not an origin (scheme://host[:port])');
    }
    return array_values(array_unique($list));
}

/**
 * Where the store lives: `storeDir`, else the ASKBOX_STORE_DIR variable, else `askbox-data` beside the web root
 * (the web root's parent, never served). SECURITY: never the system's temporary folder by default, which other
 * users of a shared host can list.
 */
function askbox_store_dir(array $o): string
{
    $dir = $o['storeDir'] ?? (getenv('ASKBOX_STORE_DIR') ?: null);
    $root = (string) ($_SERVER['DOCUMENT_ROOT'] ?? '');
    $dir ??= $root !== '' ? dirname(rtrim($root, '/')) . '/askbox-data' : null;
    if (!is_string($dir) || $dir === '' || !str_starts_with($dir, '/') && !preg_match('#^[A-Za-z]:[\\/]#', $dir)) throw new InvalidArgumentException('storeDir must be an absolute folder path');
    return rtrim($dir, '/');
}

/**
 * The secret kept in the store folder when none is given (`ASKBOX_SECRET` unset): made once, atomically, and read by
 * every later request, so a grant one PHP worker signs verifies in every other one and after restarts.
 * SECURITY: the file is 0600 in the store's 0700 folder, outside the web root by default. It is written in full to a
 * temporary name, then hard-linked into place: link() never replaces a file, so of two workers making one at once the
 * first wins and both read it, and no worker ever reads half a secret. Making it is one error-log line. One that
 * cannot be made or read is a misconfiguration (503, one log line naming ASKBOX_SECRET), never a secret per request.
 */
function askbox_kept_secret(string $dir): string
{
    $file = $dir . '/askbox-secret';
    $fail = static fn (string $why) => throw new InvalidArgumentException("No secret is given (set ASKBOX_SECRET) and none can be kept in $file: $why");
    if (!is_file($file)) {
        if (!is_dir($dir) && !@mkdir($dir, 0700, true) && !is_dir($dir)) $fail('its folder cannot be created (storeDir)');
        $temp = $file . '.' . bin2hex(random_bytes(8));
        $mask = umask(0077);
        $fp = @fopen($temp, 'x');
        umask($mask);
        $written = $fp !== false && @fwrite($fp, bin2hex(random_bytes(32))) === 64 && fflush($fp);
        if ($fp !== false) fclose($fp);
        $linked = $written && @link($temp, $file);
        @unlink($temp);
        if (!$linked && !is_file($file)) $fail('it cannot be written');
        // Said once, by the worker whose link made the file: a site with several servers needs ASKBOX_SECRET set.
        if ($linked) error_log("[askbox] No secret is given (ASKBOX_SECRET): made one and kept it in $file; set ASKBOX_SECRET, the same on every server, if there are several.");
    }
    if ((@fileperms($file) & 0077) !== 0) @chmod($file, 0600);
    $secret = @file_get_contents($file);
    if (!is_string($secret) || !preg_match('/^[0-9a-f]{64}$/D', $secret)) $fail('it cannot be read, or is not 64 hex digits');
    return $secret;
}

/** A lifetime option: whole seconds within [min, max], or the default when unset. */
function askbox_seconds(array $o, string $name, int $default, int $min, int $max): int
{
    $value = $o[$name] ?? $default;
    if (!is_int($value) || $value < $min || $value > $max) throw new InvalidArgumentException("$name must be a whole number of seconds from $min to $max");
    return $value;
}

/** A lifetime option: whole seconds within the contract's range, or its default when unset. */
function askbox_ttl(array $o, string $name): int
{
    $ttl = ASKBOX_CONTRACT['ttls'][$name];
    return askbox_seconds($o, $name, $ttl['default'], $ttl['min'], $ttl['max']);
}

// Routing: the host, origin and CORS checks, the preflight and the authorize hook, then the route a request names.

/** Origin checks, preflight, the authorize hook, then the route. Returns the status sent. */
function askbox_dispatch(array $c, string $method, string $path): int
{
    $base = $c['base'];
    if (!str_starts_with($path, $base . '/')) return askbox_refuse('notFound');
    // SECURITY: DNS rebinding reaches a proxy under the attacker's own host name; only the site's hosts are served.
    $host = askbox_request_host();
    if (!askbox_served_host($c, $host)) return askbox_refuse('wrongHost');
    if (askbox_header_twin($c)) return askbox_refuse('headerTwin');
    // An empty Origin is no origin, as on every runtime (workerd drops an empty header).
    $origin = ($_SERVER['HTTP_ORIGIN'] ?? '') === '' ? null : (string) $_SERVER['HTTP_ORIGIN'];
    $cross = $origin !== null && !askbox_same_host_origin($origin, $c['publicHost'] ?? $host);
    // SECURITY: a listed origin is matched as the exact string a browser sends; no scheme, port, case or suffix
    // variant of it is the same site.
    if ($cross && !in_array($origin, $c['origins'], true)) return askbox_refuse('originRefused');
    $GLOBALS['askbox_cors'] = $cross ? ['Access-Control-Allow-Origin' => $origin, 'Access-Control-Expose-Headers' => 'retry-after'] : [];
    if ($method === 'OPTIONS') {
        return askbox_send(204, null, ['Access-Control-Allow-Methods' => implode(', ', ASKBOX_CONTRACT['routeMethods']), 'Access-Control-Allow-Headers' => implode(', ', ASKBOX_CONTRACT['corsAllowHeaders']), 'Access-Control-Max-Age' => (string) ASKBOX_CONTRACT['corsMaxAgeSeconds']]);
    }
    if (is_callable($c['authorize']) && $path !== $base . '/health') {
        $verdict = ($c['authorize'])();
        if ($verdict !== true) return askbox_refuse('notAuthorized');
    }
    $segments = array_values(array_filter(explode('/', substr($path, strlen($base))), 'strlen'));
    if ($segments !== ['health']) {
        $person = askbox_identity($c);
        if (is_int($person)) return $person;
        $c['person'] = $person;
    }
    return askbox_route($c, $method, $segments);
}

function askbox_route(array $c, string $method, array $segments): int
{
    [$resource, $id, $extra] = $segments + [null, null, null];
    // The methods each route takes are the contract's ROUTES, as in the JavaScript router.
    $only = static fn (string $route, callable $run) => in_array($method, ASKBOX_CONTRACT['routes'][$route]['methods'], true)
        ? $run() : askbox_refuse('methodNotAllowed', ['Allow' => implode(', ', ASKBOX_CONTRACT['routes'][$route]['methods'])]);
    if ($extra !== null || ($id !== null && !preg_match(ASKBOX_ID, $id) && $resource !== 'stream')) return askbox_refuse('notFound');
    // Up, and an Askbox proxy; with ?bot_id=, whether that bot is one it serves (no secret: every page carries it).
    if ($resource === 'health' && $id === null) return $only('health', static fn () => askbox_send(200, ['status' => 'ok', 'proxy' => 'askbox'] + (is_string($_GET['bot_id'] ?? null) ? ['bot' => in_array($_GET['bot_id'], $c['bots'], true)] : [])));
    if ($resource === 'conversations' && $id === null) return $only('conversations', static fn () => $method === 'GET' ? askbox_list_conversations($c) : askbox_create($c));
    if ($resource === 'conversations') return $only('conversation', static fn () => askbox_delete($c, $id));
    if ($resource === 'feedback' && $id === null) return $only('feedback', static fn () => askbox_feedback($c));
    if ($resource === 'challenge' && $id === null) return $only('challenge', static fn () => askbox_pow_challenge($c));
    if ($resource === 'stream' && $id !== null) return $only('stream', static fn () => askbox_stream($c, $id));
    if ($resource === 'messages' && $id === 'stream') return $only('messageStream', static fn () => askbox_send_for_stream($c));
    if ($resource !== 'messages' || $id !== null) return askbox_refuse('notFound');
    if ($method === 'GET') return askbox_list_messages($c);
    if ($method === 'POST') {
        $body = askbox_read_message_body($c);
        if (is_int($body)) return $body;
        return askbox_forward(askbox_upstream($c, 'POST', '/messages', ['content' => $body['content'], 'conversation_id' => $body['conversation_id']], $c['timeouts']['firstByteMs']));
    }
    return askbox_refuse('methodNotAllowed', ['Allow' => implode(', ', ASKBOX_CONTRACT['routes']['messages']['methods'])]);
}

// The routes: create a conversation, send (for a stream), list messages, delete, feedback, and the reply stream.

function askbox_create(array $c): int
{
    $body = askbox_read_json($c);
    if (is_int($body)) return $body;
    // The service's validation, in its order and words (cody-api.md): name, then bot_id, one of ours.
    $bot = $body['bot_id'] ?? null;
    $errors = [];
    if (!askbox_present($body['name'] ?? null)) $errors['name'] = askbox_say('required', 'name');
    elseif (!is_string($body['name'])) $errors['name'] = askbox_say('string', 'name');
    if (!askbox_present($bot)) $errors['bot_id'] = askbox_say('required', 'bot_id');
    elseif (!is_string($bot) || !in_array($bot, $c['bots'], true)) $errors['bot_id'] = askbox_say('invalid', 'bot_id');
    if ($errors) return askbox_invalid_all($errors);
    // A visitor keeps its id across conversations, so starting afresh does not reset its limits; a person is their key.
    $visitor = askbox_visitor($c) ?? askbox_b64url(random_bytes(16));
    $refused = askbox_limit($c, 'conversation', $visitor) ?? askbox_pow_check($c, $body['proof'] ?? null);
    if ($refused !== null) return $refused;
    // Cut on characters (code points), never inside one; json_decode has already refused invalid UTF-8.
    preg_match('/^.{0,' . ASKBOX_MAX_NAME . '}/us', trim($body['name']), $cut);
    $forward = ['name' => $cut[0], 'bot_id' => $bot];
    $requested = $body['document_ids'] ?? null;
    $chosen = is_array($requested) && $requested && !array_filter($requested, static fn ($d) => !is_string($d) || !in_array($d, $c['documentIds'], true));
    if ($chosen) $forward['document_ids'] = array_values($requested);
    elseif ($c['documentIds']) $forward['document_ids'] = $c['documentIds'];
    $answer = askbox_upstream($c, 'POST', '/conversations', $forward, $c['timeouts']['connectMs']);
    if (!is_array($answer) || $answer['status'] < 200 || $answer['status'] >= 300) return askbox_forward($answer);
    $created = json_decode($answer['body']);
    $id = $created->data->id ?? null;
    if (!is_string($id) || !preg_match(ASKBOX_ID, $id)) return askbox_refuse('unexpectedAnswer');
    try {
        if (isset($c['person'])) askbox_people($c)->add($c['person'], askbox_listed($created->data, $bot));
    } catch (Throwable $error) {
        // The person's list could not take it: the conversation goes at the service too, so none is left that no
        // list shows and no grant reaches (the visitor is answered 503, and sends again).
        askbox_upstream($c, 'DELETE', '/conversations/' . $id, null, $c['timeouts']['connectMs']);
        throw $error;
    }
    return askbox_send(200, ['data' => $created->data, 'meta' => ['grant' => askbox_grant_sign($c, $id, $bot, $visitor)]]);
}

/** A message body whose conversation the visitor holds a grant for, within the limits; else the status sent. */
function askbox_read_message_body(array $c, bool $forStream = false): array|int
{
    $body = askbox_read_json($c);
    if (is_int($body)) return $body;
    // The service's validation, in its order and words (cody-api.md): content, conversation_id, and for a stream
    // redirect. A conversation the visitor holds no grant for reads as one the service does not know.
    $errors = [];
    $content = $body['content'] ?? null;
    if (!askbox_present($content)) $errors['content'] = askbox_say('required', 'content');
    elseif (!is_string($content)) $errors['content'] = askbox_say('string', 'content');
    // The service counts code points; refused here, before any limit is spent or upstream call made.
    elseif (strlen($content) > ASKBOX_MAX_CONTENT && preg_match_all('/./su', $content) > ASKBOX_MAX_CONTENT) {
        $errors['content'] = askbox_say('max', 'content', ASKBOX_MAX_CONTENT);
    }
    $conversation = $body['conversation_id'] ?? null;
    $grant = is_string($conversation) ? askbox_grant_for($c, $conversation) : null;
    if (!askbox_present($conversation)) $errors['conversation_id'] = askbox_say('required', 'conversation_id');
    elseif ($grant === null) $errors['conversation_id'] = askbox_say('invalid', 'conversation_id');
    // Laravel's `boolean`: true, false, 1, 0, "1", "0", "true", "false"; absent is the service's default, true.
    $redirect = $forStream ? ($body['redirect'] ?? true) : true;
    if (!in_array($redirect, [true, false, 1, 0, '1', '0', 'true', 'false'], true)) $errors['redirect'] = askbox_say('boolean', 'redirect');
    if ($errors) return askbox_invalid_all($errors);
    $refused = askbox_limit($c, 'message', askbox_counted_as($c, $grant));
    if ($refused !== null) return $refused;
    return ['content' => $content, 'conversation_id' => $grant['conversationId'], 'redirect' => in_array($redirect, [true, 1, '1', 'true'], true)];
}

/** Laravel's `required`: not missing, null, blank text or an empty list (which a JSON `{}` is to Laravel). */
function askbox_present(mixed $value): bool
{
    return !($value === null || $value === [] || ($value instanceof stdClass && get_object_vars($value) === []) || (is_string($value) && trim($value) === ''));
}

function askbox_send_for_stream(array $c): int
{
    $body = askbox_read_message_body($c, true);
    if (is_int($body)) return $body;
    $answer = askbox_upstream($c, 'POST', '/messages/stream', ['content' => $body['content'], 'conversation_id' => $body['conversation_id'], 'redirect' => false], $c['timeouts']['connectMs']);
    if (!is_array($answer)) return askbox_forward($answer);
    if ($answer['status'] >= 300 && $answer['status'] < 400) $url = $answer['headers']['location'] ?? null;
    elseif ($answer['status'] >= 200 && $answer['status'] < 300) $url = json_decode($answer['body'])->data->stream_url ?? null;
    else return askbox_forward($answer);
    $target = is_string($url) ? askbox_stream_url($c, $url, $c['upstream']) : null;
    if ($target === null) return askbox_refuse('noStream');
    $token = askbox_seal($c, $target, $body['conversation_id']);
    if ($body['redirect']) return askbox_send(302, null, ['Location' => $c['linkBase'] . '/stream/' . $token]);
    // As the service answers redirect: false: an absolute URL, on the host the request came to (checked above).
    $origin = str_starts_with($c['linkBase'], '/') ? (!empty($_SERVER['HTTPS']) && $_SERVER['HTTPS'] !== 'off' ? 'https' : 'http') . '://' . strtolower((string) ($_SERVER['HTTP_HOST'] ?? '')) : '';
    return askbox_send(200, ['data' => ['stream_url' => $origin . $c['linkBase'] . '/stream/' . $token]]);
}

/** One conversation's messages, only with the visitor's grant for it. */
function askbox_list_messages(array $c): int
{
    $conversation = $_GET['conversation_id'] ?? '';
    if (!is_string($conversation) || $conversation === '') return askbox_invalid('conversation_id', askbox_say('required', 'conversation_id'));
    if (askbox_grant_for($c, $conversation) === null) return askbox_refuse('conversationNotFound');
    $query = array_filter(array_intersect_key($_GET, array_flip(['conversation_id', 'includes', 'page', 'per_page'])), 'is_string');
    return askbox_forward(askbox_upstream($c, 'GET', '/messages?' . http_build_query($query), null, $c['timeouts']['connectMs']));
}

/** The visitor's own conversation, deleted at the service, then `onDelete`; someone else's (or no) grant finds nothing. */
function askbox_delete(array $c, string $id): int
{
    $grant = askbox_grant_for($c, $id);
    if ($grant === null) return askbox_refuse('conversationNotFound');
    $refused = askbox_limit($c, 'action', askbox_counted_as($c, $grant));
    if ($refused !== null) return $refused;
    $answer = askbox_upstream($c, 'DELETE', '/conversations/' . $id, null, $c['timeouts']['connectMs']);
    // Gone at the service, or never there: out of the person's list too.
    if (isset($c['person']) && is_array($answer) && ($answer['status'] === 404 || ($answer['status'] >= 200 && $answer['status'] < 300))) {
        askbox_people($c)->remove($c['person'], $grant['conversationId']);
    }
    // Gone at the service: what the site keeps of it (the ratings onFeedback stored) goes too.
    if (is_array($answer) && $answer['status'] >= 200 && $answer['status'] < 300 && is_callable($c['onDelete'])) {
        try {
            ($c['onDelete'])(['conversationId' => $grant['conversationId'], 'visitorId' => $grant['visitorId']]);
        } catch (Throwable $error) {
            askbox_log($c, ['level' => 'error', 'event' => 'delete', 'message' => 'onDelete failed: ' . $error->getMessage()]);
        }
    }
    return askbox_forward($answer);
}

/** A rating of a reply in a conversation the visitor holds: to `onFeedback`, else one log line; never upstream. */
function askbox_feedback(array $c): int
{
    $body = askbox_read_json($c);
    if (is_int($body)) return $body;
    $errors = [];
    $conversation = $body['conversation_id'] ?? null;
    $grant = is_string($conversation) ? askbox_grant_for($c, $conversation) : null;
    if (!askbox_present($conversation)) $errors['conversation_id'] = askbox_say('required', 'conversation_id');
    elseif ($grant === null) $errors['conversation_id'] = askbox_say('invalid', 'conversation_id');
    $message = $body['message_id'] ?? null;
    if (!askbox_present($message)) $errors['message_id'] = askbox_say('required', 'message_id');
    elseif (!is_string($message) || !preg_match(ASKBOX_ID, $message)) $errors['message_id'] = askbox_say('invalid', 'message_id');
    $rating = $body['rating'] ?? null;
    if (!askbox_present($rating)) $errors['rating'] = askbox_say('required', 'rating');
    elseif (!in_array($rating, ASKBOX_CONTRACT['ratings'], true)) $errors['rating'] = askbox_say('invalid', 'rating');
    $comment = $body['comment'] ?? null;
    $max = ASKBOX_CONTRACT['fields']['feedbackCommentMax'];
    if ($comment !== null && !is_string($comment)) $errors['comment'] = askbox_say('string', 'comment');
    elseif (is_string($comment) && strlen($comment) > $max && preg_match_all('/./su', $comment) > $max) $errors['comment'] = askbox_say('max', 'comment', $max);
    if ($errors) return askbox_invalid_all($errors);
    $refused = askbox_limit($c, 'action', askbox_counted_as($c, $grant));
    if ($refused !== null) return $refused;
    $event = ['conversationId' => $grant['conversationId'], 'messageId' => $message, 'rating' => $rating]
        + (is_string($comment) && trim($comment) !== '' ? ['comment' => trim($comment)] : [])
        + ['visitorId' => $grant['visitorId']];
    if (is_callable($c['onFeedback'])) {
        try {
            ($c['onFeedback'])($event);
        } catch (Throwable $error) {
            askbox_log($c, ['level' => 'error', 'event' => 'feedback', 'message' => 'onFeedback failed: ' . $error->getMessage()]);
            return askbox_send(503, ['message' => ASKBOX_CONTRACT['refusals']['busy']['message']], ['Retry-After' => (string) ASKBOX_STORE_RETRY_SECONDS]);
        }
    } else {
        askbox_log($c, ['level' => 'info', 'event' => 'feedback', 'message' => json_encode($event, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE)]);
    }
    return askbox_send(200, ['data' => ['conversation_id' => $event['conversationId'], 'message_id' => $message, 'rating' => $rating]]);
}

function askbox_stream(array $c, string $token): int
{
    $sealed = askbox_unseal($c, $token);
    // SECURITY: a stream URL alone is not enough; the visitor's grant for its conversation must come with it. And it
    // opens once: a copy of the token (a log, a cache) is worthless. Its random IV names it in the store.
    if ($sealed === null || askbox_grant_for($c, $sealed['c']) === null || !askbox_spend(askbox_db($c), bin2hex(substr((string) askbox_b64url_decode($token), 0, 12)), $sealed['e'], askbox_now_ms())) {
        return askbox_refuse('streamGone');
    }
    $t = $c['timeouts'];
    $url = askbox_stream_url($c, $sealed['u'], $c['upstream']);
    if ($url === null) return askbox_refuse('noStream');
    // SECURITY: redirects are followed here, never by PHP: the key goes only while every hop so far stayed on the
    // service's own origin (a separate stream host gets the sealed URL alone), and each hop must be a stream URL.
    $withKey = askbox_origin((array) parse_url($url)) === $c['upstreamOrigin'];
    $asked = microtime(true);
    for ($hops = 0; ; $hops++) {
        $opened = askbox_open($c, 'GET', $url, null, $t['connectMs'], $withKey, 'text/event-stream');
        if (!is_array($opened)) return askbox_forward(askbox_metric_upstream($asked, $opened));
        [$fp, $status, $headers] = $opened;
        if (!in_array($status, [301, 302, 303, 307, 308], true)) break;
        fclose($fp);
        $next = isset($headers['location']) ? askbox_stream_url($c, $headers['location'], $url) : null;
        if ($next === null || $hops >= ASKBOX_MAX_STREAM_HOPS) return askbox_refuse('noStream');
        $withKey = $withKey && askbox_origin((array) parse_url($next)) === $c['upstreamOrigin'];
        $url = $next;
    }
    askbox_metric_upstream($asked, ['status' => $status]);
    if ($status !== 200) return askbox_forward(askbox_answer($status, $headers, askbox_read_all($fp, $t['idleMs'])));
    while (ob_get_level() > 0) ob_end_flush();
    askbox_headers(200, ['Content-Type' => 'text/event-stream; charset=utf-8', 'X-Accel-Buffering' => 'no']);
    flush();
    // A stream open now, and -1 on the request's own line when it ends: their sum is the streams open.
    askbox_metrics_line($c, ['event' => 'askbox.proxy.stream', 'askbox.proxy.streams.open' => 1]);
    // Polls in 50 ms steps, so the deadlines hold without an extension: first byte, silence, whole stream.
    stream_set_timeout($fp, 0, 50000);
    $start = $last = microtime(true);
    $first = true;
    while (true) {
        $chunk = fread($fp, 8192);
        $now = microtime(true);
        if ($chunk !== false && $chunk !== '') {
            echo $chunk;
            flush();
            $last = $now;
            if ($first) askbox_metric('askbox.proxy.stream.first_byte', askbox_metric_since());
            $first = false;
            if (connection_aborted()) break;
            continue;
        }
        // fread answers false when its 50 ms pass in silence; only the end of the body or a real error stops here.
        $meta = stream_get_meta_data($fp);
        if ($meta['eof'] || ($chunk === false && !$meta['timed_out'])) break;
        $silence = ($first ? $t['firstByteMs'] : $t['idleMs']) / 1000;
        if ($now - $last >= $silence || $now - $start >= $t['maxStreamMs'] / 1000) {
            askbox_log($c, ['level' => 'warn', 'event' => 'upstream', 'message' => 'Upstream stream cut: ' . ($now - $start >= $t['maxStreamMs'] / 1000 ? 'maximum duration' : 'silence') . '.']);
            break;
        }
    }
    fclose($fp);
    askbox_metric('askbox.proxy.stream.duration', askbox_metric_since());
    askbox_metric('askbox.proxy.streams.open', -1);
    return 200;
}

// Upstream I/O: calls to the Cody API with the key, within deadlines and size caps, and their answers passed on.

/** One upstream JSON call with the key: its status, headers and body, or 'timeout' / 'unreachable'. */
function askbox_upstream(array $c, string $method, string $path, ?array $body, int $deadlineMs): array|string
{
    $asked = microtime(true);
    $opened = askbox_open($c, $method, $c['upstream'] . $path, $body, $deadlineMs, true, 'application/json');
    if (!is_array($opened)) return askbox_metric_upstream($asked, $opened);
    [$fp, $status, $headers] = $opened;
    return askbox_metric_upstream($asked, askbox_answer($status, $headers, askbox_read_all($fp, $c['timeouts']['idleMs'])));
}

/** An upstream answer from its parts, or 'timeout' / 'too large' when its body could not be read whole. */
function askbox_answer(int $status, array $headers, ?string $text): array|string
{
    if ($text === null) return 'timeout';
    return strlen($text) > ASKBOX_MAX_UPSTREAM_JSON ? 'too large' : ['status' => $status, 'headers' => $headers, 'body' => $text];
}

/** Opens an upstream HTTP stream within `$deadlineMs` to its headers: [handle, status, lower-cased headers]. */
function askbox_open(array $c, string $method, string $url, ?array $body, int $deadlineMs, bool $withKey, string $accept): array|string
{
    $header = "Accept: $accept\r\n" . ($withKey ? "Authorization: Bearer {$c['apiKey']}\r\n" : '') . ($body === null ? '' : "Content-Type: application/json\r\n");
    $context = stream_context_create(['http' => [
        'method' => $method, 'header' => $header, 'content' => $body === null ? '' : json_encode($body, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE),
        'timeout' => $deadlineMs / 1000, 'ignore_errors' => true, 'follow_location' => 0, 'protocol_version' => 1.0,
    ]]);
    $started = microtime(true);
    $fp = @fopen($url, 'rb', false, $context);
    if ($fp === false) {
        $late = (microtime(true) - $started) * 1000 >= $deadlineMs * 0.9;
        // SECURITY: PHP's message quotes the URL, and a stream URL is a bearer capability: only origins are logged.
        $reason = preg_replace('#(https?://[^/\s)]+)[^\s)]*#i', '$1', error_get_last()['message'] ?? 'fopen failed');
        askbox_log($c, ['level' => 'error', 'event' => 'upstream', 'message' => $reason]);
        return $late ? 'timeout' : 'unreachable';
    }
    $status = 0;
    $headers = [];
    foreach (stream_get_meta_data($fp)['wrapper_data'] ?? [] as $line) {
        if (preg_match('#^HTTP/\S+ (\d{3})#', (string) $line, $m)) [$status, $headers] = [(int) $m[1], []];
        elseif (str_contains((string) $line, ':')) {
            [$name, $value] = explode(':', (string) $line, 2);
            $headers[strtolower(trim($name))] = trim($value);
        }
    }
    return [$fp, $status, $headers];
}

/** The rest of a body up to one byte past the cap, or null when it goes silent for `$idleMs`. */
function askbox_read_all($fp, int $idleMs): ?string
{
    stream_set_timeout($fp, intdiv($idleMs, 1000), ($idleMs % 1000) * 1000);
    $text = stream_get_contents($fp, ASKBOX_MAX_UPSTREAM_JSON + 1);
    $late = stream_get_meta_data($fp)['timed_out'];
    fclose($fp);
    return $text === false || $late ? null : $text;
}

/** Passes an upstream answer on: status and JSON body, no upstream header but the type; failures in the envelope. */
function askbox_forward(array|string $answer): int
{
    if ($answer === 'timeout') return askbox_refuse('timeout');
    if ($answer === 'too large') return askbox_refuse('unexpectedAnswer');
    if (is_string($answer)) return askbox_refuse('unreachable');
    // The service's own wait comes along with its 429 or 503, whole seconds only.
    $wait = $answer['headers']['retry-after'] ?? '';
    $retry = in_array($answer['status'], [429, 503], true) && preg_match('/^\d{1,6}$/', $wait) ? ['Retry-After' => $wait] : [];
    $type = $answer['headers']['content-type'] ?? '';
    $ok = $answer['status'] >= 200 && $answer['status'] < 300;
    // The service's own refusal (its 402 quota, a 429): counted under its status.
    if (!$ok) askbox_metric_refusal(['askbox.refusal.reason' => 'upstreamFailed']);
    if (!str_contains($type, 'json')) {
        return $ok ? askbox_refuse('unexpectedAnswer') : askbox_send($answer['status'], ['message' => ASKBOX_CONTRACT['refusals']['upstreamFailed']['message']], $retry);
    }
    askbox_headers($answer['status'], ['Content-Type' => $type] + $retry);
    echo $answer['body'];
    return $answer['status'];
}

// The abuse limits and their store: token buckets in one SQLite database shared by every PHP worker, and the
// stream tokens already spent.

/** Takes one token from every bucket of the action, or answers 429 with Retry-After; null when it may proceed. */
function askbox_limit(array $c, string $action, ?string $visitor): ?int
{
    $l = $c['limits'];
    if ($l === false) return null;
    $wait = askbox_take(askbox_db($c), askbox_limit_checks($l, $action, askbox_client_ip($c), $visitor), askbox_now_ms());
    if ($wait <= 0) return null;
    $seconds = max(1, (int) ceil($wait / 1000));
    $noun = ASKBOX_CONTRACT['limitNouns'][$action];
    askbox_metric_refusal(['askbox.refusal.reason' => 'limit', 'askbox.limit.action' => $action]);
    return askbox_send(429, ['message' => str_replace(['{noun}', '{seconds}'], [$noun, (string) $seconds], ASKBOX_CONTRACT['limitMessage'])], ['Retry-After' => (string) $seconds]);
}

/**
 * The buckets an action takes from, by the contract's LIMIT_BUCKETS: [key, capacity, tokens per second] each; the
 * daily caps refill over 24 hours. A visitor bucket is skipped without a visitor: one bucket shared by every
 * visitor-less request would let one client starve every new visitor of the site.
 */
function askbox_limit_checks(array $l, string $action, string $ip, ?string $visitor): array
{
    $checks = [];
    foreach (ASKBOX_CONTRACT['limitBuckets'][$action] as ['limit' => $name, 'subject' => $subject, 'refill' => $refill]) {
        if ($subject === 'visitor' && $visitor === null) continue;
        $key = str_replace('{' . $subject . '}', $subject === 'ip' ? $ip : $visitor, ASKBOX_CONTRACT['bucketKeys'][$name]);
        $checks[] = $refill === 'day' ? [$key, (float) $l[$name], $l[$name] / 86400] : [$key, (float) $l[$name]['burst'], $l[$name]['perMinute'] / 60];
    }
    return $checks;
}

/** The limit store cannot answer: the proxy cannot tell whether a request is within its limits. */
final class AskboxLimitStoreError extends RuntimeException
{
}

/**
 * The store: one SQLite database (PDO, WAL, a busy deadline) in `storeDir`, shared by every PHP worker of the site.
 * SECURITY: it holds visitors' IP addresses, so the folder is made 0700 and the file 0600, and the default folder
 * is outside the system's temporary folder. Every failure is an AskboxLimitStoreError.
 */
function askbox_db(array $c): PDO
{
    static $open = [];
    return $open[$c['storeDir']] ??= askbox_db_open($c['storeDir']);
}

/**
 * Opens (and on first use creates) the store in `$dir`. Each PHP worker keeps one persistent connection to it:
 * opening SQLite, and checkpointing its WAL when the last connection closes, cost 1.1 ms of the 1.3 ms a request
 * spent on the store. The connection is named after the file's device and inode, so a file replaced under a
 * running site is opened afresh, never written through a stale handle.
 */
function askbox_db_open(string $dir): PDO
{
    if (!class_exists('PDO') || !in_array('sqlite', PDO::getAvailableDrivers(), true)) throw new AskboxLimitStoreError('PDO SQLite is missing: install php-sqlite3 (pdo_sqlite).');
    if (!is_dir($dir) && !@mkdir($dir, 0700, true) && !is_dir($dir)) throw new AskboxLimitStoreError("The store folder $dir cannot be created (storeDir).");
    $file = $dir . '/askbox-store.sqlite';
    if (!is_file($file)) {
        $mask = umask(0077);
        $fp = @fopen($file, 'x');
        umask($mask);
        if ($fp !== false) fclose($fp);
    }
    $stat = @stat($file);
    if ($stat === false) throw new AskboxLimitStoreError("The store $file cannot be made.");
    if (($stat['mode'] & 0077) !== 0) @chmod($file, 0600);
    try {
        $db = new PDO('sqlite:' . $file, null, null, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION, PDO::ATTR_PERSISTENT => "askbox:{$stat['dev']}:{$stat['ino']}"]);
        // A connection this worker has set up already: synchronous = NORMAL is its set-up's last step.
        if ((int) $db->query('PRAGMA synchronous')->fetchColumn() === 1) return $db;
        $db->exec('PRAGMA busy_timeout = ' . ASKBOX_STORE_WAIT_MS);
        // 2: people's conversations (people.php) beside the buckets; a version 1 store gains their tables.
        if ((int) $db->query('PRAGMA user_version')->fetchColumn() !== 2) {
            // 1 KiB pages: a take rewrites a few scattered rows, and each one costs its page in the WAL.
            $db->exec('PRAGMA page_size = 1024');
            $db->exec('PRAGMA journal_mode = WAL');
            $db->exec('BEGIN IMMEDIATE');
            $db->exec('CREATE TABLE IF NOT EXISTS buckets (k TEXT PRIMARY KEY, t REAL NOT NULL, a INTEGER NOT NULL, e INTEGER NOT NULL) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS buckets_e ON buckets (e);
                CREATE TABLE IF NOT EXISTS spent (k TEXT PRIMARY KEY, e INTEGER NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER NOT NULL) WITHOUT ROWID;
                INSERT OR IGNORE INTO meta VALUES (\'buckets\', 0);
                CREATE TABLE IF NOT EXISTS conversations (p TEXT NOT NULL, id TEXT NOT NULL, bot TEXT NOT NULL, name TEXT NOT NULL, created TEXT NOT NULL, UNIQUE (p, id));
                CREATE TABLE IF NOT EXISTS people (p TEXT PRIMARY KEY, used INTEGER NOT NULL) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS people_used ON people (used);
                PRAGMA user_version = 2;');
            $db->exec('COMMIT');
        }
        // askbox_db_begin waits for the write lock itself; nothing else here waits on another worker (WAL).
        $db->exec('PRAGMA busy_timeout = 0');
        // WAL: a reader never waits for the writer; NORMAL: a power cut may lose the last takes, never corrupt.
        $db->exec('PRAGMA synchronous = NORMAL');
    } catch (PDOException $error) {
        throw new AskboxLimitStoreError("The store $file cannot be used: " . $error->getMessage(), 0, $error);
    }
    return $db;
}

/**
 * Takes the write lock within ASKBOX_STORE_WAIT_MS. SQLite's own busy handler sleeps 1, 2, 5, 10… 100 ms between
 * tries, so under 8 busy workers a waiter sleeps long after the lock is free (p99 of 200 ms measured); trying again
 * every 50 to 250 µs keeps the wait near the holder's sub-millisecond transaction.
 */
function askbox_db_begin(PDO $db): void
{
    $end = hrtime(true) + ASKBOX_STORE_WAIT_MS * 1000000;
    while (true) {
        try {
            $db->exec('BEGIN IMMEDIATE');
            return;
        } catch (PDOException $error) {
            // SQLITE_BUSY (5) is another worker's write: wait a little; anything else, or past the deadline, fails.
            if (($error->errorInfo[1] ?? null) !== 5 || hrtime(true) >= $end) throw $error;
            usleep(random_int(50, 250));
        }
    }
}

/**
 * Marks the connection whose transaction is open (null: none). A shutdown function rolls it back if the request
 * dies inside it (a timeout, exhausted memory): the persistent connection outlives the request, and an open
 * transaction on it would hold every other worker's writes until this worker's next request.
 */
function askbox_db_pending(?PDO $db): void
{
    static $pending = null, $armed = false;
    $pending = $db;
    if ($armed) return;
    $armed = true;
    register_shutdown_function(static function () use (&$pending): void {
        if ($pending === null) return;
        try {
            $pending->exec('ROLLBACK');
        } catch (PDOException) {
            // SQLite rolled back by itself already; there is nothing left to release.
        }
    });
}

/** Runs `$work` in one write transaction (BEGIN IMMEDIATE: no deadlock between two workers' upgrades). */
function askbox_db_write(PDO $db, callable $work): mixed
{
    try {
        askbox_db_begin($db);
        askbox_db_pending($db);
        try {
            $result = $work($db);
            $db->exec('COMMIT');
            return $result;
        } catch (Throwable $error) {
            try {
                $db->exec('ROLLBACK');
            } catch (PDOException) {
                // SQLite may have rolled back by itself (a full disk); the first error is the one to report.
            }
            throw $error;
        } finally {
            askbox_db_pending(null);
        }
    } catch (PDOException $error) {
        throw new AskboxLimitStoreError('The store cannot be written: ' . $error->getMessage(), 0, $error);
    }
}

/**
 * Takes one token from every bucket of `$checks` ([key, capacity, tokens per second] each), all or nothing, with
 * the JavaScript store's arithmetic; answers the wait in ms (0: taken). Buckets that would be full again are
 * dropped; beyond `$cap` buckets, those soonest full again go first (the lenient side, as the memory store).
 */
function askbox_take(PDO $db, array $checks, int $now, int $cap = ASKBOX_MAX_BUCKETS): int
{
    return askbox_db_write($db, static function (PDO $db) use ($checks, $now, $cap): int {
        // One read and one write for all the buckets: each statement costs more than the rows it touches.
        $keys = array_column($checks, 0);
        $read = $db->prepare('SELECT k, t, a FROM buckets WHERE k IN (' . implode(', ', array_fill(0, count($keys), '?')) . ')');
        $read->execute($keys);
        $states = [];
        foreach ($read->fetchAll(PDO::FETCH_NUM) as [$key, $tokens, $at]) $states[$key] = [(float) $tokens, (int) $at];
        $levels = [];
        $wait = 0;
        foreach ($checks as [$key, $capacity, $rate]) {
            $s = $states[$key] ?? null;
            $tokens = $s ? min($capacity, $s[0] + max(0, $now - $s[1]) / 1000 * $rate) : $capacity;
            $levels[$key] = $tokens;
            if ($tokens < 1) $wait = max($wait, (int) ceil((1 - $tokens) / $rate * 1000));
        }
        if ($wait > 0) return $wait;
        $rows = [];
        foreach ($checks as [$key, $capacity, $rate]) array_push($rows, $key, $levels[$key] - 1, $now, $now + (int) ceil($capacity / $rate * 1000));
        $db->prepare('INSERT INTO buckets (k, t, a, e) VALUES ' . implode(', ', array_fill(0, count($checks), '(?, ?, ?, ?)'))
            . ' ON CONFLICT (k) DO UPDATE SET t = excluded.t, a = excluded.a, e = excluded.e')->execute($rows);
        // Only a take that adds buckets grows the table, so only such a take sweeps out those full again.
        $change = count(array_diff_key(array_flip($keys), $states));
        if ($change === 0) return 0;
        $gone = $db->prepare('DELETE FROM buckets WHERE e <= ?');
        $gone->execute([$now]);
        $change -= $gone->rowCount();
        $count = (int) $db->query('SELECT v FROM meta WHERE k = \'buckets\'')->fetchColumn() + $change;
        if ($count > $cap) {
            $count -= $db->exec('DELETE FROM buckets WHERE k IN (SELECT k FROM buckets ORDER BY e LIMIT ' . ($count - $cap) . ')');
        }
        $db->prepare('UPDATE meta SET v = ? WHERE k = \'buckets\'')->execute([max(0, $count)]);
        return 0;
    });
}

/** Marks a stream token used until `$expires` (ms); false when it was used already (a replay). */
function askbox_spend(PDO $db, string $token, int $expires, int $now): bool
{
    return askbox_db_write($db, static function (PDO $db) use ($token, $expires, $now): bool {
        $db->prepare('DELETE FROM spent WHERE e <= ?')->execute([$now]);
        $mark = $db->prepare('INSERT OR IGNORE INTO spent (k, e) VALUES (?, ?)');
        $mark->execute([hash('sha256', $token), $expires]);
        return $mark->rowCount() === 1;
    });
}

// Proof of work: ALTCHA v2 challenges, made and checked as altcha-lib does.

/**
 * Proof of work (issue 22, item 5): ALTCHA v2 challenges, PBKDF2/SHA-256, exactly as altcha-lib makes and checks
 * them, so the widget's solver and the contract suite hold every runtime to one format.
 * The `proofOfWork` option: null when off; else both levels and the lifetime, within the contract's ranges.
 */
function askbox_pow_config(mixed $option, callable $fail): ?array
{
    if ($option === null || $option === false) return null;
    if ($option === true) $option = [];
    if (!is_array($option)) $fail('proofOfWork must be true or an object');
    $p = ASKBOX_CONTRACT['proofOfWork'];
    $whole = static function (string $name, int $default, array $range) use ($option, $fail): int {
        $value = $option[$name] ?? $default;
        if (!is_int($value) || $value < $range['min'] || $value > $range['max']) $fail("proofOfWork.$name must be a whole number from {$range['min']} to {$range['max']}");
        return $value;
    };
    return [
        'normal' => ['cost' => $whole('cost', $p['normal']['cost'], $p['costRange']), 'prefixLength' => $whole('prefixLength', $p['normal']['prefixLength'], $p['prefixLengthRange'])],
        'raised' => ['cost' => $whole('raisedCost', $p['raised']['cost'], $p['costRange']), 'prefixLength' => $whole('raisedPrefixLength', $p['raised']['prefixLength'], $p['prefixLengthRange'])],
        'ttl' => $whole('ttlSeconds', $p['ttlSeconds']['default'], $p['ttlSeconds']),
    ];
}

/** HMAC-SHA-256(secret, 'askbox-pow') in hex. SECURITY: challenges are signed with this, never the secret itself. */
function askbox_pow_key(string $secret): string
{
    return hash_hmac('sha256', ASKBOX_CONTRACT['proofOfWork']['keyLabel'], $secret);
}

/** What altcha-lib signs: the parameters as JSON with sorted keys (its canonicalJSON: no escaped slashes). */
function askbox_pow_signature(array $parameters, string $secret): string
{
    ksort($parameters, SORT_STRING);
    return hash_hmac('sha256', json_encode($parameters, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR), askbox_pow_key($secret));
}

/**
 * `GET challenge`: a new challenge, raised past this IP's (or visitor's) soft bucket. While proof of work is off, a
 * 204: nothing to solve (a 404 would be printed on the page's console as a failed load).
 */
function askbox_pow_challenge(array $c): int
{
    $pow = $c['proofOfWork'];
    if ($pow === null) return askbox_send(204, null);
    $p = ASKBOX_CONTRACT['proofOfWork'];
    $keys = ASKBOX_CONTRACT['bucketKeys'];
    // A soft bucket: emptying it raises the cost, it never refuses.
    $soft = static fn (string $key, array $r) => [$key, (float) $r['burst'], $r['perMinute'] / 60];
    $checks = [$soft(str_replace('{ip}', askbox_client_ip($c), $keys['challengeIp']), $p['ipChallenges'])];
    $visitor = askbox_visitor($c);
    if ($visitor !== null) $checks[] = $soft(str_replace('{visitor}', $visitor, $keys['challengeVisitor']), $p['visitorChallenges']);
    $level = askbox_take(askbox_db($c), $checks, askbox_now_ms()) > 0 ? $pow['raised'] : $pow['normal'];
    $parameters = [
        'algorithm' => $p['algorithm'],
        'cost' => $level['cost'],
        'expiresAt' => intdiv(askbox_now_ms(), 1000) + $pow['ttl'],
        'keyLength' => $p['keyLength'],
        'keyPrefix' => str_repeat('0', $level['prefixLength']),
        'nonce' => bin2hex(random_bytes(16)),
        'salt' => bin2hex(random_bytes(16)),
    ];
    return askbox_send(200, ['data' => ['parameters' => $parameters, 'signature' => askbox_pow_signature($parameters, $c['secrets'][0])]]);
}

/**
 * Null when `$proof` is a solved challenge of ours, unexpired and never used (it is used now); else the 428 sent.
 * Rebuilt from checked fields only, so anything added fails the signature. Runs after the conversation limits,
 * which bound the key derivations a client can cause.
 */
function askbox_pow_check(array $c, mixed $proof): ?int
{
    if ($c['proofOfWork'] === null) return null;
    $p = ASKBOX_CONTRACT['proofOfWork'];
    // The body's objects, as json_decode makes them: a field is read only from an object that has it.
    $get = static fn (mixed $object, string $field) => $object instanceof stdClass && property_exists($object, $field) ? $object->$field : null;
    $challenge = $get($proof, 'challenge');
    $given = $get($challenge, 'parameters');
    $solution = $get($proof, 'solution');
    $hex = static fn (mixed $v, int $bytes) => is_string($v) && preg_match('/^[0-9a-f]{' . (2 * $bytes) . '}$/D', $v) === 1;
    $signature = $get($challenge, 'signature');
    $cost = $get($given, 'cost');
    $expires = $get($given, 'expiresAt');
    $prefix = $get($given, 'keyPrefix');
    $nonce = $get($given, 'nonce');
    $salt = $get($given, 'salt');
    $counter = $get($solution, 'counter');
    $key = $get($solution, 'derivedKey');
    $now = askbox_now_ms();
    $valid = $get($given, 'algorithm') === $p['algorithm'] && $get($given, 'keyLength') === $p['keyLength']
        && $hex($signature, 32) && $hex($nonce, 16) && $hex($salt, 16)
        && is_int($cost) && $cost >= $p['costRange']['min'] && $cost <= $p['costRange']['max']
        && is_string($prefix) && preg_match('/^0{1,' . $p['prefixLengthRange']['max'] . '}$/D', $prefix) === 1
        && is_int($expires) && $expires * 1000 > $now
        && is_int($counter) && $counter >= 0 && $counter <= 0xffffffff && $hex($key, 32);
    if (!$valid) return askbox_refuse('proofRequired');
    $parameters = ['algorithm' => $p['algorithm'], 'cost' => $cost, 'expiresAt' => $expires, 'keyLength' => $p['keyLength'],
        'keyPrefix' => $prefix, 'nonce' => $nonce, 'salt' => $salt];
    // A retired secret still verifies (the first signs), so a rotation does not fail the challenges being solved.
    $ours = array_filter($c['secrets'], static fn (string $secret) => hash_equals(askbox_pow_signature($parameters, $secret), $signature));
    if (!$ours) return askbox_refuse('proofRequired');
    // The work, checked with one derivation: PBKDF2 of nonce ‖ counter (4 bytes, big-endian) with the salt.
    $derived = bin2hex(hash_pbkdf2('sha256', hex2bin($nonce) . pack('N', $counter), hex2bin($salt), $cost, 32, true));
    if (!hash_equals($derived, $key) || !str_starts_with($derived, $prefix)) return askbox_refuse('proofRequired');
    // SECURITY: one solved challenge, one conversation; its nonce is remembered as long as it could be used.
    $claim = str_replace('{id}', $nonce, ASKBOX_CONTRACT['bucketKeys']['proofClaim']);
    return askbox_spend(askbox_db($c), $claim, $expires * 1000, $now) ? null : askbox_refuse('proofRequired');
}

// Reading the request: the client's IP, and a JSON body within its type, time, size and depth limits.

/** The client's IP: REMOTE_ADDR, or a header only when configured (anyone can send one). */
function askbox_client_ip(array $c): string
{
    $socket = (string) ($_SERVER['REMOTE_ADDR'] ?? 'unknown');
    $source = $c['clientIp'];
    if (!is_array($source)) return $socket;
    $value = trim((string) ($_SERVER['HTTP_' . strtoupper(str_replace('-', '_', (string) ($source['header'] ?? '')))] ?? ''));
    if ($value === '') return $socket;
    if (($source['header'] ?? '') === 'cf-connecting-ip') return $value;
    // SECURITY: each trusted proxy appends the address it saw; whatever lies further left the client wrote itself.
    $hops = array_map('trim', explode(',', $value));
    $hop = $hops[count($hops) - max(1, (int) ($source['trustedHops'] ?? 1))] ?? '';
    return $hop !== '' ? $hop : $socket;
}

/**
 * A JSON object body: application/json (415), read whole within `timeouts.bodyMs` (408), at most 64 KiB (413),
 * flat (400), an object (400); else the status sent. `$input` is the body's stream (php://input by default).
 */
function askbox_read_json(array $c, $input = null): array|int
{
    if (!preg_match('#^application/json\s*(;|$)#i', (string) ($_SERVER['CONTENT_TYPE'] ?? ''))) return askbox_refuse('unsupportedType');
    if ((int) ($_SERVER['CONTENT_LENGTH'] ?? 0) > ASKBOX_MAX_BODY) return askbox_refuse('bodyTooLarge');
    $text = askbox_read_body($input ?? fopen('php://input', 'rb'), (int) $c['timeouts']['bodyMs']);
    if ($text === null) return askbox_refuse('bodyTimeout');
    if (strlen($text) > ASKBOX_MAX_BODY) return askbox_refuse('bodyTooLarge');
    if (askbox_json_depth($text) > ASKBOX_MAX_DEPTH) return askbox_refuse('tooDeep');
    $body = json_decode($text);
    if (!$body instanceof stdClass) return askbox_refuse('notAnObject');
    return get_object_vars($body);
}

/**
 * The body, up to one byte past the cap, or null when it is not all there within `$deadlineMs`. Where the stream can
 * be polled (a socket, a pipe) the deadline holds even while the client sends nothing; php://input cannot be, so
 * there it is checked between reads (php-fpm and php -S have the whole body before the script runs).
 */
function askbox_read_body($input, int $deadlineMs): ?string
{
    $end = microtime(true) + $deadlineMs / 1000;
    // php://input cannot be polled (stream_select refuses it); sockets and pipes can.
    $pollable = (stream_get_meta_data($input)['wrapper_type'] ?? '') !== 'PHP' && @stream_set_blocking($input, false);
    $text = '';
    while (!feof($input) && strlen($text) <= ASKBOX_MAX_BODY) {
        $left = $end - microtime(true);
        if ($left <= 0) return null;
        if ($pollable) {
            $read = [$input];
            $none = null;
            $ready = @stream_select($read, $none, $none, (int) $left, (int) (fmod($left, 1) * 1e6));
            if ($ready === 0) continue;
        }
        $chunk = fread($input, 8192);
        if ($chunk === false) break;
        $text .= $chunk;
    }
    return microtime(true) > $end ? null : $text;
}

/** The deepest nesting of brackets outside strings, found without parsing. */
function askbox_json_depth(string $text): int
{
    $depth = $deepest = 0;
    $inString = false;
    for ($i = 0, $n = strlen($text); $i < $n; $i++) {
        $ch = $text[$i];
        if ($inString) {
            if ($ch === '\\') $i++;
            elseif ($ch === '"') $inString = false;
        } elseif ($ch === '"') $inString = true;
        elseif ($ch === '{' || $ch === '[') $deepest = max($deepest, ++$depth);
        elseif ($ch === '}' || $ch === ']') $depth--;
    }
    return $deepest;
}

// Grants and sealing: the visitor's signed grant to a conversation, the sealed stream token, and what both are
// made of (the clock in milliseconds, base64url).

function askbox_grant_header(): ?string
{
    $value = $_SERVER['HTTP_X_ASKBOX_GRANT'] ?? null;
    return is_string($value) ? $value : null;
}

/** Signs a grant with the first secret. */
function askbox_grant_sign(array $c, string $conversation, string $bot, string $visitor): string
{
    $payload = implode('.', ['g1', $conversation, $bot, $visitor, (string) (intdiv(askbox_now_ms(), 1000) + $c['grantTtl'])]);
    return $payload . '.' . askbox_b64url(hash_hmac('sha256', $payload, $c['secrets'][0], true));
}

/** What a grant says, when it is well formed, signed by one of the secrets and not expired; else null. */
function askbox_grant_verify(array $c, ?string $token): ?array
{
    $parts = $token === null ? [] : explode('.', $token);
    if (count($parts) !== 6 || $parts[0] !== 'g1') return null;
    foreach (array_slice($parts, 1) as $part) if (!preg_match(ASKBOX_ID, $part)) return null;
    [, $conversation, $bot, $visitor, $expiry, $signature] = $parts;
    if (!preg_match('/^\d{1,12}$/', $expiry) || (int) $expiry * 1000 <= askbox_now_ms()) return null;
    $mac = askbox_b64url_decode($signature);
    if ($mac === null) return null;
    $payload = implode('.', array_slice($parts, 0, 5));
    foreach ($c['secrets'] as $secret) {
        if (hash_equals(hash_hmac('sha256', $payload, $secret, true), $mac)) return ['conversationId' => $conversation, 'botId' => $bot, 'visitorId' => $visitor];
    }
    return null;
}

/** The request's grant when it is valid for this conversation and one of our bots, and this visitor may hold it. */
function askbox_grant_for(array $c, mixed $conversation): ?array
{
    $grant = askbox_grant_verify($c, askbox_grant_header());
    return $grant !== null && $grant['conversationId'] === $conversation && in_array($grant['botId'], $c['bots'], true) && askbox_grant_holder($c, $grant['visitorId']) ? $grant : null;
}

/** Seals a stream URL and its conversation (AES-256-GCM, the same layout as the JavaScript sealer). */
function askbox_seal(array $c, string $url, string $conversation): string
{
    $iv = random_bytes(12);
    $tag = '';
    $plain = json_encode(['u' => $url, 'c' => $conversation, 'e' => askbox_now_ms() + $c['streamTtlMs']], JSON_UNESCAPED_SLASHES);
    $sealed = openssl_encrypt($plain, 'aes-256-gcm', hash('sha256', 'askbox:stream:' . $c['secrets'][0], true), OPENSSL_RAW_DATA, $iv, $tag, '', 16);
    return askbox_b64url($iv . $sealed . $tag);
}

/** The sealed stream ['u' => url, 'c' => conversation], or null when forged, altered or expired. */
function askbox_unseal(array $c, string $token): ?array
{
    $bytes = askbox_b64url_decode($token);
    if ($bytes === null || strlen($bytes) < 29) return null;
    foreach ($c['secrets'] as $secret) {
        $plain = openssl_decrypt(substr($bytes, 12, -16), 'aes-256-gcm', hash('sha256', 'askbox:stream:' . $secret, true), OPENSSL_RAW_DATA, substr($bytes, 0, 12), substr($bytes, -16));
        if ($plain === false) continue;
        $p = json_decode($plain, true);
        return is_string($p['u'] ?? null) && is_string($p['c'] ?? null) && is_int($p['e'] ?? null) && $p['e'] > askbox_now_ms() ? $p : null;
    }
    return null;
}

function askbox_now_ms(): int
{
    return (int) floor(microtime(true) * 1000);
}

function askbox_b64url(string $bytes): string
{
    return rtrim(strtr(base64_encode($bytes), '+/', '-_'), '=');
}

function askbox_b64url_decode(string $text): ?string
{
    if (!preg_match('/^[A-Za-z0-9_-]{1,4096}$/', $text) || strlen($text) % 4 === 1) return null;
    $bytes = base64_decode(strtr($text, '-_', '+/'), true);
    return $bytes === false ? null : $bytes;
}

// Signed-in visitors (the contract's IDENTITY): the person's id and its hash as the site's server signed them, the
// person key their conversations, grants and limits go by, and the rule that binds a person's grant to them.

/** The identity settings: `identitySecret` (else ASKBOX_IDENTITY_SECRET; none: every identity is refused) and `people`. */
function askbox_identity_config(array $o): array
{
    $secret = array_key_exists('identitySecret', $o) ? $o['identitySecret'] : getenv('ASKBOX_IDENTITY_SECRET');
    $secret = in_array($secret, [null, false, ''], true) ? null : $secret;
    $min = ASKBOX_CONTRACT['secretMinLength'];
    if ($secret !== null && (!is_string($secret) || strlen($secret) < $min)) throw new InvalidArgumentException("identitySecret must be a string of at least $min characters");
    $people = $o['people'] ?? null;
    if ($people !== null && !$people instanceof AskboxPeople) throw new InvalidArgumentException('people must be an AskboxPeople store');
    return ['identitySecret' => $secret, 'people' => $people];
}

/**
 * A request header by its wire name, as PHP files it (`x-askbox-user` is HTTP_X_ASKBOX_USER); null when absent or
 * empty (workerd drops an empty header before the proxy sees it, so every runtime does alike).
 */
function askbox_request_header(string $name): ?string
{
    $value = $_SERVER['HTTP_' . strtoupper(str_replace('-', '_', $name))] ?? null;
    return is_string($value) && $value !== '' ? $value : null;
}

/**
 * Who signed in: null without either identity header (anonymous, as ever), the person key when both headers are
 * there, well formed and signed with the identity secret, else the 403 sent (never a 5xx). SECURITY: the hash is
 * compared in constant time; without an identity secret no identity is taken, and the log says which setting is missing.
 */
function askbox_identity(array $c): string|int|null
{
    $id = askbox_request_header(ASKBOX_CONTRACT['identity']['userHeader']);
    $hash = askbox_request_header(ASKBOX_CONTRACT['identity']['hashHeader']);
    if ($id === null && $hash === null) return null;
    $secret = $c['identitySecret'];
    if ($secret === null) {
        askbox_log($c, ['level' => 'error', 'event' => 'identity', 'message' => 'A signed-in visitor was refused: no identity secret is set (identitySecret, or ASKBOX_IDENTITY_SECRET).']);
        return askbox_refuse('identityRefused');
    }
    $formed = $id !== null && $hash !== null && preg_match('~' . ASKBOX_CONTRACT['identity']['userIdPattern'] . '~D', $id)
        && preg_match('~' . ASKBOX_CONTRACT['identity']['hashPattern'] . '~D', $hash);
    if (!$formed || !hash_equals(hash_hmac('sha256', $id, $secret), $hash)) return askbox_refuse('identityRefused');
    return askbox_person_key($secret, $id);
}

/** The key a person goes by: `u-` and the first 40 hex digits of HMAC-SHA256(secret, personLabel + id). */
function askbox_person_key(string $secret, string $id): string
{
    return 'u-' . substr(hash_hmac('sha256', ASKBOX_CONTRACT['identity']['personLabel'] . $id, $secret), 0, 40);
}

/**
 * Whether a grant's visitor may use it on this request. SECURITY: a person's grant (its visitor a person key) goes
 * only with that person's verified identity, so another person's grant, or one's own replayed after logout, finds
 * nothing, as another visitor's grant does; an anonymous visitor's grant stays usable signed in or not.
 */
function askbox_grant_holder(array $c, string $visitor): bool
{
    return !preg_match('~' . ASKBOX_CONTRACT['identity']['personKeyPattern'] . '~D', $visitor) || $visitor === ($c['person'] ?? null);
}

/** `GET conversations`: the signed-in person's conversations, newest first, each with a fresh grant. */
function askbox_list_conversations(array $c): int
{
    $person = $c['person'] ?? null;
    if ($person === null) return askbox_refuse('identityRequired');
    $refused = askbox_limit($c, 'action', $person);
    if ($refused !== null) return $refused;
    $list = [];
    foreach (askbox_people($c)->list($person) as $conversation) {
        $list[] = $conversation + ['grant' => askbox_grant_sign($c, $conversation['id'], $conversation['bot_id'], $person)];
    }
    return askbox_send(200, ['data' => $list, 'meta' => new stdClass()]);
}

/** The store of people's conversations: the `people` setting, else the SQLite one beside the buckets. */
function askbox_people(array $c): AskboxPeople
{
    return $c['people'] ?? new AskboxSqlitePeople($c);
}

/** The visitor a request comes from: the signed-in person, else the visitor of a grant it may hold, else null. */
function askbox_visitor(array $c): ?string
{
    $visitor = askbox_grant_verify($c, askbox_grant_header())['visitorId'] ?? null;
    return $c['person'] ?? ($visitor !== null && askbox_grant_holder($c, $visitor) ? $visitor : null);
}

/** The visitor a granted action counts against: the signed-in person, else the grant's visitor (as in policy.ts). */
function askbox_counted_as(array $c, array $grant): string
{
    return $c['person'] ?? $grant['visitorId'];
}

/**
 * What a person's list keeps of a conversation the service made: `{ id, bot_id, name, created_at }`, created_at as an
 * ISO string (the service's Unix seconds, else now), as JavaScript's toISOString() writes it.
 */
function askbox_listed(stdClass $data, string $bot): array
{
    $name = is_string($data->name ?? null) ? $data->name : '';
    $seconds = is_int($data->created_at ?? null) ? $data->created_at : intdiv(askbox_now_ms(), 1000);
    return ['id' => $data->id, 'bot_id' => $bot, 'name' => $name, 'created_at' => gmdate('Y-m-d\TH:i:s.000\Z', $seconds)];
}

// Signed-in people's conversations: the store's interface (the WordPress plugin brings its own table), and the
// SQLite store in the limits' database, bounded by the contract.

/** A store of each person's conversations. Every failure throws AskboxStoreError (503 busy, one log line). */
interface AskboxPeople
{
    /** Puts `{ id, bot_id, name, created_at }` first in the person's list (once), keeping the newest conversationsMax. */
    public function add(string $person, array $conversation): void;

    /** The person's conversations, newest first: `{ id, bot_id, name, created_at }` each. */
    public function list(string $person): array;

    /** Takes the conversation out of the person's list. */
    public function remove(string $person, string $id): void;
}

/** A store of people's conversations cannot answer: the proxy cannot tell what a person holds (event `people`). */
final class AskboxStoreError extends RuntimeException
{
}

/**
 * People's conversations in the limits' SQLite database (`conversations`, and `people` with when each was last
 * used): at most conversationsMax a person, at most STORE_SIZES.people people, the least recently used going first,
 * and a person unused for a grant's lifetime forgotten (their grants have all expired).
 */
final class AskboxSqlitePeople implements AskboxPeople
{
    public function __construct(private readonly array $c)
    {
    }

    public function add(string $person, array $conversation): void
    {
        $this->write(function (PDO $db, int $now) use ($person, $conversation): void {
            $db->prepare('INSERT OR IGNORE INTO conversations (p, id, bot, name, created) VALUES (?, ?, ?, ?, ?)')
                ->execute([$person, $conversation['id'], $conversation['bot_id'], $conversation['name'], $conversation['created_at']]);
            $db->prepare('DELETE FROM conversations WHERE p = ? AND rowid NOT IN (SELECT rowid FROM conversations WHERE p = ? ORDER BY rowid DESC LIMIT ' . ASKBOX_CONTRACT['identity']['conversationsMax'] . ')')
                ->execute([$person, $person]);
            $touch = $db->prepare('UPDATE people SET used = ? WHERE p = ?');
            $touch->execute([$now, $person]);
            if ($touch->rowCount() === 1) return;
            // A new person: those whose grants have all expired go, then the least recently used beyond the bound.
            $db->prepare('INSERT INTO people (p, used) VALUES (?, ?)')->execute([$person, $now]);
            $expired = $db->prepare('SELECT p FROM people WHERE used <= ?');
            $expired->execute([$now - $this->c['grantTtl'] * 1000]);
            $gone = $expired->fetchAll(PDO::FETCH_COLUMN);
            $over = (int) $db->query('SELECT COUNT(*) FROM people')->fetchColumn() - count($gone) - ASKBOX_CONTRACT['storeSizes']['people'];
            if ($over > 0) array_push($gone, ...$db->query('SELECT p FROM people ORDER BY used LIMIT ' . $over)->fetchAll(PDO::FETCH_COLUMN));
            foreach (array_unique($gone) as $forgotten) {
                $db->prepare('DELETE FROM conversations WHERE p = ?')->execute([$forgotten]);
                $db->prepare('DELETE FROM people WHERE p = ?')->execute([$forgotten]);
            }
        });
    }

    public function list(string $person): array
    {
        return $this->write(function (PDO $db, int $now) use ($person): array {
            $db->prepare('UPDATE people SET used = ? WHERE p = ?')->execute([$now, $person]);
            $read = $db->prepare('SELECT id, name, bot, created FROM conversations WHERE p = ? ORDER BY rowid DESC');
            $read->execute([$person]);
            return array_map(static fn (array $row) => ['id' => $row[0], 'name' => $row[1], 'bot_id' => $row[2], 'created_at' => $row[3]], $read->fetchAll(PDO::FETCH_NUM));
        });
    }

    public function remove(string $person, string $id): void
    {
        $this->write(static function (PDO $db) use ($person, $id): void {
            $db->prepare('DELETE FROM conversations WHERE p = ? AND id = ?')->execute([$person, $id]);
        });
    }

    /** Runs `$work` in one write transaction of the store; any failure is an AskboxStoreError. */
    private function write(callable $work): mixed
    {
        try {
            return askbox_db_write(askbox_db($this->c), static fn (PDO $db) => $work($db, askbox_now_ms()));
        } catch (AskboxLimitStoreError $error) {
            throw new AskboxStoreError($error->getMessage(), 0, $error);
        }
    }
}

// Responses: the contract's refusals and validation messages in the service's envelope, the security and CORS
// headers, and the structured log line.

/** The service's 422 for several fields: the first message, "(and N more error[s])", every field's message. */
function askbox_invalid_all(array $errors): int
{
    $more = count($errors) - 1;
    $message = reset($errors) . ($more > 0 ? " (and $more more error" . ($more > 1 ? 's' : '') . ')' : '');
    askbox_metric_validation((string) key($errors), (string) reset($errors));
    return askbox_send(422, ['message' => $message, 'errors' => array_map(static fn ($m) => [$m], $errors)]);
}

function askbox_invalid(string $field, string $message): int
{
    askbox_metric_validation($field, $message);
    return askbox_send(422, ['message' => $message, 'errors' => [$field => [$message]]]);
}

/** One of the contract's refusals, sent in the service's envelope; `$headers` adds to it (Allow, Retry-After). */
function askbox_refuse(string $name, array $headers = []): int
{
    $refusal = ASKBOX_CONTRACT['refusals'][$name];
    askbox_metric_refusal(['askbox.refusal.reason' => $name]);
    return askbox_send($refusal['status'], ['message' => $refusal['message']], $headers);
}

/** A validation message of the contract, worded for `$field` as Laravel words it (`bot_id` reads "bot id"). */
function askbox_say(string $rule, string $field, ?int $max = null): string
{
    return str_replace(['{attribute}', '{max}'], [str_replace('_', ' ', $field), (string) $max], ASKBOX_CONTRACT['validation'][$rule]);
}

/** Sends a status, the security and CORS headers, and a JSON body when there is one. Returns the status. */
function askbox_send(int $status, mixed $body, array $headers = []): int
{
    askbox_headers($status, $body === null ? $headers : $headers + ['Content-Type' => 'application/json']);
    if ($body !== null) echo json_encode($body, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
    return $status;
}

function askbox_headers(int $status, array $headers): void
{
    header_remove('X-Powered-By');
    http_response_code($status);
    foreach ($headers + ASKBOX_BASE_HEADERS + ($GLOBALS['askbox_cors'] ?? []) + ['Vary' => 'Origin'] as $name => $value) header("$name: $value");
}

/** One structured log line; the key and the secrets are redacted from it. */
function askbox_log(array $c, array $entry): void
{
    if (isset($entry['message'])) $entry['message'] = str_replace(array_filter([$c['apiKey'], ...$c['secrets'], $c['identitySecret'] ?? null]), '[redacted]', $entry['message']);
    if (is_callable($c['log'])) ($c['log'])($entry);
    // Feedback is the site's data: without a `log` or `onFeedback` callable, the error log is where it can be read.
    elseif ($entry['level'] !== 'info' || $entry['event'] === 'feedback') error_log('[askbox] ' . json_encode($entry, JSON_UNESCAPED_SLASHES));
}

// Metrics: the request's one JSON line, named as the Node and Workers proxies name their OpenTelemetry instruments.

/**
 * The request's metrics line (`metricsLog`), named as the Node and Workers proxies name their OpenTelemetry
 * instruments and attributes (src/proxy/core/telemetry.ts): `askbox.proxy.requests` (1) by `http.request.method`,
 * `http.route` (the route template) and `http.response.status_code`; `askbox.proxy.refusals` (1) by
 * `askbox.refusal.reason` (the contract's name) and its details; `askbox.proxy.upstream.duration` (one
 * `{value: seconds, http.response.status_code | error.type}` per call to the service); and for a reply stream `askbox.proxy.stream.first_byte`, `askbox.proxy.stream.duration` and
 * `askbox.proxy.streams.open` (-1, its +1 written when the stream opened). SECURITY: no path, token, grant or id.
 */
function askbox_metrics_request(array $c, string $method, string $path, int $status): void
{
    $line = ['event' => 'askbox.proxy.request', 'http.request.method' => in_array($method, ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'], true) ? $method : '_OTHER'];
    $route = askbox_route_template($c['base'], $path);
    if ($route !== null) $line['http.route'] = $route;
    $line += ['http.response.status_code' => $status, 'askbox.proxy.requests' => 1];
    $metrics = $GLOBALS['askbox_metrics'] ?? [];
    if (isset($metrics['askbox.refusal.reason'])) $line['askbox.proxy.refusals'] = 1;
    askbox_metrics_line($c, $line + $metrics);
}

/** One metrics line to the error log, when `metricsLog` is on. */
function askbox_metrics_line(array $c, array $line): void
{
    if ($c['metricsLog'] === true) error_log('[askbox] ' . json_encode($line, JSON_UNESCAPED_SLASHES));
}

/** The route template `$path` falls under (`/askbox/stream/{token}`), as the routes are matched; null off them. */
function askbox_route_template(string $base, string $path): ?string
{
    if (!str_starts_with($path, $base . '/')) return null;
    $segments = array_values(array_filter(explode('/', substr($path, strlen($base))), 'strlen'));
    foreach (ASKBOX_CONTRACT['routes'] as $route) {
        $parts = explode('/', $route['path']);
        if (count($parts) !== count($segments)) continue;
        foreach ($parts as $i => $part) if ($part[0] !== '{' && $part !== $segments[$i]) continue 2;
        return $base . '/' . $route['path'];
    }
    return null;
}

/** Notes a measurement of this request for its metrics line. */
function askbox_metric(string $name, int|float|string $value): void
{
    $GLOBALS['askbox_metrics'][$name] = $value;
}

/** Notes why this request was refused (the first reason given stands: it is the one the visitor got). */
function askbox_metric_refusal(array $refusal): void
{
    $GLOBALS['askbox_metrics'] ??= [];
    if (!isset($GLOBALS['askbox_metrics']['askbox.refusal.reason'])) $GLOBALS['askbox_metrics'] += $refusal;
}

/** A validation refusal: its first field, and the contract rule whose wording its message is. */
function askbox_metric_validation(string $field, string $message): void
{
    $rules = array_filter(array_keys(ASKBOX_CONTRACT['validation']), static fn ($rule) => askbox_say($rule, $field, ASKBOX_MAX_CONTENT) === $message);
    askbox_metric_refusal(['askbox.refusal.reason' => 'validation', 'askbox.validation.field' => $field] + ($rules ? ['askbox.validation.rule' => reset($rules)] : []));
}

/** Notes a call to the service begun at `$asked` (microtime) and what it answered; returns that answer. */
function askbox_metric_upstream(float $asked, array|string $answer): array|string
{
    $GLOBALS['askbox_metrics']['askbox.proxy.upstream.duration'][] = ['value' => round(microtime(true) - $asked, 6)]
        + (is_array($answer) ? ['http.response.status_code' => $answer['status']] : ['error.type' => $answer]);
    return $answer;
}

/** Seconds since the request arrived. */
function askbox_metric_since(): float
{
    return round(microtime(true) - (float) ($_SERVER['REQUEST_TIME_FLOAT'] ?? microtime(true)), 6);
}

// Hosts and URLs: origins, the hosts the proxy serves, private networks, and the stream URLs it may fetch.

/** scheme://host[:port] of parsed URL parts. */
function askbox_origin(array $parts): string
{
    return strtolower((string) ($parts['scheme'] ?? '')) . '://' . askbox_host($parts);
}

/** host[:port] of parsed URL parts, as a URL's `host` reads (default ports left out). */
function askbox_host(array $parts): string
{
    $scheme = strtolower((string) ($parts['scheme'] ?? ''));
    $port = $parts['port'] ?? null;
    $default = ($scheme === 'https' && $port === 443) || ($scheme === 'http' && $port === 80);
    return strtolower((string) ($parts['host'] ?? '')) . ($port !== null && !$default ? ":$port" : '');
}

/** The Host header as URL parsing reads it: lowercase, without the default port of the connection's scheme. */
function askbox_request_host(): string
{
    $host = strtolower((string) ($_SERVER['HTTP_HOST'] ?? ''));
    $default = !empty($_SERVER['HTTPS']) && $_SERVER['HTTPS'] !== 'off' ? '443' : '80';
    return (string) preg_replace('/:0*' . $default . '$/', '', $host);
}

/**
 * Whether an Origin header names a page on `$self` (host[:port]): an origin as a browser serializes it (lowercase,
 * no default port, no path or userinfo) on that host, whatever its scheme (behind a TLS-terminating proxy the
 * proxy cannot know its own). SECURITY: `http://x@host` or `HTTP://HOST` is no page's origin, only a hand-made one.
 */
function askbox_same_host_origin(string $origin, string $self): bool
{
    $parts = parse_url($origin);
    if (!is_array($parts) || !isset($parts['scheme'], $parts['host']) || !in_array($parts['scheme'], ['http', 'https'], true)) return false;
    return askbox_origin($parts) === $origin && askbox_host($parts) === $self;
}

/**
 * Whether the proxy answers a request for `$host` (the Host header, port included): with the public URL's host or
 * `allowedHosts`, exactly those; without any, only this machine (127.0.0.0/8, localhost, [::1]) on any port.
 */
function askbox_served_host(array $c, string $host): bool
{
    if ($c['hosts']) return in_array($host, $c['hosts'], true);
    return askbox_loopback_host((string) preg_replace('/:\d*$/', '', $host));
}

/**
 * Whether the request carries an underscore twin of the client-IP header (`X_Forwarded_For` for `X-Forwarded-For`):
 * PHP puts both in the same $_SERVER key, so the twin could replace what the trusted proxy in front wrote.
 */
function askbox_header_twin(array $c): bool
{
    $header = is_array($c['clientIp']) ? strtolower((string) ($c['clientIp']['header'] ?? '')) : '';
    if ($header === '') return false;
    $names = function_exists('getallheaders') ? array_keys(getallheaders() ?: []) : [];
    foreach ($names as $name) {
        if (str_contains((string) $name, '_') && strtolower(str_replace('_', '-', (string) $name)) === $header) return true;
    }
    return false;
}

function askbox_loopback_host(string $hostname): bool
{
    $host = rtrim(strtolower($hostname), '.');
    return $host === 'localhost' || str_ends_with($host, '.localhost') || $host === '[::1]' || (bool) preg_match('/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/', $host);
}

/**
 * A hostname on this machine or a private network: loopback, localhost, private (10/8, 172.16/12, 192.168/16,
 * 100.64/10), link-local (169.254/16, fe80::/10), unique-local (fc00::/7), unspecified and multicast literals, and
 * every other spelling of an IPv4 address the resolver would take (`2130706433`, `0x7f.1`, `0177.0.0.1`).
 */
function askbox_private_host(string $hostname): bool
{
    $host = rtrim(strtolower($hostname), '.');
    if (askbox_loopback_host($host)) return true;
    if (filter_var($host, FILTER_VALIDATE_IP, FILTER_FLAG_IPV4)) {
        [$a, $b] = array_map('intval', explode('.', $host));
        return $a === 0 || $a === 10 || $a === 127 || ($a === 100 && $b >= 64 && $b <= 127) || ($a === 169 && $b === 254)
            || ($a === 172 && $b >= 16 && $b <= 31) || ($a === 192 && $b === 168) || $a >= 224;
    }
    if (preg_match('/^(?:0x[0-9a-f]*|\d+)(?:\.(?:0x[0-9a-f]*|\d+)){0,3}$/', $host)) return true;
    $v6 = str_starts_with($host, '[') && str_ends_with($host, ']') ? @inet_pton(substr($host, 1, -1)) : false;
    if ($v6 === false || strlen($v6) !== 16) return false;
    $first = (ord($v6[0]) << 8) | ord($v6[1]);
    // A leading zero group: ::, ::1 and the IPv4-compatible and -mapped forms.
    return $first === 0 || ($first & 0xfe00) === 0xfc00 || ($first & 0xffc0) === 0xfe80;
}

/**
 * The stream URL `$text` (resolved against `$base`) when the proxy may fetch it, else null: http(s) only, with no
 * user part, on the service's origin or a configured stream origin, and never on a private host unless the service
 * is on one. SECURITY: the service (or whoever answers as it) must not steer the proxy into the site's own network.
 */
function askbox_stream_url(array $c, string $text, string $base): ?string
{
    $url = askbox_resolve($text, $base);
    $parts = $url === null ? false : parse_url($url);
    if (!is_array($parts) || !isset($parts['scheme'], $parts['host']) || isset($parts['user']) || isset($parts['pass'])) return null;
    if (!in_array(strtolower($parts['scheme']), ['http', 'https'], true)) return null;
    $origin = askbox_origin($parts);
    if ($origin !== $c['upstreamOrigin'] && !in_array($origin, $c['streamOrigins'], true)) return null;
    if (!$c['privateUpstream'] && askbox_private_host($parts['host'])) return null;
    return $url;
}

/** `$text` as an absolute URL against `$base` (absolute, scheme-relative, absolute or relative path), or null. */
function askbox_resolve(string $text, string $base): ?string
{
    if (preg_match('/[\x00-\x20\x7f\\\\]/', $text)) return null;
    if (preg_match('#^[a-z][a-z0-9+.-]*:#i', $text)) return $text;
    $b = parse_url($base);
    if (!is_array($b) || !isset($b['scheme'], $b['host'])) return null;
    if (str_starts_with($text, '//')) return $b['scheme'] . ':' . $text;
    $origin = askbox_origin($b);
    if (str_starts_with($text, '/')) return $origin . $text;
    $dir = substr((string) ($b['path'] ?? '/'), 0, (int) strrpos((string) ($b['path'] ?? '/'), '/') + 1);
    return $origin . ($dir === '' ? '/' : $dir) . $text;
}

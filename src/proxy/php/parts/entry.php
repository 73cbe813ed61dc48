<?php
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

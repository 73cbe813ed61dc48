<?php
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

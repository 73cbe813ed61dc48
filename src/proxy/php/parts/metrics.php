<?php
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

<?php
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

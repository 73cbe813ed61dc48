<?php
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

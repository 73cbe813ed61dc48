<?php
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

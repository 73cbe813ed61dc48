<?php
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

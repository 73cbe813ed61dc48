<?php
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

<?php
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

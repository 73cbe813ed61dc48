<?php
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

<?php
// The routes: create a conversation, send (for a stream), list messages, delete, feedback, and the reply stream.

function askbox_create(array $c): int
{
    $body = askbox_read_json($c);
    if (is_int($body)) return $body;
    // The service's validation, in its order and words (cody-api.md): name, then bot_id, one of ours.
    $bot = $body['bot_id'] ?? null;
    $errors = [];
    if (!askbox_present($body['name'] ?? null)) $errors['name'] = askbox_say('required', 'name');
    elseif (!is_string($body['name'])) $errors['name'] = askbox_say('string', 'name');
    if (!askbox_present($bot)) $errors['bot_id'] = askbox_say('required', 'bot_id');
    elseif (!is_string($bot) || !in_array($bot, $c['bots'], true)) $errors['bot_id'] = askbox_say('invalid', 'bot_id');
    if ($errors) return askbox_invalid_all($errors);
    // A visitor keeps its id across conversations, so starting afresh does not reset its limits; a person is their key.
    $visitor = askbox_visitor($c) ?? askbox_b64url(random_bytes(16));
    $refused = askbox_limit($c, 'conversation', $visitor) ?? askbox_pow_check($c, $body['proof'] ?? null);
    if ($refused !== null) return $refused;
    // Cut on characters (code points), never inside one; json_decode has already refused invalid UTF-8.
    preg_match('/^.{0,' . ASKBOX_MAX_NAME . '}/us', trim($body['name']), $cut);
    $forward = ['name' => $cut[0], 'bot_id' => $bot];
    $requested = $body['document_ids'] ?? null;
    $chosen = is_array($requested) && $requested && !array_filter($requested, static fn ($d) => !is_string($d) || !in_array($d, $c['documentIds'], true));
    if ($chosen) $forward['document_ids'] = array_values($requested);
    elseif ($c['documentIds']) $forward['document_ids'] = $c['documentIds'];
    $answer = askbox_upstream($c, 'POST', '/conversations', $forward, $c['timeouts']['connectMs']);
    if (!is_array($answer) || $answer['status'] < 200 || $answer['status'] >= 300) return askbox_forward($answer);
    $created = json_decode($answer['body']);
    $id = $created->data->id ?? null;
    if (!is_string($id) || !preg_match(ASKBOX_ID, $id)) return askbox_refuse('unexpectedAnswer');
    try {
        if (isset($c['person'])) askbox_people($c)->add($c['person'], askbox_listed($created->data, $bot));
    } catch (Throwable $error) {
        // The person's list could not take it: the conversation goes at the service too, so none is left that no
        // list shows and no grant reaches (the visitor is answered 503, and sends again).
        askbox_upstream($c, 'DELETE', '/conversations/' . $id, null, $c['timeouts']['connectMs']);
        throw $error;
    }
    return askbox_send(200, ['data' => $created->data, 'meta' => ['grant' => askbox_grant_sign($c, $id, $bot, $visitor)]]);
}

/** A message body whose conversation the visitor holds a grant for, within the limits; else the status sent. */
function askbox_read_message_body(array $c, bool $forStream = false): array|int
{
    $body = askbox_read_json($c);
    if (is_int($body)) return $body;
    // The service's validation, in its order and words (cody-api.md): content, conversation_id, and for a stream
    // redirect. A conversation the visitor holds no grant for reads as one the service does not know.
    $errors = [];
    $content = $body['content'] ?? null;
    if (!askbox_present($content)) $errors['content'] = askbox_say('required', 'content');
    elseif (!is_string($content)) $errors['content'] = askbox_say('string', 'content');
    // The service counts code points; refused here, before any limit is spent or upstream call made.
    elseif (strlen($content) > ASKBOX_MAX_CONTENT && preg_match_all('/./su', $content) > ASKBOX_MAX_CONTENT) {
        $errors['content'] = askbox_say('max', 'content', ASKBOX_MAX_CONTENT);
    }
    $conversation = $body['conversation_id'] ?? null;
    $grant = is_string($conversation) ? askbox_grant_for($c, $conversation) : null;
    if (!askbox_present($conversation)) $errors['conversation_id'] = askbox_say('required', 'conversation_id');
    elseif ($grant === null) $errors['conversation_id'] = askbox_say('invalid', 'conversation_id');
    // Laravel's `boolean`: true, false, 1, 0, "1", "0", "true", "false"; absent is the service's default, true.
    $redirect = $forStream ? ($body['redirect'] ?? true) : true;
    if (!in_array($redirect, [true, false, 1, 0, '1', '0', 'true', 'false'], true)) $errors['redirect'] = askbox_say('boolean', 'redirect');
    if ($errors) return askbox_invalid_all($errors);
    $refused = askbox_limit($c, 'message', askbox_counted_as($c, $grant));
    if ($refused !== null) return $refused;
    return ['content' => $content, 'conversation_id' => $grant['conversationId'], 'redirect' => in_array($redirect, [true, 1, '1', 'true'], true)];
}

/** Laravel's `required`: not missing, null, blank text or an empty list (which a JSON `{}` is to Laravel). */
function askbox_present(mixed $value): bool
{
    return !($value === null || $value === [] || ($value instanceof stdClass && get_object_vars($value) === []) || (is_string($value) && trim($value) === ''));
}

function askbox_send_for_stream(array $c): int
{
    $body = askbox_read_message_body($c, true);
    if (is_int($body)) return $body;
    $answer = askbox_upstream($c, 'POST', '/messages/stream', ['content' => $body['content'], 'conversation_id' => $body['conversation_id'], 'redirect' => false], $c['timeouts']['connectMs']);
    if (!is_array($answer)) return askbox_forward($answer);
    if ($answer['status'] >= 300 && $answer['status'] < 400) $url = $answer['headers']['location'] ?? null;
    elseif ($answer['status'] >= 200 && $answer['status'] < 300) $url = json_decode($answer['body'])->data->stream_url ?? null;
    else return askbox_forward($answer);
    $target = is_string($url) ? askbox_stream_url($c, $url, $c['upstream']) : null;
    if ($target === null) return askbox_refuse('noStream');
    $token = askbox_seal($c, $target, $body['conversation_id']);
    if ($body['redirect']) return askbox_send(302, null, ['Location' => $c['linkBase'] . '/stream/' . $token]);
    // As the service answers redirect: false: an absolute URL, on the host the request came to (checked above).
    $origin = str_starts_with($c['linkBase'], '/') ? (!empty($_SERVER['HTTPS']) && $_SERVER['HTTPS'] !== 'off' ? 'https' : 'http') . '://' . strtolower((string) ($_SERVER['HTTP_HOST'] ?? '')) : '';
    return askbox_send(200, ['data' => ['stream_url' => $origin . $c['linkBase'] . '/stream/' . $token]]);
}

/** One conversation's messages, only with the visitor's grant for it. */
function askbox_list_messages(array $c): int
{
    $conversation = $_GET['conversation_id'] ?? '';
    if (!is_string($conversation) || $conversation === '') return askbox_invalid('conversation_id', askbox_say('required', 'conversation_id'));
    if (askbox_grant_for($c, $conversation) === null) return askbox_refuse('conversationNotFound');
    $query = array_filter(array_intersect_key($_GET, array_flip(['conversation_id', 'includes', 'page', 'per_page'])), 'is_string');
    return askbox_forward(askbox_upstream($c, 'GET', '/messages?' . http_build_query($query), null, $c['timeouts']['connectMs']));
}

/** The visitor's own conversation, deleted at the service, then `onDelete`; someone else's (or no) grant finds nothing. */
function askbox_delete(array $c, string $id): int
{
    $grant = askbox_grant_for($c, $id);
    if ($grant === null) return askbox_refuse('conversationNotFound');
    $refused = askbox_limit($c, 'action', askbox_counted_as($c, $grant));
    if ($refused !== null) return $refused;
    $answer = askbox_upstream($c, 'DELETE', '/conversations/' . $id, null, $c['timeouts']['connectMs']);
    // Gone at the service, or never there: out of the person's list too.
    if (isset($c['person']) && is_array($answer) && ($answer['status'] === 404 || ($answer['status'] >= 200 && $answer['status'] < 300))) {
        askbox_people($c)->remove($c['person'], $grant['conversationId']);
    }
    // Gone at the service: what the site keeps of it (the ratings onFeedback stored) goes too.
    if (is_array($answer) && $answer['status'] >= 200 && $answer['status'] < 300 && is_callable($c['onDelete'])) {
        try {
            ($c['onDelete'])(['conversationId' => $grant['conversationId'], 'visitorId' => $grant['visitorId']]);
        } catch (Throwable $error) {
            askbox_log($c, ['level' => 'error', 'event' => 'delete', 'message' => 'onDelete failed: ' . $error->getMessage()]);
        }
    }
    return askbox_forward($answer);
}

/** A rating of a reply in a conversation the visitor holds: to `onFeedback`, else one log line; never upstream. */
function askbox_feedback(array $c): int
{
    $body = askbox_read_json($c);
    if (is_int($body)) return $body;
    $errors = [];
    $conversation = $body['conversation_id'] ?? null;
    $grant = is_string($conversation) ? askbox_grant_for($c, $conversation) : null;
    if (!askbox_present($conversation)) $errors['conversation_id'] = askbox_say('required', 'conversation_id');
    elseif ($grant === null) $errors['conversation_id'] = askbox_say('invalid', 'conversation_id');
    $message = $body['message_id'] ?? null;
    if (!askbox_present($message)) $errors['message_id'] = askbox_say('required', 'message_id');
    elseif (!is_string($message) || !preg_match(ASKBOX_ID, $message)) $errors['message_id'] = askbox_say('invalid', 'message_id');
    $rating = $body['rating'] ?? null;
    if (!askbox_present($rating)) $errors['rating'] = askbox_say('required', 'rating');
    elseif (!in_array($rating, ASKBOX_CONTRACT['ratings'], true)) $errors['rating'] = askbox_say('invalid', 'rating');
    $comment = $body['comment'] ?? null;
    $max = ASKBOX_CONTRACT['fields']['feedbackCommentMax'];
    if ($comment !== null && !is_string($comment)) $errors['comment'] = askbox_say('string', 'comment');
    elseif (is_string($comment) && strlen($comment) > $max && preg_match_all('/./su', $comment) > $max) $errors['comment'] = askbox_say('max', 'comment', $max);
    if ($errors) return askbox_invalid_all($errors);
    $refused = askbox_limit($c, 'action', askbox_counted_as($c, $grant));
    if ($refused !== null) return $refused;
    $event = ['conversationId' => $grant['conversationId'], 'messageId' => $message, 'rating' => $rating]
        + (is_string($comment) && trim($comment) !== '' ? ['comment' => trim($comment)] : [])
        + ['visitorId' => $grant['visitorId']];
    if (is_callable($c['onFeedback'])) {
        try {
            ($c['onFeedback'])($event);
        } catch (Throwable $error) {
            askbox_log($c, ['level' => 'error', 'event' => 'feedback', 'message' => 'onFeedback failed: ' . $error->getMessage()]);
            return askbox_send(503, ['message' => ASKBOX_CONTRACT['refusals']['busy']['message']], ['Retry-After' => (string) ASKBOX_STORE_RETRY_SECONDS]);
        }
    } else {
        askbox_log($c, ['level' => 'info', 'event' => 'feedback', 'message' => json_encode($event, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE)]);
    }
    return askbox_send(200, ['data' => ['conversation_id' => $event['conversationId'], 'message_id' => $message, 'rating' => $rating]]);
}

function askbox_stream(array $c, string $token): int
{
    $sealed = askbox_unseal($c, $token);
    // SECURITY: a stream URL alone is not enough; the visitor's grant for its conversation must come with it. And it
    // opens once: a copy of the token (a log, a cache) is worthless. Its random IV names it in the store.
    if ($sealed === null || askbox_grant_for($c, $sealed['c']) === null || !askbox_spend(askbox_db($c), bin2hex(substr((string) askbox_b64url_decode($token), 0, 12)), $sealed['e'], askbox_now_ms())) {
        return askbox_refuse('streamGone');
    }
    $t = $c['timeouts'];
    $url = askbox_stream_url($c, $sealed['u'], $c['upstream']);
    if ($url === null) return askbox_refuse('noStream');
    // SECURITY: redirects are followed here, never by PHP: the key goes only while every hop so far stayed on the
    // service's own origin (a separate stream host gets the sealed URL alone), and each hop must be a stream URL.
    $withKey = askbox_origin((array) parse_url($url)) === $c['upstreamOrigin'];
    $asked = microtime(true);
    for ($hops = 0; ; $hops++) {
        $opened = askbox_open($c, 'GET', $url, null, $t['connectMs'], $withKey, 'text/event-stream');
        if (!is_array($opened)) return askbox_forward(askbox_metric_upstream($asked, $opened));
        [$fp, $status, $headers] = $opened;
        if (!in_array($status, [301, 302, 303, 307, 308], true)) break;
        fclose($fp);
        $next = isset($headers['location']) ? askbox_stream_url($c, $headers['location'], $url) : null;
        if ($next === null || $hops >= ASKBOX_MAX_STREAM_HOPS) return askbox_refuse('noStream');
        $withKey = $withKey && askbox_origin((array) parse_url($next)) === $c['upstreamOrigin'];
        $url = $next;
    }
    askbox_metric_upstream($asked, ['status' => $status]);
    if ($status !== 200) return askbox_forward(askbox_answer($status, $headers, askbox_read_all($fp, $t['idleMs'])));
    while (ob_get_level() > 0) ob_end_flush();
    askbox_headers(200, ['Content-Type' => 'text/event-stream; charset=utf-8', 'X-Accel-Buffering' => 'no']);
    flush();
    // A stream open now, and -1 on the request's own line when it ends: their sum is the streams open.
    askbox_metrics_line($c, ['event' => 'askbox.proxy.stream', 'askbox.proxy.streams.open' => 1]);
    // Polls in 50 ms steps, so the deadlines hold without an extension: first byte, silence, whole stream.
    stream_set_timeout($fp, 0, 50000);
    $start = $last = microtime(true);
    $first = true;
    while (true) {
        $chunk = fread($fp, 8192);
        $now = microtime(true);
        if ($chunk !== false && $chunk !== '') {
            echo $chunk;
            flush();
            $last = $now;
            if ($first) askbox_metric('askbox.proxy.stream.first_byte', askbox_metric_since());
            $first = false;
            if (connection_aborted()) break;
            continue;
        }
        // fread answers false when its 50 ms pass in silence; only the end of the body or a real error stops here.
        $meta = stream_get_meta_data($fp);
        if ($meta['eof'] || ($chunk === false && !$meta['timed_out'])) break;
        $silence = ($first ? $t['firstByteMs'] : $t['idleMs']) / 1000;
        if ($now - $last >= $silence || $now - $start >= $t['maxStreamMs'] / 1000) {
            askbox_log($c, ['level' => 'warn', 'event' => 'upstream', 'message' => 'Upstream stream cut: ' . ($now - $start >= $t['maxStreamMs'] / 1000 ? 'maximum duration' : 'silence') . '.']);
            break;
        }
    }
    fclose($fp);
    askbox_metric('askbox.proxy.stream.duration', askbox_metric_since());
    askbox_metric('askbox.proxy.streams.open', -1);
    return 200;
}

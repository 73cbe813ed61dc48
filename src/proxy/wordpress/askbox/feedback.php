<?php
/**
 * Ratings of replies, stored by the plugin: the proxy hands each one to askbox_feedback_store (its `onFeedback`),
 * which writes it to {prefix}askbox_feedback; Settings → Askbox lists the latest.
 */

if (!defined('ABSPATH')) {
    exit;
}

/**
 * The table's schema version: a site updated in place (no activation) gets the table on its next request. 2: one
 * row per visitor, conversation and reply (the `one_rating` key).
 */
const ASKBOX_DB_VERSION = '2';
/** How many ratings the settings page lists, newest first. */
const ASKBOX_FEEDBACK_LISTED = 50;

function askbox_feedback_table(): string
{
    global $wpdb;
    return $wpdb->prefix . 'askbox_feedback';
}

/**
 * Creates (or updates) the table with dbDelta and records the version. dbDelta's format is strict: one column per
 * line, two spaces after PRIMARY KEY. A version 1 table may hold several rows for one visitor's rating of one reply
 * (earlier widgets sent a thumbs-down, then the same again with its comment); only the newest is kept, or the
 * unique key could not be added.
 */
function askbox_feedback_install(): void
{
    global $wpdb;
    if (!function_exists('dbDelta')) {
        require_once ABSPATH . 'wp-admin/includes/upgrade.php';
    }
    $table = askbox_feedback_table();
    if (get_option('askbox_db_version') === '1') {
        $wpdb->query("DELETE older FROM $table older JOIN $table newer ON newer.visitor_hash = older.visitor_hash AND newer.conversation_id = older.conversation_id AND newer.message_id = older.message_id AND newer.id > older.id");
    }
    dbDelta("CREATE TABLE $table (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  created_at datetime NOT NULL,
  conversation_id varchar(64) NOT NULL,
  message_id varchar(64) NOT NULL,
  rating varchar(8) NOT NULL,
  comment text NULL,
  visitor_hash char(64) NOT NULL,
  PRIMARY KEY  (id),
  UNIQUE KEY one_rating (visitor_hash,conversation_id,message_id),
  KEY created_at (created_at)
) {$wpdb->get_charset_collate()};");
    update_option('askbox_db_version', ASKBOX_DB_VERSION);
}

/** On every load: an updated plugin's activation hook does not run, so the version option says what is missing. */
function askbox_feedback_upgrade(): void
{
    if (get_option('askbox_db_version') !== ASKBOX_DB_VERSION) {
        askbox_feedback_install();
    }
}

/**
 * The proxy's `onFeedback`: one row per visitor, conversation and reply (the `one_rating` key), with the time in UTC.
 * A visitor rates a reply once and may change their mind: a later rating of the same reply updates the row, never
 * adds one. The widget sends a rating once, a thumbs-down with its comment; the same rating may come again without
 * it (a Retry, or a widget of an earlier version that sent a thumbs-down twice, the two in either order), so a rating
 * without a comment keeps the comment of the same rating; a changed rating drops it. PRIVACY: the visitor id is kept only as an HMAC keyed with the site's salt, enough to tell one visitor's
 * ratings apart, not to follow them elsewhere. The proxy has checked every field (ids, rating, comment length, a
 * comment never empty); the write is prepared all the same. A failed write throws, so the proxy answers 503 rather
 * than a rating that was lost.
 *
 * @param array{conversationId: string, messageId: string, rating: string, comment?: string, visitorId: string} $event
 */
function askbox_feedback_store(array $event): void
{
    global $wpdb;
    $table = askbox_feedback_table();
    // One statement, so that two sends of one rating cannot interleave; `comment` is set before `rating` changes.
    $sql = $wpdb->prepare(
        "INSERT INTO $table (created_at, conversation_id, message_id, rating, comment, visitor_hash) VALUES (%s, %s, %s, %s, NULLIF(%s, ''), %s)"
        . ' ON DUPLICATE KEY UPDATE comment = IF(rating = VALUES(rating), COALESCE(VALUES(comment), comment), VALUES(comment)), rating = VALUES(rating), created_at = VALUES(created_at)',
        gmdate('Y-m-d H:i:s'),
        $event['conversationId'],
        $event['messageId'],
        $event['rating'],
        $event['comment'] ?? '',
        hash_hmac('sha256', $event['visitorId'], wp_salt('auth')),
    );
    if ($wpdb->query($sql) === false) {
        throw new RuntimeException('the feedback table refused the rating: ' . $wpdb->last_error);
    }
}

/**
 * The proxy's `onDelete`: a visitor deleted their conversation at the service, so its ratings and comments go too.
 * PRIVACY: the visitor's right to erase what they wrote covers what they wrote about the replies.
 */
function askbox_feedback_forget(array $event): void
{
    global $wpdb;
    if ($wpdb->delete(askbox_feedback_table(), ['conversation_id' => $event['conversationId']], ['%s']) === false) {
        throw new RuntimeException('the feedback table kept the ratings: ' . $wpdb->last_error);
    }
}

/** The latest ratings, newest first. */
function askbox_feedback_latest(): array
{
    global $wpdb;
    $table = askbox_feedback_table();
    $rows = $wpdb->get_results($wpdb->prepare("SELECT created_at, conversation_id, message_id, rating, comment, visitor_hash FROM $table ORDER BY created_at DESC, id DESC LIMIT %d", ASKBOX_FEEDBACK_LISTED), ARRAY_A);
    return is_array($rows) ? $rows : [];
}

/** The settings page's list of ratings. SECURITY: every field is the visitor's or the service's text: escaped. */
function askbox_feedback_section(): void
{
    echo '<h2>' . esc_html__('Ratings of replies', 'askbox') . '</h2>';
    $rows = askbox_feedback_latest();
    if ($rows === []) {
        echo '<p>' . esc_html__('No ratings yet.', 'askbox') . '</p>';
        return;
    }
    echo '<p>' . esc_html(sprintf(__('The latest %d, newest first. Visitors are shown as a salted hash.', 'askbox'), ASKBOX_FEEDBACK_LISTED)) . '</p>';
    echo '<table class="widefat striped askbox-feedback"><thead><tr>';
    foreach ([__('Time (UTC)', 'askbox'), __('Rating', 'askbox'), __('Comment', 'askbox'), __('Conversation', 'askbox'), __('Reply', 'askbox'), __('Visitor', 'askbox')] as $heading) {
        echo '<th scope="col">' . esc_html($heading) . '</th>';
    }
    echo '</tr></thead><tbody>';
    foreach ($rows as $row) {
        $rating = $row['rating'] === 'up' ? __('Helpful', 'askbox') : __('Not helpful', 'askbox');
        $cells = [$row['created_at'], $rating, (string) $row['comment'], $row['conversation_id'], $row['message_id'], substr((string) $row['visitor_hash'], 0, 12)];
        echo '<tr>';
        foreach ($cells as $cell) {
            echo '<td>' . esc_html($cell) . '</td>';
        }
        echo '</tr>';
    }
    echo '</tbody></table>';
}

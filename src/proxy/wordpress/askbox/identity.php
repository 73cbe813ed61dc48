<?php
/**
 * Signed-in visitors: a logged-in user's widget carries their id (`wp-<user ID>`) and its HMAC, made here with the
 * identity secret, so their conversations follow them to any browser; the proxy keeps each person's list in
 * {prefix}askbox_conversations. Logged-out visitors stay anonymous.
 */

if (!defined('ABSPATH')) {
    exit;
}

/** The table's schema version: a site updated in place (no activation) gets the table on its next request. */
const ASKBOX_PEOPLE_DB_VERSION = '1';

function askbox_people_table(): string
{
    global $wpdb;
    return $wpdb->prefix . 'askbox_conversations';
}

/**
 * The identity secret: the ASKBOX_IDENTITY_SECRET constant (wp-config.php) or environment variable, else one made
 * once and kept in an option (not autoloaded). SECURITY: it signs who a visitor is; it is never printed.
 */
function askbox_identity_secret(): string
{
    if (defined('ASKBOX_IDENTITY_SECRET')) return (string) constant('ASKBOX_IDENTITY_SECRET');
    $env = getenv('ASKBOX_IDENTITY_SECRET');
    if (is_string($env) && $env !== '') return $env;
    $kept = (string) get_option('askbox_identity_secret', '');
    if ($kept === '') {
        $kept = wp_generate_password(64, false);
        update_option('askbox_identity_secret', $kept, false);
    }
    return $kept;
}

/** A WordPress user's id as the widget and the proxy know it. */
function askbox_user_id(int $user): string
{
    return 'wp-' . $user;
}

/** The widget's identity attributes for the logged-in user, computed here; none for a logged-out visitor. */
function askbox_identity_attributes(): array
{
    if (!is_user_logged_in()) return [];
    $id = askbox_user_id(get_current_user_id());
    return ['data-user-id' => $id, 'data-user-hash' => hash_hmac('sha256', $id, askbox_identity_secret())];
}

/**
 * Creates (or updates) the table with dbDelta and records the version. One row per person and conversation (the
 * `one_conversation` key); `id` orders a person's list, newest first.
 */
function askbox_people_install(): void
{
    global $wpdb;
    if (!function_exists('dbDelta')) {
        require_once ABSPATH . 'wp-admin/includes/upgrade.php';
    }
    $table = askbox_people_table();
    $name = ASKBOX_CONTRACT['fields']['nameMax'];
    dbDelta("CREATE TABLE $table (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  person char(42) NOT NULL,
  conversation_id varchar(64) NOT NULL,
  bot_id varchar(64) NOT NULL,
  name varchar($name) NOT NULL,
  created_at varchar(32) NOT NULL,
  PRIMARY KEY  (id),
  UNIQUE KEY one_conversation (person,conversation_id)
) {$wpdb->get_charset_collate()};");
    update_option('askbox_people_db_version', ASKBOX_PEOPLE_DB_VERSION);
}

/** On every load: an updated plugin's activation hook does not run, so the version option says what is missing. */
function askbox_people_upgrade(): void
{
    if (get_option('askbox_people_db_version') !== ASKBOX_PEOPLE_DB_VERSION) {
        askbox_people_install();
    }
}

/** A deleted user's list goes with them. PRIVACY: the conversations themselves stay at the service, unlisted. */
function askbox_people_forget_user(int $user): void
{
    (new AskboxWordPressPeople())->forget(askbox_person_key(askbox_identity_secret(), askbox_user_id($user)));
}

/**
 * The proxy's store of people's conversations in {prefix}askbox_conversations: the newest conversationsMax a person.
 * WordPress's people are its users, so the table holds at most that many rows a user, and a deleted user's go. A
 * failed query throws AskboxStoreError: the proxy answers 503 and logs it once, as the people store's (event `people`).
 */
final class AskboxWordPressPeople implements AskboxPeople
{
    public function add(string $person, array $conversation): void
    {
        global $wpdb;
        $table = askbox_people_table();
        $this->run($wpdb->prepare(
            "INSERT IGNORE INTO $table (person, conversation_id, bot_id, name, created_at) VALUES (%s, %s, %s, %s, %s)",
            $person,
            $conversation['id'],
            $conversation['bot_id'],
            $conversation['name'],
            $conversation['created_at'],
        ));
        // MariaDB takes no LIMIT inside IN (…): the oldest row kept is found in a derived table.
        $this->run($wpdb->prepare(
            "DELETE FROM $table WHERE person = %s AND id < (SELECT id FROM (SELECT id FROM $table WHERE person = %s ORDER BY id DESC LIMIT 1 OFFSET %d) AS oldest_kept)",
            $person,
            $person,
            ASKBOX_CONTRACT['identity']['conversationsMax'] - 1,
        ));
    }

    public function list(string $person): array
    {
        global $wpdb;
        $table = askbox_people_table();
        $rows = $wpdb->get_results($wpdb->prepare(
            "SELECT conversation_id, name, bot_id, created_at FROM $table WHERE person = %s ORDER BY id DESC LIMIT %d",
            $person,
            ASKBOX_CONTRACT['identity']['conversationsMax'],
        ), ARRAY_A);
        if (!is_array($rows) || $wpdb->last_error !== '') throw new AskboxStoreError('the conversations table cannot be read: ' . $wpdb->last_error);
        return array_map(static fn (array $row) => ['id' => $row['conversation_id'], 'name' => $row['name'], 'bot_id' => $row['bot_id'], 'created_at' => $row['created_at']], $rows);
    }

    public function remove(string $person, string $id): void
    {
        global $wpdb;
        $this->run($wpdb->prepare('DELETE FROM ' . askbox_people_table() . ' WHERE person = %s AND conversation_id = %s', $person, $id));
    }

    /** Every row of a person. */
    public function forget(string $person): void
    {
        global $wpdb;
        $this->run($wpdb->prepare('DELETE FROM ' . askbox_people_table() . ' WHERE person = %s', $person));
    }

    private function run(string $sql): void
    {
        global $wpdb;
        if ($wpdb->query($sql) === false) throw new AskboxStoreError('the conversations table refused a change: ' . $wpdb->last_error);
    }
}

<?php
// The WordPress functions the Askbox plugin calls, recorded instead of run: enough to load the plugin, fire its
// hooks and see what it registers and prints, without a WordPress install.

define('ABSPATH', __DIR__ . '/');

$GLOBALS['wp'] = ['actions' => [], 'filters' => [], 'options' => [], 'scripts' => [], 'routes' => [], 'settings' => [], 'pages' => [], 'activation' => null, 'can' => true, 'user' => 0];

function add_action(string $hook, $callback, int $priority = 10, int $args = 1): void { $GLOBALS['wp']['actions'][$hook][] = $callback; }
function add_filter(string $hook, $callback, int $priority = 10, int $args = 1): void { $GLOBALS['wp']['filters'][$hook][] = $callback; }
function apply_filters(string $hook, $value, ...$args) { foreach ($GLOBALS['wp']['filters'][$hook] ?? [] as $f) $value = $f($value, ...$args); return $value; }
function do_action(string $hook, ...$args): void { foreach ($GLOBALS['wp']['actions'][$hook] ?? [] as $f) $f(...$args); }
function register_activation_hook(string $file, $callback): void { $GLOBALS['wp']['activation'] = $callback; }
function get_option(string $name, $default = false) { return $GLOBALS['wp']['options'][$name] ?? $default; }
function update_option(string $name, $value, $autoload = null): bool { $GLOBALS['wp']['options'][$name] = $value; $GLOBALS['wp']['autoload'][$name] = $autoload; return true; }
function wp_generate_password(int $length = 12, bool $special = true): string { return substr(str_repeat(bin2hex(random_bytes(32)), 2), 0, $length); }
function current_user_can(string $capability): bool { return $GLOBALS['wp']['can']; }
function is_user_logged_in(): bool { return $GLOBALS['wp']['user'] > 0; }
function get_current_user_id(): int { return $GLOBALS['wp']['user']; }
function add_options_page(...$args): void { $GLOBALS['wp']['pages'][] = $args; }
function register_setting(string $group, string $name, array $args = []): void { $GLOBALS['wp']['settings'][$name] = $args; }
function settings_fields(string $group): void { echo "<input type=\"hidden\" name=\"option_page\" value=\"$group\">"; }
function submit_button(): void { echo '<button type="submit">Save</button>'; }
function sanitize_text_field(string $text): string { return trim(strip_tags($text)); }
function sanitize_textarea_field(string $text): string { return trim(strip_tags($text)); }
function esc_attr($text): string { return htmlspecialchars((string) $text, ENT_QUOTES); }
function esc_html($text): string { return htmlspecialchars((string) $text, ENT_QUOTES); }
function __(string $text, string $domain = 'default'): string { return $text; }
function esc_html__(string $text, string $domain = 'default'): string { return esc_html($text); }
function plugins_url(string $path, string $file): string { return 'https://blog.example/wp-content/plugins/askbox/' . $path; }
function rest_url(string $path = ''): string { return 'https://blog.example/wp-json/' . $path . '/'; }
function home_url(string $path = ''): string { return 'https://blog.example' . $path; }
function add_settings_error(string $setting, string $code, string $message, string $type = 'error'): void { $GLOBALS['wp']['errors'][] = $message; }
function esc_attr__(string $text, string $domain = 'default'): string { return esc_attr($text); }
function untrailingslashit(string $text): string { return rtrim($text, '/\\'); }
function wp_enqueue_script(string $handle, string $src, array $deps = [], $version = false, $args = []): void { $GLOBALS['wp']['scripts'][$handle] = compact('src', 'version', 'args'); }
function register_rest_route(string $namespace, string $route, array $args): void { $GLOBALS['wp']['routes'][] = compact('namespace', 'route', 'args'); }
function wp_salt(string $scheme = 'auth'): string { return 'stub-salt-' . $scheme; }
function delete_option(string $name): bool { unset($GLOBALS['wp']['options'][$name]); return true; }
function dbDelta($queries): array { $GLOBALS['wp']['dbdelta'][] = $queries; return []; }
define('ARRAY_A', 'ARRAY_A');

/** $wpdb over an array: the feedback upsert updates or appends a row, get_results gives them back newest first; queries are recorded. */
$GLOBALS['wpdb'] = new class {
    public string $prefix = 'wp_';
    public string $last_error = '';
    public array $rows = [];
    public array $queries = [];
    public bool $fail = false;
    public function get_charset_collate(): string { return 'DEFAULT CHARACTER SET utf8mb4'; }
    /** The arguments of the last prepared statement, which `query` applies to the rows. */
    public array $args = [];
    public function prepare(string $query, ...$args): string { $this->args = $args; return vsprintf($query, $args); }
    public function get_results(string $query, $output): array { $this->queries[] = $query; preg_match('/LIMIT (\d+)/', $query, $m); return array_slice(array_reverse($this->rows), 0, (int) $m[1]); }
    /**
     * Records the query; the feedback upsert (INSERT … ON DUPLICATE KEY UPDATE over `one_rating`) is applied as MariaDB
     * would: the row of the same visitor, conversation and reply takes the new rating and time, and keeps its comment
     * when the rating is the same and the new one has none.
     */
    public function query(string $query): int|false
    {
        $this->queries[] = $query;
        if ($this->fail) { $this->last_error = 'disk full'; return false; }
        if (!str_starts_with($query, 'INSERT INTO')) return 0;
        [$created_at, $conversation_id, $message_id, $rating, $comment, $visitor_hash] = $this->args;
        $row = compact('created_at', 'conversation_id', 'message_id', 'rating', 'comment', 'visitor_hash');
        $row['comment'] = $comment === '' ? null : $comment;
        foreach ($this->rows as $i => $old) {
            if ([$old['visitor_hash'], $old['conversation_id'], $old['message_id']] !== [$visitor_hash, $conversation_id, $message_id]) continue;
            if ($old['rating'] === $rating) $row['comment'] ??= $old['comment'];
            $this->rows[$i] = $row;
            return 2;
        }
        $this->rows[] = $row;
        return 1;
    }
    public function delete(string $table, array $where, array $format): int|false { $this->queries[] = ['delete', $table, $where, $format]; $before = count($this->rows); $this->rows = array_values(array_filter($this->rows, static fn ($row) => array_intersect_assoc($where, $row) !== $where)); return $before - count($this->rows); }
};

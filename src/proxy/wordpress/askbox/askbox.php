<?php
/**
 * Plugin Name: Askbox AI chat
 * Description: An AI chat for your visitors, answered by your Cody AI bot. Your API key stays on the server: the widget talks to a proxy this plugin serves under the REST API.
 * Version: 0.1.0
 * Requires at least: 6.1
 * Requires PHP: 8.1
 * License: MIT
 * Text Domain: askbox
 */

if (!defined('ABSPATH')) {
    exit;
}

require_once __DIR__ . '/askbox-proxy.php';
require_once __DIR__ . '/feedback.php';
require_once __DIR__ . '/identity.php';
require_once __DIR__ . '/widget-rules.php';

const ASKBOX_PLUGIN_VERSION = '0.1.0';
const ASKBOX_REST_NAMESPACE = 'askbox/v1';
/** The settings shown on the page; the key lives in an option of its own, never printed back. */
const ASKBOX_FIELDS = [
    'bot_id' => 'Bot id',
    'title' => 'Title',
    'welcome' => 'Welcome message',
    'accent' => 'Accent colour (#rrggbb)',
];
/** Settings chosen from a list: value => label. */
const ASKBOX_CHOICES = [
    'position' => ['Position', ['bottom-right' => 'Bottom right', 'bottom-left' => 'Bottom left']],
    'theme' => ['Theme', ['auto' => "Follow the visitor's system", 'light' => 'Light', 'dark' => 'Dark']],
    'client_ip' => ["Visitors' IP address (for the per-IP limits)", [
        'socket' => 'The connection (no proxy or CDN in front)',
        'cf-connecting-ip' => 'CF-Connecting-IP (behind Cloudflare)',
        'x-forwarded-for' => 'X-Forwarded-For (behind a load balancer or reverse proxy)',
    ]],
];
/** The proxy's settings (text): field => [label, help]. Checked by the proxy's own validation when saved. */
const ASKBOX_PROXY_FIELDS = [
    'trusted_hops' => ['Trusted proxies in front (X-Forwarded-For)', 'How many proxies of yours add to X-Forwarded-For; the visitor is that many from the right.'],
    'public_url' => ['Public URL', "The site's address as visitors reach it; empty: the WordPress address (home_url)."],
    'allowed_hosts' => ['More host names served', 'One per line (name or name:port); requests for any other host are refused.'],
    'allowed_origins' => ['Other sites that may embed the chat', 'One origin per line (https://shop.example); this site is always allowed.'],
];
/** The limits: field => [label, proxy limit, part (burst, perMinute or the daily number)]. Empty: the default. */
const ASKBOX_LIMIT_FIELDS = [
    'visitor_burst' => ['Messages a visitor may send at once', 'visitorMessages', 'burst'],
    'visitor_per_minute' => ['Messages per visitor per minute', 'visitorMessages', 'perMinute'],
    'ip_burst' => ['Messages an IP address may send at once', 'ipMessages', 'burst'],
    'ip_per_minute' => ['Messages per IP address per minute', 'ipMessages', 'perMinute'],
    'visitor_per_day' => ['Messages per visitor per day', 'visitorMessagesPerDay', null],
    'ip_per_day' => ['Messages per IP address per day', 'ipMessagesPerDay', null],
];

register_activation_hook(__FILE__, 'askbox_activate');
add_action('admin_menu', 'askbox_admin_menu');
add_action('admin_init', 'askbox_admin_init');
add_action('wp_enqueue_scripts', 'askbox_enqueue');
add_filter('script_loader_tag', 'askbox_script_tag', 10, 2);
add_action('rest_api_init', 'askbox_rest_init');
add_action('plugins_loaded', 'askbox_feedback_upgrade');
add_action('plugins_loaded', 'askbox_people_upgrade');
add_action('deleted_user', 'askbox_people_forget_user');

/**
 * A secret for grants, made once (conversations survive updates and restarts), the identity secret, the ratings
 * table and signed-in people's conversations table.
 */
function askbox_activate(): void
{
    askbox_feedback_install();
    askbox_people_install();
    askbox_identity_secret();
    if (!get_option('askbox_secret')) {
        update_option('askbox_secret', wp_generate_password(64, false), false);
    }
}

/** The API key: the ASKBOX_CODY_API_KEY constant (wp-config.php) wins over the saved option. */
function askbox_api_key(): string
{
    return defined('ASKBOX_CODY_API_KEY') ? (string) constant('ASKBOX_CODY_API_KEY') : (string) get_option('askbox_api_key', '');
}

function askbox_settings(): array
{
    $saved = get_option('askbox_settings', []);
    $defaults = ['bot_id' => '', 'title' => '', 'welcome' => '', 'accent' => '', 'position' => 'bottom-right', 'theme' => 'auto', 'client_ip' => 'socket']
        + array_fill_keys([...array_keys(ASKBOX_PROXY_FIELDS + ASKBOX_LIMIT_FIELDS + ASKBOX_WIDGET_FIELDS + ASKBOX_GREETING_FIELDS), 'proof_of_work'], '');
    return array_merge($defaults, is_array($saved) ? $saved : []);
}

/**
 * The proxy's options from the settings: the client-IP source, public URL (default home_url()), hosts, origins and
 * limits, then the `askbox_proxy_options` filter (a site can set anything the proxy takes, e.g. storeDir).
 */
function askbox_proxy_options(array $settings): array
{
    $lines = static fn (string $text) => array_values(array_filter(array_map('trim', preg_split('/[\r\n,]+/', $text) ?: []), 'strlen'));
    $limits = [];
    foreach (ASKBOX_LIMIT_FIELDS as $field => [, $limit, $part]) {
        $value = trim((string) $settings[$field]);
        if ($value === '') continue;
        $number = is_numeric($value) ? $value + 0 : $value;
        if ($part === null) $limits[$limit] = $number;
        else $limits[$limit][$part] = $number;
    }
    foreach ($limits as $name => $limit) {
        // A rate set in part keeps the other part's default.
        if (is_array($limit)) $limits[$name] += ASKBOX_DEFAULT_LIMITS[$name];
    }
    $hops = trim((string) $settings['trusted_hops']);
    $options = [
        'apiKey' => askbox_api_key(),
        'botIds' => $settings['bot_id'] !== '' ? [$settings['bot_id']] : [],
        'secret' => (string) get_option('askbox_secret', ''),
        'basePath' => '/' . ASKBOX_REST_NAMESPACE,
        'linkBase' => untrailingslashit(rest_url(ASKBOX_REST_NAMESPACE)),
        'publicUrl' => trim((string) $settings['public_url']) !== '' ? trim((string) $settings['public_url']) : home_url(),
        'allowedHosts' => $lines((string) $settings['allowed_hosts']),
        'allowedOrigins' => $lines((string) $settings['allowed_origins']),
        'clientIp' => match ($settings['client_ip']) {
            'cf-connecting-ip' => ['header' => 'cf-connecting-ip'],
            'x-forwarded-for' => ['header' => 'x-forwarded-for', 'trustedHops' => ctype_digit($hops) ? (int) $hops : ($hops === '' ? 1 : $hops)],
            default => null,
        },
        'limits' => $limits,
        'authorize' => static fn () => (bool) apply_filters('askbox_authorize', true),
        'onFeedback' => 'askbox_feedback_store',
        'onDelete' => 'askbox_feedback_forget',
        // A logged-in user's widget is signed with this secret (askbox_identity_attributes); their list is kept here.
        'identitySecret' => askbox_identity_secret(),
        'people' => new AskboxWordPressPeople(),
    ];
    if ($settings['proof_of_work'] === '1') $options['proofOfWork'] = true;
    if (defined('ASKBOX_STORE_DIR')) $options['storeDir'] = (string) constant('ASKBOX_STORE_DIR');
    return (array) apply_filters('askbox_proxy_options', $options, $settings);
}

function askbox_admin_menu(): void
{
    add_options_page('Askbox', 'Askbox', 'manage_options', 'askbox', 'askbox_settings_page');
}

function askbox_admin_init(): void
{
    register_setting('askbox', 'askbox_settings', ['type' => 'array', 'sanitize_callback' => 'askbox_sanitize_settings']);
}

/** `$text` when it is within `$max` characters (code points, as the widget counts them); else '', as refused. */
function askbox_within(string $text, int $max): string
{
    return preg_match_all('/./su', $text) <= $max ? $text : '';
}

/**
 * Checks the submitted settings. SECURITY: the key goes to its own option (not autoloaded) and never into the
 * settings array; an empty key field keeps the saved key.
 */
function askbox_sanitize_settings($input): array
{
    $input = is_array($input) ? $input : [];
    $key = trim((string) ($input['api_key'] ?? ''));
    if ($key !== '' && current_user_can('manage_options')) {
        update_option('askbox_api_key', sanitize_text_field($key), false);
    }
    $bot = (string) ($input['bot_id'] ?? '');
    $settings = [
        'bot_id' => preg_match(ASKBOX_ID, $bot) ? $bot : '',
        // The widget's own rules (the wire contract's WIDGET_RULES): what it would refuse is not saved.
        'title' => askbox_within(sanitize_text_field((string) ($input['title'] ?? '')), ASKBOX_CONTRACT['widgetRules']['titleMax']),
        'welcome' => askbox_within(sanitize_textarea_field((string) ($input['welcome'] ?? '')), ASKBOX_CONTRACT['widgetRules']['welcomeMax']),
        'accent' => preg_match('~' . ASKBOX_CONTRACT['widgetRules']['colorPattern'] . '~i', $accent = trim((string) ($input['accent'] ?? ''))) ? $accent : '',
        'position' => ($input['position'] ?? '') === 'bottom-left' ? 'bottom-left' : 'bottom-right',
        'theme' => in_array($input['theme'] ?? '', ['light', 'dark'], true) ? $input['theme'] : 'auto',
        'client_ip' => array_key_exists((string) ($input['client_ip'] ?? ''), ASKBOX_CHOICES['client_ip'][1]) ? (string) $input['client_ip'] : 'socket',
    ] + askbox_sanitize_widget($input, askbox_settings());
    foreach (array_keys(ASKBOX_PROXY_FIELDS + ASKBOX_LIMIT_FIELDS) as $field) {
        $settings[$field] = sanitize_textarea_field((string) ($input[$field] ?? ''));
    }
    // The proxy's own validation (askbox_config) judges the proxy settings: the same rules as the proxy serving them.
    $check = askbox_proxy_options($settings);
    $check['apiKey'] = 'checked-without-the-key';
    $check['botIds'] = ['checkedBot'];
    $check['secret'] = str_repeat('s', 16);
    $check['storeDir'] ??= '/askbox-settings-check';
    try {
        askbox_config($check);
    } catch (InvalidArgumentException $error) {
        add_settings_error('askbox_settings', 'askbox_proxy', sprintf(__('The proxy settings were not saved: %s', 'askbox'), $error->getMessage()));
        $previous = askbox_settings();
        foreach (array_keys(ASKBOX_PROXY_FIELDS + ASKBOX_LIMIT_FIELDS) as $field) {
            $settings[$field] = $previous[$field];
        }
        $settings['client_ip'] = $previous['client_ip'];
    }
    return $settings;
}

/** Settings → Askbox. The key field is a password field that shows only whether a key is saved. */
function askbox_settings_page(): void
{
    if (!current_user_can('manage_options')) {
        return;
    }
    $settings = askbox_settings();
    echo '<div class="wrap"><h1>' . esc_html__('Askbox AI chat', 'askbox') . '</h1><form method="post" action="options.php">';
    settings_fields('askbox');
    echo '<table class="form-table" role="presentation"><tr><th scope="row"><label for="askbox_api_key">' . esc_html__('Cody API key', 'askbox') . '</label></th><td>';
    $placeholder = askbox_api_key() !== '' ? '•••••••• ' . __('saved; leave empty to keep it', 'askbox') : '';
    echo '<input type="password" id="askbox_api_key" name="askbox_settings[api_key]" value="" autocomplete="off" class="regular-text" placeholder="' . esc_attr($placeholder) . '"' . (defined('ASKBOX_CODY_API_KEY') ? ' disabled' : '') . '></td></tr>';
    foreach (ASKBOX_FIELDS as $field => $label) {
        echo '<tr><th scope="row"><label for="askbox_' . esc_attr($field) . '">' . esc_html($label) . '</label></th><td>';
        echo '<input type="text" id="askbox_' . esc_attr($field) . '" name="askbox_settings[' . esc_attr($field) . ']" value="' . esc_attr($settings[$field]) . '" class="regular-text"></td></tr>';
    }
    foreach (ASKBOX_PROXY_FIELDS as $field => [$label, $help]) {
        echo '<tr><th scope="row"><label for="askbox_' . esc_attr($field) . '">' . esc_html($label) . '</label></th><td>';
        echo '<textarea id="askbox_' . esc_attr($field) . '" name="askbox_settings[' . esc_attr($field) . ']" rows="' . ($field === 'allowed_origins' || $field === 'allowed_hosts' ? 3 : 1) . '" class="regular-text">' . esc_html($settings[$field]) . '</textarea>';
        echo '<p class="description">' . esc_html($help) . '</p></td></tr>';
    }
    foreach (ASKBOX_LIMIT_FIELDS as $field => [$label]) {
        echo '<tr><th scope="row"><label for="askbox_' . esc_attr($field) . '">' . esc_html($label) . '</label></th><td>';
        echo '<input type="number" min="0" step="any" id="askbox_' . esc_attr($field) . '" name="askbox_settings[' . esc_attr($field) . ']" value="' . esc_attr($settings[$field]) . '" class="small-text" placeholder="' . esc_attr__('default', 'askbox') . '"></td></tr>';
    }
    foreach (ASKBOX_CHOICES as $field => [$label, $options]) {
        echo '<tr><th scope="row"><label for="askbox_' . esc_attr($field) . '">' . esc_html($label) . '</label></th><td>';
        echo '<select id="askbox_' . esc_attr($field) . '" name="askbox_settings[' . esc_attr($field) . ']">';
        foreach ($options as $value => $text) {
            echo '<option value="' . esc_attr($value) . '"' . ($settings[$field] === $value ? ' selected' : '') . '>' . esc_html($text) . '</option>';
        }
        echo '</select></td></tr>';
    }
    askbox_widget_rows($settings);
    echo '</table>';
    submit_button();
    echo '</form>';
    askbox_feedback_section();
    echo '</div>';
}

/** The widget on every page, once a bot and a key are set. */
function askbox_enqueue(): void
{
    if (askbox_settings()['bot_id'] === '' || askbox_api_key() === '') {
        return;
    }
    wp_enqueue_script('askbox', plugins_url('askbox.js', __FILE__), [], ASKBOX_PLUGIN_VERSION, ['in_footer' => true, 'strategy' => 'async']);
}

/**
 * Adds the widget's data attributes to its script tag. SECURITY: settings and the logged-in user's signed id only,
 * escaped; never the key or a secret.
 */
function askbox_script_tag(string $tag, string $handle): string
{
    if ($handle !== 'askbox') {
        return $tag;
    }
    $settings = askbox_settings();
    $attributes = ['data-bot-id' => $settings['bot_id'], 'data-proxy-url' => untrailingslashit(rest_url(ASKBOX_REST_NAMESPACE))];
    foreach (['title', 'welcome', 'accent', 'position', 'theme'] as $field) {
        if ($settings[$field] !== '') {
            $attributes['data-' . $field] = $settings[$field];
        }
    }
    $attributes += askbox_widget_attributes($settings) + askbox_identity_attributes();
    $data = '';
    foreach ($attributes as $name => $value) {
        $data .= ' ' . $name . '="' . esc_attr($value) . '"';
    }
    return preg_replace('/<script /', '<script' . $data . ' ', $tag, 1) ?? $tag;
}

/**
 * The proxy, served as a REST route: /wp-json/askbox/v1/… It takes every method some route of the contract takes
 * (its `routeMethods`), so WordPress hands each one to the proxy, which then answers 405 per route; a method missing
 * here would be WordPress's own 404 (`rest_no_route`), as DELETE of a conversation once was.
 */
function askbox_rest_init(): void
{
    register_rest_route(ASKBOX_REST_NAMESPACE, '/(?P<path>.*)', [
        'methods' => ASKBOX_CONTRACT['routeMethods'],
        'callback' => 'askbox_rest_serve',
        // The proxy's own policy (grants, limits, origins) guards every route.
        'permission_callback' => '__return_true',
    ]);
}

/** Answers the request with the proxy and ends it: the proxy writes its own status, headers and body. */
function askbox_rest_serve($request): void
{
    askbox_proxy_handle(['requestPath' => $request->get_route()] + askbox_proxy_options(askbox_settings()));
    exit;
}

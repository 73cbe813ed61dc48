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
];

register_activation_hook(__FILE__, 'askbox_activate');
add_action('admin_menu', 'askbox_admin_menu');
add_action('admin_init', 'askbox_admin_init');
add_action('wp_enqueue_scripts', 'askbox_enqueue');
add_filter('script_loader_tag', 'askbox_script_tag', 10, 2);
add_action('rest_api_init', 'askbox_rest_init');

/** A secret for grants, made once: conversations survive updates and restarts. */
function askbox_activate(): void
{
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
    return array_merge(['bot_id' => '', 'title' => '', 'welcome' => '', 'accent' => '', 'position' => 'bottom-right', 'theme' => 'auto'], is_array($saved) ? $saved : []);
}

function askbox_admin_menu(): void
{
    add_options_page('Askbox', 'Askbox', 'manage_options', 'askbox', 'askbox_settings_page');
}

function askbox_admin_init(): void
{
    register_setting('askbox', 'askbox_settings', ['type' => 'array', 'sanitize_callback' => 'askbox_sanitize_settings']);
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
    return [
        'bot_id' => preg_match('/^[A-Za-z0-9_-]{1,64}$/', $bot) ? $bot : '',
        'title' => sanitize_text_field((string) ($input['title'] ?? '')),
        'welcome' => sanitize_textarea_field((string) ($input['welcome'] ?? '')),
        'accent' => preg_match('/^#[0-9a-fA-F]{3,8}$/', (string) ($input['accent'] ?? '')) ? (string) $input['accent'] : '',
        'position' => ($input['position'] ?? '') === 'bottom-left' ? 'bottom-left' : 'bottom-right',
        'theme' => in_array($input['theme'] ?? '', ['light', 'dark'], true) ? $input['theme'] : 'auto',
    ];
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
    foreach (ASKBOX_CHOICES as $field => [$label, $options]) {
        echo '<tr><th scope="row"><label for="askbox_' . esc_attr($field) . '">' . esc_html($label) . '</label></th><td>';
        echo '<select id="askbox_' . esc_attr($field) . '" name="askbox_settings[' . esc_attr($field) . ']">';
        foreach ($options as $value => $text) {
            echo '<option value="' . esc_attr($value) . '"' . ($settings[$field] === $value ? ' selected' : '') . '>' . esc_html($text) . '</option>';
        }
        echo '</select></td></tr>';
    }
    echo '</table>';
    submit_button();
    echo '</form></div>';
}

/** The widget on every page, once a bot and a key are set. */
function askbox_enqueue(): void
{
    if (askbox_settings()['bot_id'] === '' || askbox_api_key() === '') {
        return;
    }
    wp_enqueue_script('askbox', plugins_url('askbox.js', __FILE__), [], ASKBOX_PLUGIN_VERSION, ['in_footer' => true, 'strategy' => 'async']);
}

/** Adds the widget's data attributes to its script tag. SECURITY: settings only, escaped; never the key. */
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
    $data = '';
    foreach ($attributes as $name => $value) {
        $data .= ' ' . $name . '="' . esc_attr($value) . '"';
    }
    return preg_replace('/<script /', '<script' . $data . ' ', $tag, 1) ?? $tag;
}

/** The proxy, served as a REST route: /wp-json/askbox/v1/… */
function askbox_rest_init(): void
{
    register_rest_route(ASKBOX_REST_NAMESPACE, '/(?P<path>.*)', [
        'methods' => ['GET', 'POST'],
        'callback' => 'askbox_rest_serve',
        // The proxy's own policy (grants, limits, origins) guards every route.
        'permission_callback' => '__return_true',
    ]);
}

/** Answers the request with the proxy and ends it: the proxy writes its own status, headers and body. */
function askbox_rest_serve($request): void
{
    $settings = askbox_settings();
    askbox_proxy_handle([
        'apiKey' => askbox_api_key(),
        'botIds' => $settings['bot_id'] !== '' ? [$settings['bot_id']] : [],
        'secret' => (string) get_option('askbox_secret', ''),
        'basePath' => '/' . ASKBOX_REST_NAMESPACE,
        'requestPath' => $request->get_route(),
        'linkBase' => untrailingslashit(rest_url(ASKBOX_REST_NAMESPACE)),
        'authorize' => static fn () => (bool) apply_filters('askbox_authorize', true),
    ]);
    exit;
}

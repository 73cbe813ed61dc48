<?php
// Loads the packaged plugin over the stubs, drives it as WordPress would, and prints what happened as JSON.
// Usage: php smoke.php <plugin folder> [rest <route>]
require __DIR__ . '/stubs.php';
require $argv[1] . '/askbox.php';

if (($argv[2] ?? '') === 'rest') {
    // One REST request through the proxy: it prints its own answer and ends the script.
    $GLOBALS['wp']['options'] = ['askbox_api_key' => 'wp-secret-api-key-123', 'askbox_secret' => str_repeat('s', 64), 'askbox_settings' => ['bot_id' => 'askboxDemo01']];
    $_SERVER['REQUEST_METHOD'] = 'GET';
    $_SERVER['REQUEST_URI'] = '/wp-json/askbox/v1/health';
    $_SERVER['HTTP_HOST'] = $argv[4] ?? 'blog.example';
    $_SERVER['DOCUMENT_ROOT'] = sys_get_temp_dir() . '/askbox-wp/htdocs';
    $route = $GLOBALS['wp']['routes'];
    do_action('rest_api_init');
    $callback = $GLOBALS['wp']['routes'][0]['args']['callback'];
    $callback(new class ($argv[3]) { public function __construct(private string $route) {} public function get_route(): string { return $this->route; } });
}

$report = [];
($GLOBALS['wp']['activation'])();
$secret = get_option('askbox_secret');
($GLOBALS['wp']['activation'])();
$report['secret_length'] = strlen($secret);
$report['secret_kept'] = get_option('askbox_secret') === $secret;
$identitySecret = get_option('askbox_identity_secret');
$report['identity_secret'] = [strlen($identitySecret), $GLOBALS['wp']['autoload']['askbox_identity_secret'], $identitySecret !== $secret];
$report['hooks'] = array_keys($GLOBALS['wp']['actions']);
// The ratings table: made on activation, again on a load whose recorded version differs (an update in place).
$report['db_version'] = get_option('askbox_db_version');
update_option('askbox_db_version', '0');
do_action('plugins_loaded');
do_action('plugins_loaded');
// From version 1, whose table may hold two rows for one rating: the older go before the unique key is added.
update_option('askbox_db_version', '1');
do_action('plugins_loaded');
$report['dbdelta'] = $GLOBALS['wp']['dbdelta'];
$report['people_db_version'] = get_option('askbox_people_db_version');
// An update in place from a version without the conversations table: the next load makes it.
delete_option('askbox_people_db_version');
do_action('plugins_loaded');
$report['people_dbdelta'] = array_slice($GLOBALS['wp']['dbdelta'], count($report['dbdelta']));
$report['db_queries'] = $GLOBALS['wpdb']->queries;
$GLOBALS['wpdb']->queries = [];

do_action('admin_menu');
do_action('admin_init');
$report['page'] = $GLOBALS['wp']['pages'][0][2] ?? null;
$sanitize = $GLOBALS['wp']['settings']['askbox_settings']['sanitize_callback'];

// Nothing is enqueued before a bot and a key are set.
do_action('wp_enqueue_scripts');
$report['enqueued_unconfigured'] = isset($GLOBALS['wp']['scripts']['askbox']);

$saved = $sanitize(['api_key' => 'wp-secret-api-key-123', 'bot_id' => 'askboxDemo01', 'title' => '<b>Help</b> desk', 'accent' => '#0b57d0', 'position' => 'bottom-left', 'theme' => 'nope', 'welcome' => 'Hi "there"']);
update_option('askbox_settings', $saved);
$report['settings'] = $saved;
$report['key_saved'] = get_option('askbox_api_key');
$report['key_autoload'] = $GLOBALS['wp']['autoload']['askbox_api_key'];
$again = $sanitize(['api_key' => '', 'bot_id' => 'bad id!']);
$report['key_after_empty'] = get_option('askbox_api_key');
$report['bad_bot'] = $again['bot_id'];
$GLOBALS['wp']['can'] = false;
$sanitize(['api_key' => 'attacker-key']);
$report['key_after_unprivileged'] = get_option('askbox_api_key');
$GLOBALS['wp']['can'] = true;

// The proxy settings: turned into the proxy's options, judged by the proxy's own validation, open to a filter.
$proxy = $sanitize(['bot_id' => 'askboxDemo01', 'client_ip' => 'x-forwarded-for', 'trusted_hops' => '2', 'allowed_origins' => "https://shop.example\nhttps://docs.example:8443", 'allowed_hosts' => 'www.blog.example', 'ip_per_day' => '500', 'visitor_burst' => '4']);
$report['proxy_settings'] = $proxy;
$report['proxy_errors'] = $GLOBALS['wp']['errors'] ?? [];
update_option('askbox_settings', $proxy);
$options = askbox_proxy_options(askbox_settings());
unset($options['authorize']);
$report['proxy_options'] = $options;
$report['proxy_cf'] = askbox_proxy_options(['client_ip' => 'cf-connecting-ip', 'public_url' => 'https://chat.blog.example'] + askbox_settings())['clientIp'];
foreach ([['allowed_origins' => 'https://shop.example/'], ['client_ip' => 'x-forwarded-for', 'trusted_hops' => '0'], ['public_url' => 'blog.example'], ['ip_per_day' => '0'], ['visitor_per_minute' => 'lots'], ['allowed_hosts' => 'evil.example/path']] as $i => $bad) {
    $GLOBALS['wp']['errors'] = [];
    $kept = $sanitize(['bot_id' => 'askboxDemo01', 'title' => "Title $i"] + $bad);
    $fields = array_flip([...array_keys(ASKBOX_PROXY_FIELDS + ASKBOX_LIMIT_FIELDS), 'client_ip']);
    $report['refused'][] = ['errors' => $GLOBALS['wp']['errors'], 'kept' => array_intersect_key($kept, $fields) === array_intersect_key($proxy, $fields), 'title' => $kept['title']];
}
add_filter('askbox_proxy_options', static fn (array $o) => ['storeDir' => '/srv/askbox-store', 'allowedOrigins' => [...$o['allowedOrigins'], 'https://app.example']] + $o);
$filtered = askbox_proxy_options(askbox_settings());
$report['filtered'] = [$filtered['storeDir'], $filtered['allowedOrigins']];
update_option('askbox_settings', $saved);
$GLOBALS['wp']['filters']['askbox_proxy_options'] = [];

// The widget's page rules, "Talk to a person", the consent text and proof of work, checked with the widget's rules.
$GLOBALS['wp']['errors'] = [];
$widget = $sanitize(['bot_id' => 'askboxDemo01', 'show_on' => "/help/*, /docs/*\n/faq", 'hide_on' => '/help/private/*', 'handoff_url' => ' https://help.example/contact?from=chat&lang=en%20GB ', 'handoff_email' => 'help@shop.example', 'handoff_param' => 'ticket', 'consent' => " I agree to the [privacy policy](https://shop.example/privacy?a=1&b=%20).\n\n\"Really\" <b>now</b>. ", 'stylesheet' => ' /wp-content/themes/shop/askbox.css?v="2"&x ', 'proof_of_work' => '1']);
$report['widget_errors'] = $GLOBALS['wp']['errors'];
$report['widget_settings'] = array_intersect_key($widget, ASKBOX_WIDGET_FIELDS + ['proof_of_work' => 1]);
update_option('askbox_settings', $widget);
$report['widget_tag'] = apply_filters('script_loader_tag', '<script src="askbox.js"></script>', 'askbox');
$report['widget_pow'] = askbox_proxy_options(askbox_settings())['proofOfWork'] ?? null;
ob_start();
askbox_settings_page();
$report['widget_page'] = ob_get_clean();
$refused = $sanitize(['bot_id' => 'askboxDemo01', 'show_on' => '/ok/*, help', 'hide_on' => '/shop?x', 'handoff_url' => 'https://new.example', 'handoff_email' => "help@shop.example?cc=evil@x.example", 'handoff_param' => 'ticket', 'consent' => str_repeat('c', 1001), 'stylesheet' => 'javascript:alert(1)']);
$report['widget_refused'] = [$GLOBALS['wp']['errors'], array_intersect_key($refused, ASKBOX_WIDGET_FIELDS + ['proof_of_work' => 1])];
// The greeting: its text and delay checked with the contract's WIDGET_RULES, printed as data-greeting(-delay).
$GLOBALS['wp']['errors'] = [];
$greeted = $sanitize(['bot_id' => 'askboxDemo01', 'greeting' => ' Questions about "delivery"? <b>Ask</b> me. ', 'greeting_delay' => '2.5', 'greeting_show_on' => "/products/*\n/help/*", 'greeting_hide_on' => '/products/secret/*']);
update_option('askbox_settings', $greeted);
$report['greeting'] = [$GLOBALS['wp']['errors'], array_intersect_key($greeted, ASKBOX_GREETING_FIELDS), apply_filters('script_loader_tag', '<script src="askbox.js"></script>', 'askbox')];
$GLOBALS['wp']['errors'] = [];
$tooLong = $sanitize(['bot_id' => 'askboxDemo01', 'greeting' => str_repeat('x', ASKBOX_CONTRACT['widgetRules']['greetingMax'] + 1), 'greeting_delay' => '0', 'greeting_show_on' => '/shop?x', 'greeting_hide_on' => 'checkout']);
$report['greeting_refused'] = [$GLOBALS['wp']['errors'], array_intersect_key($tooLong, ASKBOX_GREETING_FIELDS)];
update_option('askbox_settings', $saved);
$report['no_pow'] = array_key_exists('proofOfWork', askbox_proxy_options(askbox_settings()));

// Ratings: the proxy's onFeedback stores them; the page lists the latest, escaped, to managers only.
$onFeedback = askbox_proxy_options(askbox_settings())['onFeedback'];
$report['feedback_callable'] = $onFeedback;
for ($i = 1; $i <= 52; $i++) {
    $onFeedback(['conversationId' => "conv$i", 'messageId' => "msg$i", 'rating' => 'up', 'visitorId' => 'visitor-raw-id']);
}
// As the widget sends a thumbs-down with a comment: the rating at once, then again with the comment; the two may
// arrive in either order, so the rating alone comes last here too.
$onFeedback(['conversationId' => 'convLast', 'messageId' => 'msgLast', 'rating' => 'down', 'visitorId' => 'visitor-raw-id']);
$onFeedback(['conversationId' => 'convLast', 'messageId' => 'msgLast', 'rating' => 'down', 'comment' => 'Too <b>vague</b> & "long"', 'visitorId' => 'visitor-raw-id']);
$onFeedback(['conversationId' => 'convLast', 'messageId' => 'msgLast', 'rating' => 'down', 'visitorId' => 'visitor-raw-id']);
$report['feedback_sql'] = end($GLOBALS['wpdb']->queries);
$report['feedback_last'] = end($GLOBALS['wpdb']->rows);
$report['feedback_rows_of_last'] = count(array_filter($GLOBALS['wpdb']->rows, static fn ($row) => $row['message_id'] === 'msgLast'));
// Another visitor's rating of the same reply is a row of its own.
$onFeedback(['conversationId' => 'convLast', 'messageId' => 'msgLast', 'rating' => 'up', 'visitorId' => 'another-visitor']);
$report['feedback_rows_of_last_two_visitors'] = count(array_filter($GLOBALS['wpdb']->rows, static fn ($row) => $row['message_id'] === 'msgLast'));
array_pop($GLOBALS['wpdb']->rows); // so that the listing below starts with the commented rating
$GLOBALS['wpdb']->fail = true;
try {
    $onFeedback(['conversationId' => 'c', 'messageId' => 'm', 'rating' => 'up', 'visitorId' => 'v']);
    $report['feedback_failure'] = null;
} catch (RuntimeException $error) {
    $report['feedback_failure'] = $error->getMessage();
}
$GLOBALS['wpdb']->fail = false;

ob_start();
askbox_settings_page();
$report['settings_page'] = ob_get_clean();

$report['feedback_query'] = end($GLOBALS['wpdb']->queries);
$GLOBALS['wp']['can'] = false;
ob_start();
askbox_settings_page();
$report['settings_page_unprivileged'] = ob_get_clean();

// A visitor deleted a conversation: the proxy's onDelete erases its ratings, and only its.
$onDelete = askbox_proxy_options(askbox_settings())['onDelete'];
$report['delete_callable'] = $onDelete;
$rows = count($GLOBALS['wpdb']->rows);
$onDelete(['conversationId' => 'conv2', 'visitorId' => 'visitor-raw-id']);
$report['delete_query'] = end($GLOBALS['wpdb']->queries);
$report['deleted_rows'] = $rows - count($GLOBALS['wpdb']->rows);
$report['conv2_left'] = count(array_filter($GLOBALS['wpdb']->rows, static fn ($row) => $row['conversation_id'] === 'conv2'));
$GLOBALS['wp']['can'] = true;

do_action('wp_enqueue_scripts');
$report['script'] = $GLOBALS['wp']['scripts']['askbox'] ?? null;
$report['tag'] = apply_filters('script_loader_tag', '<script src="https://blog.example/wp-content/plugins/askbox/askbox.js" id="askbox-js" async></script>', 'askbox');
$report['other_tag'] = apply_filters('script_loader_tag', '<script src="x.js"></script>', 'jquery');

// Signed-in visitors: a logged-in user's tag carries their id and its HMAC with the identity secret, never the secret.
$GLOBALS['wp']['user'] = 7;
$tag = static fn () => apply_filters('script_loader_tag', '<script src="askbox.js"></script>', 'askbox');
$report['user_tag'] = $tag();
$report['user_hash'] = hash_hmac('sha256', 'wp-7', $identitySecret);
putenv('ASKBOX_IDENTITY_SECRET=identity-secret-from-the-environment');
$report['user_tag_env'] = $tag();
putenv('ASKBOX_IDENTITY_SECRET');
$options = askbox_proxy_options(askbox_settings());
$report['identity_options'] = [$options['identitySecret'] === $identitySecret, get_class($options['people'])];
$GLOBALS['wp']['user'] = 0;
$report['visitor_tag'] = $tag();
// The people store's statements, prepared; a refused one fails closed.
$GLOBALS['wpdb']->queries = [];
$options['people']->add('u-' . str_repeat('a', 40), ['id' => 'conv1', 'bot_id' => 'askboxDemo01', 'name' => "O'Brien", 'created_at' => '2026-01-01T00:00:00.000Z']);
$options['people']->remove('u-' . str_repeat('a', 40), 'conv1');
do_action('deleted_user', 7);
$report['people_queries'] = $GLOBALS['wpdb']->queries;
$report['user_person'] = askbox_person_key($identitySecret, 'wp-7');
$GLOBALS['wpdb']->fail = true;
try {
    $options['people']->add('u-' . str_repeat('a', 40), ['id' => 'conv1', 'bot_id' => 'b', 'name' => 'n', 'created_at' => 't']);
    $report['people_failure'] = null;
} catch (AskboxStoreError $error) {
    $report['people_failure'] = $error->getMessage();
}
$GLOBALS['wpdb']->fail = false;

do_action('rest_api_init');
$report['routes'] = array_map(static fn ($r) => ['namespace' => $r['namespace'], 'route' => $r['route'], 'methods' => $r['args']['methods'], 'permission' => $r['args']['permission_callback']], $GLOBALS['wp']['routes']);
// Plugins → Delete: WordPress runs uninstall.php alone.
define('WP_UNINSTALL_PLUGIN', 'askbox/askbox.php');
require $argv[1] . '/uninstall.php';
$report['uninstalled'] = [array_slice($GLOBALS['wpdb']->queries, -2), array_keys($GLOBALS['wp']['options'])];
echo json_encode($report, JSON_UNESCAPED_SLASHES);

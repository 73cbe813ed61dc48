<?php
/**
 * Plugins → Delete: WordPress runs this file alone (the plugin is not loaded). Removes what the plugin made: the
 * ratings table and its options, the API key and the grant secret among them.
 */

if (!defined('WP_UNINSTALL_PLUGIN')) {
    exit;
}

global $wpdb;
// The table name is the site's prefix and a constant: nothing here comes from a request.
$wpdb->query('DROP TABLE IF EXISTS ' . $wpdb->prefix . 'askbox_feedback');
foreach (['askbox_settings', 'askbox_api_key', 'askbox_secret', 'askbox_db_version'] as $option) {
    delete_option($option);
}

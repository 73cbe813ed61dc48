<?php
/**
 * Plugins → Delete: WordPress runs this file alone (the plugin is not loaded). Removes what the plugin made: the
 * ratings table, the signed-in people's conversations table and their options, the API key and both secrets among them.
 */

if (!defined('WP_UNINSTALL_PLUGIN')) {
    exit;
}

global $wpdb;
// The table name is the site's prefix and a constant: nothing here comes from a request.
$wpdb->query('DROP TABLE IF EXISTS ' . $wpdb->prefix . 'askbox_feedback');
$wpdb->query('DROP TABLE IF EXISTS ' . $wpdb->prefix . 'askbox_conversations');
foreach (['askbox_settings', 'askbox_api_key', 'askbox_secret', 'askbox_db_version', 'askbox_identity_secret', 'askbox_people_db_version'] as $option) {
    delete_option($option);
}

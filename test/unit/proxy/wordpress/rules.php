<?php
// Judges each case on stdin ([field, value] pairs, JSON) with the plugin's copies of the widget's rules and prints
// whether each is accepted (JSON). Usage: php rules.php <plugin folder> < cases.json
require __DIR__ . '/stubs.php';
// The wire contract (ASKBOX_CONTRACT), which the consent text's and the greeting's bounds come from.
require $argv[1] . '/askbox-proxy.php';
require $argv[1] . '/widget-rules.php';

$cases = json_decode((string) file_get_contents('php://stdin'), true, 512, JSON_THROW_ON_ERROR);
echo json_encode(array_map(static function (array $case): bool {
    [$field, $value] = $case;
    if ($field === 'show_on') return askbox_path_patterns($value)[1] === [];
    if ($field === 'greeting' || $field === 'greeting_delay') return askbox_greeting_valid($field, $value);
    if ($field === 'consent') return askbox_consent_valid($value);
    // The stylesheet's rule on a site served over https, and on one served over http (a local install).
    if ($field === 'stylesheet') return askbox_trim($value) === '' || askbox_stylesheet_valid($value, 'https://blog.example');
    if ($field === 'stylesheet_http') return askbox_trim($value) === '' || askbox_stylesheet_valid($value, 'http://localhost:8080');
    $trimmed = askbox_trim($value);
    return $trimmed === '' || askbox_handoff_valid($field, $value);
}, $cases));

<?php
/**
 * The widget's page rules, "Talk to a person", consent, greeting and custom stylesheet settings: checked on save
 * with the widget's own rules, so that a value the widget would refuse is not saved. The page rules, the handoff's
 * and the stylesheet's live in the widget's launcher (src/config/paths.ts) and chat file (src/config/handoff.ts,
 * src/config/stylesheet.ts), not in the wire contract: moving them there would add bytes to the launcher; the
 * consent text's and the greeting's bounds are the contract's (WIDGET_RULES). Their copies below are held to the
 * TypeScript ones by test/unit/proxy/wordpress/askbox/widget-rules.test.ts over a table of cases.
 */

if (!defined('ABSPATH')) {
    exit;
}

/** The settings: field => [label, help, data attribute]. */
const ASKBOX_WIDGET_FIELDS = [
    'show_on' => ['Show only on', 'Path patterns, one per line or separated by commas, e.g. /help/* (empty: every page). A * stands for any characters.', 'data-show-on'],
    'hide_on' => ['Hide on', 'Path patterns of pages the chat stays off, e.g. /checkout/*; wins over "Show only on".', 'data-hide-on'],
    'handoff_url' => ['Talk to a person: URL', 'A contact page or helpdesk (http or https), opened in a new tab.', 'data-handoff-url'],
    'handoff_email' => ['Talk to a person: email', 'Without a URL: an address the visitor writes to, with the conversation.', 'data-handoff-email'],
    'handoff_param' => ['Talk to a person: URL parameter', 'A query parameter the URL gets the conversation id in, e.g. ticket.', 'data-handoff-param'],
    'consent' => ['Consent before the first message', 'Markdown the visitor accepts before chatting, e.g. with a link to your privacy policy; nothing is sent or stored before. Empty: no consent step.', 'data-consent'],
    'stylesheet' => ['Custom stylesheet URL', "Your CSS for the chat, applied after its own: a path on this site (e.g. /wp-content/themes/yours/askbox.css), or an https URL on another site that serves it with CORS. Style the chat's parts from your theme with askbox-widget::part(header) and the like.", 'data-stylesheet'],
];

/** The settings that hold path patterns (the widget's page rules and the greeting's), one per line when saved. */
const ASKBOX_PAGE_RULE_FIELDS = ['show_on', 'hide_on', 'greeting_show_on', 'greeting_hide_on'];

/**
 * The greeting's settings: field => [label, help, data attribute]. Checked with the wire contract's WIDGET_RULES
 * (`greetingMax`, `greetingDelay`), which the widget's parser holds too.
 */
const ASKBOX_GREETING_FIELDS = [
    'greeting' => ['Greeting', 'A short line shown beside the closed launcher after the delay, e.g. Questions about delivery? Ask me. (at most %d characters; empty: none). Opening the chat shows it as the first message.', 'data-greeting'],
    'greeting_delay' => ['Greeting delay (seconds)', 'Seconds on a page before the greeting shows, from %d to %d (empty: %d).', 'data-greeting-delay'],
    'greeting_show_on' => ['Greeting only on', 'Path patterns as for "Show only on": the pages the greeting shows on (empty: every page the chat shows on).', 'data-greeting-show-on'],
    'greeting_hide_on' => ['Greeting not on', 'Path patterns of pages the greeting stays off, e.g. /checkout/*; wins over "Greeting only on".', 'data-greeting-hide-on'],
];

/**
 * JavaScript's \s (its WhiteSpace and LineTerminator), which String.prototype.trim and the widget's splits use; PCRE's
 * \s differs (it takes U+0085, not U+FEFF).
 */
const ASKBOX_JS_SPACE = '\t\n\x{0B}\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}';

/**
 * src/config/handoff.ts's RULES, and src/config/parse.ts's LINK for the URL. JavaScript's \w is ASCII, spelled out
 * here; \z, not $: PHP's $ also matches before a final newline. The URL's length (≤ 2000 after the scheme) is in
 * UTF-16 units, as JavaScript counts: see askbox_handoff_valid.
 */
const ASKBOX_HANDOFF_RULES = [
    'handoff_url' => '~^https?://[^' . ASKBOX_JS_SPACE . '"\'<>\\\\]+\z~iu',
    'handoff_email' => '~^[A-Za-z0-9_.+-]{1,64}@[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+\z~',
    'handoff_param' => '~^[A-Za-z0-9_-]{1,64}\z~',
];

/**
 * The patterns in `$text` and those the widget would refuse, as parsePaths (src/config/paths.ts) reads them:
 * separated by commas or white space; each starts with / or * and holds none of ? # : ( ) { } \ (URLPattern syntax,
 * or a query or fragment). Text that is not UTF-8 is refused whole.
 *
 * @return array{0: list<string>, 1: list<string>} [patterns, refused]
 */
function askbox_path_patterns(string $text): array
{
    $patterns = preg_split('/[' . ASKBOX_JS_SPACE . ',]+/u', $text, -1, PREG_SPLIT_NO_EMPTY);
    if ($patterns === false) return [[], [$text]];
    $refused = array_values(array_filter($patterns, static fn (string $p) => !preg_match('~^[/*]~', $p) || preg_match('~[?#:(){}\\\\]~', $p)));
    return [$patterns, $refused];
}

/** `$value` trimmed of Unicode white space, as String.prototype.trim does; null when it is not UTF-8. */
function askbox_trim(string $value): ?string
{
    return preg_replace('/^[' . ASKBOX_JS_SPACE . ']+|[' . ASKBOX_JS_SPACE . ']+\z/u', '', $value);
}

/**
 * Whether the widget takes `$value` for data-stylesheet on the pages of `$home` (the site's address), as
 * src/config/stylesheet.ts's stylesheetUrl: a relative URL (on the page's origin), an https URL with a host name, or
 * http on the page's own origin; no white space, backslash or control character, no `//host`, at most 2000 UTF-16
 * units. Trimmed first, as the widget does.
 */
function askbox_stylesheet_valid(string $value, string $home): bool
{
    $url = askbox_trim($value);
    if ($url === null || $url === '') return false;
    $units = preg_match_all('/./su', $url) + preg_match_all('/[\x{10000}-\x{10FFFF}]/u', $url);
    if ($units > 2000 || preg_match('~[' . ASKBOX_JS_SPACE . '\\\\\x{00}-\x{1F}\x{7F}]|^//~u', $url)) return false;
    if (!preg_match('~^[a-z][a-z0-9+.-]*:~i', $url)) return true;
    if (!preg_match('~^(https?)://((?:[a-z0-9-]+\.)*(?=[0-9-]*[a-z])[a-z0-9-]+)(?::([0-9]{1,5}))?(?:[/?#]|\z)~i', $url, $m)) return false;
    $scheme = strtolower($m[1]);
    $port = isset($m[3]) ? (int) $m[3] : ($scheme === 'https' ? 443 : 80);
    if ($port > 65535) return false;
    if ($scheme === 'https') return true;
    // http: only on the page's own origin.
    $page = parse_url($home);
    $pagePort = $page['port'] ?? 80;
    return ($page['scheme'] ?? '') === 'http' && strtolower($page['host'] ?? '') === strtolower($m[2]) && $pagePort === $port;
}

/** Whether the widget takes `$value` for the handoff setting `$field` (as its parseHandoff: trimmed first). */
function askbox_handoff_valid(string $field, string $value): bool
{
    $trimmed = askbox_trim($value);
    if ($trimmed === null || preg_match(ASKBOX_HANDOFF_RULES[$field], $trimmed) !== 1) return false;
    if ($field !== 'handoff_url') return true;
    // UTF-16 units: a code point beyond U+FFFF counts two.
    $units = preg_match_all('/./su', $trimmed) + preg_match_all('/[\x{10000}-\x{10FFFF}]/u', $trimmed);
    return $units - strlen(strstr($trimmed, '//', true) . '//') <= 2000;
}

/**
 * Whether the widget takes `$value` for the greeting setting `$field`, as its parseConfig reads it: trimmed, empty
 * is not set; the text at most `greetingMax` characters (code points), the delay a number of seconds within
 * `greetingDelay`. (The widget's Number() also reads 0x10 as 16: a settings page refuses it.)
 */
function askbox_greeting_valid(string $field, string $value): bool
{
    $trimmed = askbox_trim($value);
    if ($trimmed === null) return false;
    if ($trimmed === '') return true;
    $rules = ASKBOX_CONTRACT['widgetRules'];
    if ($field === 'greeting') return preg_match_all('/./su', $trimmed) <= $rules['greetingMax'];
    return is_numeric($trimmed) && (float) $trimmed >= $rules['greetingDelay']['min'] && (float) $trimmed <= $rules['greetingDelay']['max'];
}

/**
 * Whether the widget takes `$value` as its consent text (`data-consent`): trimmed as the widget trims it, at most
 * WIDGET_RULES.consentMax characters (code points, as the widget counts them). Text that is not UTF-8 is refused.
 */
function askbox_consent_valid(string $value): bool
{
    $trimmed = askbox_trim($value);
    return $trimmed !== null && preg_match_all('/./su', $trimmed) <= ASKBOX_CONTRACT['widgetRules']['consentMax'];
}

/**
 * The widget settings of `$input`, checked. A refused field keeps its previous value (`$previous`) and is named in a
 * settings error; the handoff's three go together, as the widget leaves "Talk to a person" out when one is wrong. A
 * consent text too long keeps the previous one too: emptied, it would take the consent step away.
 * Values are taken raw, not through sanitize_text_field (which would strip a URL's %XX): the rules admit no
 * markup-breaking character where it matters, and the output is escaped. SECURITY: the consent text is Markdown and
 * may hold anything; it is escaped into its attribute, and the widget renders it through its reply sanitiser.
 */
function askbox_sanitize_widget(array $input, array $previous): array
{
    $settings = [];
    $refused = [];
    foreach (ASKBOX_PAGE_RULE_FIELDS as $field) {
        [$patterns, $bad] = askbox_path_patterns((string) ($input[$field] ?? ''));
        if ($bad === []) {
            $settings[$field] = implode("\n", $patterns);
        } else {
            $settings[$field] = $previous[$field];
            $label = (ASKBOX_WIDGET_FIELDS + ASKBOX_GREETING_FIELDS)[$field][0];
            $refused[] = sprintf(__('%1$s: "%2$s" is not a path pattern such as /checkout/*', 'askbox'), $label, implode('", "', $bad));
        }
    }
    $handoff = [];
    $handoffBad = [];
    foreach (array_keys(ASKBOX_HANDOFF_RULES) as $field) {
        $given = (string) ($input[$field] ?? '');
        $value = askbox_trim($given) ?? $given;
        if ($value !== '' && !askbox_handoff_valid($field, $value)) $handoffBad[] = ASKBOX_WIDGET_FIELDS[$field][0];
        $handoff[$field] = $value;
    }
    if ($handoffBad !== []) {
        $handoff = array_intersect_key($previous, ASKBOX_HANDOFF_RULES);
        $refused[] = sprintf(__('%s: not saved, the value is not valid', 'askbox'), implode(', ', $handoffBad));
    }
    foreach (['greeting', 'greeting_delay'] as $field) {
        $given = sanitize_text_field((string) ($input[$field] ?? ''));
        $value = askbox_trim($given) ?? $given;
        if (askbox_greeting_valid($field, $value)) {
            $settings[$field] = $value;
        } else {
            $settings[$field] = $previous[$field];
            $refused[] = sprintf(__('%s: not saved, the value is not valid', 'askbox'), ASKBOX_GREETING_FIELDS[$field][0]);
        }
    }
    $consent = (string) ($input['consent'] ?? '');
    if (askbox_consent_valid($consent)) {
        $settings['consent'] = askbox_trim($consent);
    } else {
        $settings['consent'] = $previous['consent'];
        $refused[] = sprintf(__('%1$s: not saved, it is longer than %2$d characters', 'askbox'), ASKBOX_WIDGET_FIELDS['consent'][0], ASKBOX_CONTRACT['widgetRules']['consentMax']);
    }
    $given = (string) ($input['stylesheet'] ?? '');
    $stylesheet = askbox_trim($given) ?? $given;
    if ($stylesheet === '' || askbox_stylesheet_valid($stylesheet, home_url())) {
        $settings['stylesheet'] = $stylesheet;
    } else {
        $settings['stylesheet'] = $previous['stylesheet'];
        $refused[] = sprintf(__('%s: not saved, use a path on this site or an https URL', 'askbox'), ASKBOX_WIDGET_FIELDS['stylesheet'][0]);
    }
    foreach ($refused as $message) {
        add_settings_error('askbox_settings', 'askbox_widget', $message);
    }
    return $settings + $handoff + ['proof_of_work' => !empty($input['proof_of_work']) ? '1' : ''];
}

/**
 * The widget's data attributes from these settings (page rules, handoff, greeting and its page rules): the patterns
 * space-separated, as the widget splits them.
 */
function askbox_widget_attributes(array $settings): array
{
    $attributes = [];
    foreach (ASKBOX_WIDGET_FIELDS + ASKBOX_GREETING_FIELDS as $field => [, , $attribute]) {
        $value = in_array($field, ASKBOX_PAGE_RULE_FIELDS, true) ? str_replace("\n", ' ', $settings[$field]) : $settings[$field];
        if ($value !== '') $attributes[$attribute] = $value;
    }
    return $attributes;
}

/** The settings page's rows for them. SECURITY: every value escaped. */
function askbox_widget_rows(array $settings): void
{
    foreach (ASKBOX_WIDGET_FIELDS as $field => [$label, $help]) {
        $id = 'askbox_' . $field;
        echo '<tr><th scope="row"><label for="' . esc_attr($id) . '">' . esc_html($label) . '</label></th><td>';
        if ($field === 'show_on' || $field === 'hide_on' || $field === 'consent') {
            $rows = $field === 'consent' ? 4 : 2;
            echo '<textarea id="' . esc_attr($id) . '" name="askbox_settings[' . esc_attr($field) . ']" rows="' . $rows . '" class="regular-text">' . esc_html($settings[$field]) . '</textarea>';
        } else {
            echo '<input type="text" id="' . esc_attr($id) . '" name="askbox_settings[' . esc_attr($field) . ']" value="' . esc_attr($settings[$field]) . '" class="regular-text">';
        }
        echo '<p class="description">' . esc_html($help) . '</p></td></tr>';
    }
    $rules = ASKBOX_CONTRACT['widgetRules'];
    $delay = $rules['greetingDelay'];
    foreach (ASKBOX_GREETING_FIELDS as $field => [$label, $help]) {
        $id = 'askbox_' . $field;
        echo '<tr><th scope="row"><label for="' . esc_attr($id) . '">' . esc_html($label) . '</label></th><td>';
        if ($field === 'greeting') {
            echo '<input type="text" id="' . esc_attr($id) . '" name="askbox_settings[greeting]" value="' . esc_attr($settings[$field]) . '" maxlength="' . esc_attr($rules['greetingMax']) . '" class="regular-text">';
            $help = sprintf($help, $rules['greetingMax']);
        } elseif (in_array($field, ASKBOX_PAGE_RULE_FIELDS, true)) {
            echo '<textarea id="' . esc_attr($id) . '" name="askbox_settings[' . esc_attr($field) . ']" rows="2" class="regular-text">' . esc_html($settings[$field]) . '</textarea>';
        } else {
            echo '<input type="number" id="' . esc_attr($id) . '" name="askbox_settings[greeting_delay]" value="' . esc_attr($settings[$field]) . '" min="' . esc_attr($delay['min']) . '" max="' . esc_attr($delay['max']) . '" step="any" class="small-text" placeholder="' . esc_attr($delay['default']) . '">';
            $help = sprintf($help, $delay['min'], $delay['max'], $delay['default']);
        }
        echo '<p class="description">' . esc_html($help) . '</p></td></tr>';
    }
    echo '<tr><th scope="row"><label for="askbox_proof_of_work">' . esc_html__('Proof of work', 'askbox') . '</label></th><td>';
    echo '<input type="checkbox" id="askbox_proof_of_work" name="askbox_settings[proof_of_work]" value="1"' . ($settings['proof_of_work'] === '1' ? ' checked' : '') . '>';
    echo '<p class="description">' . esc_html__("Each new conversation costs the visitor's browser a moment of work: slows scripted abuse.", 'askbox') . '</p></td></tr>';
}

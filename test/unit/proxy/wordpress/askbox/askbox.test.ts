import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { IDENTITY, ROUTE_METHODS, ROUTES, TRUSTED_HOPS, WIDGET_RULES } from '../../../../../src/protocol/contract';
import { freshBuild } from '../../../../helpers/build';
import { requirePhp } from '../../../../helpers/php';

const PLUGIN = fileURLToPath(new URL('../../../../../dist/wordpress/askbox', import.meta.url));
const SMOKE = fileURLToPath(new URL('../smoke.php', import.meta.url));
const KEY = 'wp-secret-api-key-123';

/** Runs the smoke driver over the packaged plugin (npm run build makes dist/wordpress/askbox). */
function run(...args: string[]): string {
  requirePhp();
  freshBuild('dist/wordpress/askbox/askbox.php');
  const result = spawnSync('php', ['-d', 'display_errors=stderr', SMOKE, PLUGIN, ...args], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

describe('WordPress plugin (hooks stubbed)', () => {
  it('passes php -l on every PHP file it ships', () => {
    requirePhp();
    for (const file of readdirSync(PLUGIN).filter((f) => f.endsWith('.php'))) {
      const lint = spawnSync('php', ['-l', `${PLUGIN}/${file}`], { encoding: 'utf8' });
      expect(lint.status, lint.stdout).toBe(0);
    }
    expect(readdirSync(PLUGIN).sort()).toEqual([
      expect.stringMatching(/^askbox-chat\.[\w-]+\.js$/),
      // The chat file's add-ons, from next to it: nothing in the plugin names them.
      expect.stringMatching(/^askbox-code\.[\w-]+\.js$/),
      'askbox-debug.js',
      // The greeting's file, which askbox.js loads from next to itself when a greeting is set and due.
      expect.stringMatching(/^askbox-greeting\.[\w-]+\.js$/),
      'askbox-locales',
      expect.stringMatching(/^askbox-math\.[\w-]+\.js$/),
      'askbox-proxy.php',
      'askbox.js',
      'askbox.php',
      'feedback.php',
      'identity.php',
      'readme.txt',
      'uninstall.php',
      'widget-rules.php',
    ]);
    // The script fetches its locale packs from next to itself.
    expect(readdirSync(`${PLUGIN}/askbox-locales`)).toHaveLength(11);
  });

  it('keeps the key server-side: its own option, never printed, kept when the field is left empty', () => {
    const report = JSON.parse(run()) as Record<string, unknown>;
    expect(report.key_saved).toBe(KEY);
    expect(report.key_autoload).toBe(false);
    expect(report.key_after_empty).toBe(KEY);
    expect(report.key_after_unprivileged).toBe(KEY);
    expect(report.settings).not.toHaveProperty('api_key');
    expect(report.settings_page).toContain('saved; leave empty to keep it');
    expect(report.settings_page).not.toContain(KEY);
    expect(report.tag).not.toContain(KEY);
  });

  it('makes a secret once, and registers its settings page, hooks and REST route', () => {
    const report = JSON.parse(run()) as Record<string, unknown>;
    expect(report.secret_length).toBe(64);
    expect(report.secret_kept).toBe(true);
    expect(report.hooks).toEqual([
      'admin_menu',
      'admin_init',
      'wp_enqueue_scripts',
      'rest_api_init',
      'plugins_loaded',
      'deleted_user',
    ]);
    expect(report.page).toBe('manage_options');
    expect(report.routes).toEqual([
      { namespace: 'askbox/v1', route: '/(?P<path>.*)', methods: ROUTE_METHODS, permission: '__return_true' },
    ]);
  });

  it('registers every method of the route table, so WordPress hands each to the proxy (DELETE too)', () => {
    const [route] = (JSON.parse(run()) as { routes: { methods: string[] }[] }).routes;
    for (const [name, { methods }] of Object.entries(ROUTES))
      for (const method of methods) expect(route!.methods, `${name}: ${method}`).toContain(method);
  });

  it('enqueues the widget only once configured, with escaped data attributes', () => {
    const report = JSON.parse(run()) as Record<string, unknown>;
    expect(report.enqueued_unconfigured).toBe(false);
    expect(report.script).toEqual({
      src: 'https://blog.example/wp-content/plugins/askbox/askbox.js',
      version: '0.1.0',
      args: { in_footer: true, strategy: 'async' },
    });
    expect(report.tag).toBe(
      '<script data-bot-id="askboxDemo01" data-proxy-url="https://blog.example/wp-json/askbox/v1" data-title="Help desk" data-welcome="Hi &quot;there&quot;" data-accent="#0b57d0" data-position="bottom-left" data-theme="auto" src="https://blog.example/wp-content/plugins/askbox/askbox.js" id="askbox-js" async></script>',
    );
    expect(report.other_tag).toBe('<script src="x.js"></script>');
    expect(report.bad_bot).toBe('');
  });

  it('serves the proxy from its REST route, on the site\u2019s own host (home_url) only', () => {
    expect(JSON.parse(run('rest', '/askbox/v1/health'))).toEqual({ status: 'ok', proxy: 'askbox' });
    expect(JSON.parse(run('rest', '/askbox/v1/bots'))).toEqual({ message: 'Not found.' });
    expect(JSON.parse(run('rest', '/askbox/v1/health', 'evil.example'))).toEqual({
      message: 'This chat is not served on this host.',
    });
  });

  it('turns its proxy settings into the proxy options: client IP source, public URL, hosts, origins, limits', () => {
    const report = JSON.parse(run()) as Record<string, unknown>;
    expect(report.proxy_errors).toEqual([]);
    expect(report.proxy_options).toMatchObject({
      basePath: '/askbox/v1',
      publicUrl: 'https://blog.example',
      allowedHosts: ['www.blog.example'],
      allowedOrigins: ['https://shop.example', 'https://docs.example:8443'],
      clientIp: { header: 'x-forwarded-for', trustedHops: 2 },
      // A rate set in part keeps the proxy's default for the other part.
      limits: { visitorMessages: { burst: 4, perMinute: 6 }, ipMessagesPerDay: 500 },
    });
    expect(report.proxy_cf).toEqual({ header: 'cf-connecting-ip' });
    expect(report.settings_page).toContain('name="askbox_settings[allowed_origins]"');
    expect(report.settings_page).toContain('CF-Connecting-IP (behind Cloudflare)');
    // The askbox_proxy_options filter has the last word.
    expect(report.filtered).toEqual([
      '/srv/askbox-store',
      ['https://shop.example', 'https://docs.example:8443', 'https://app.example'],
    ]);
  });

  it('refuses proxy settings the proxy would refuse, with its own reason, and keeps the previous ones', () => {
    const refused = (JSON.parse(run()) as { refused: { errors: string[]; kept: boolean; title: string }[] }).refused;
    const reasons = [
      'is not an origin',
      TRUSTED_HOPS.message,
      'publicUrl is not a URL',
      'ipMessagesPerDay ≥ 1',
      'perMinute > 0',
      'is not a host',
    ];
    expect(refused).toHaveLength(reasons.length);
    refused.forEach((entry, i) => {
      expect(entry.errors).toEqual([expect.stringContaining(reasons[i]!)]);
      expect(entry.kept).toBe(true);
      // The widget's own settings are still saved.
      expect(entry.title).toBe(`Title ${i}`);
    });
  });

  it('makes its ratings table on activation and on an update in place, and drops it on uninstall', () => {
    const report = JSON.parse(run()) as Record<string, unknown>;
    expect(report.db_version).toBe('2');
    // Activated twice, then one load with an old version; the next load finds the version current; then one load
    // from version 1.
    const made = (report.dbdelta as string[]).filter((sql) => sql.startsWith('CREATE TABLE wp_askbox_feedback '));
    expect(made).toHaveLength(4);
    expect(made[0]).toMatch(
      /^CREATE TABLE wp_askbox_feedback \(\n {2}id bigint\(20\) unsigned NOT NULL AUTO_INCREMENT,/,
    );
    expect(made[0]).toContain('\n  PRIMARY KEY  (id),\n');
    expect(made[0]).toContain('\n  UNIQUE KEY one_rating (visitor_hash,conversation_id,message_id),\n');
    // Only the load from version 1 drops the older rows of one rating, which the unique key would refuse.
    const queries = report.db_queries as string[];
    expect(queries).toHaveLength(1);
    expect(queries[0]).toMatch(
      /^DELETE older FROM wp_askbox_feedback older JOIN wp_askbox_feedback newer ON .* newer\.id > older\.id$/,
    );
    expect(report.uninstalled).toEqual([
      ['DROP TABLE IF EXISTS wp_askbox_feedback', 'DROP TABLE IF EXISTS wp_askbox_conversations'],
      [],
    ]);
  });

  it('stores each rating through the proxy’s onFeedback, one row per visitor and reply, the visitor as a salted hash, and fails closed', () => {
    const report = JSON.parse(run()) as Record<string, unknown>;
    expect(report.feedback_callable).toBe('askbox_feedback_store');
    // One statement, an upsert over the one_rating key: a rating alone keeps the comment of the same rating.
    expect(report.feedback_sql).toMatch(
      /^INSERT INTO wp_askbox_feedback \(.*\) VALUES \(.*\) ON DUPLICATE KEY UPDATE comment = IF\(rating = VALUES\(rating\), COALESCE\(VALUES\(comment\), comment\), VALUES\(comment\)\), rating = VALUES\(rating\), created_at = VALUES\(created_at\)$/,
    );
    // One rating per visitor and reply: the thumbs-down and then its comment are one row, another visitor's another.
    expect(report.feedback_rows_of_last).toBe(1);
    expect(report.feedback_rows_of_last_two_visitors).toBe(2);
    const row = report.feedback_last as Record<string, string>;
    expect(row).toMatchObject({ conversation_id: 'convLast', message_id: 'msgLast', rating: 'down' });
    expect(row.comment).toBe('Too <b>vague</b> & "long"');
    expect(row.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(Math.abs(Date.parse(`${row.created_at}Z`) - Date.now())).toBeLessThan(60_000);
    expect(row.visitor_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(report)).not.toContain('visitor-raw-id');
    // A refused insert throws: the proxy answers 503 instead of losing the rating.
    expect(report.feedback_failure).toBe('the feedback table refused the rating: disk full');
  });

  it('erases a deleted conversation’s ratings through the proxy’s onDelete, and no other', () => {
    const report = JSON.parse(run()) as Record<string, unknown>;
    expect(report.delete_callable).toBe('askbox_feedback_forget');
    expect(report.delete_query).toEqual(['delete', 'wp_askbox_feedback', { conversation_id: 'conv2' }, ['%s']]);
    expect(report.deleted_rows).toBe(1);
    expect(report.conv2_left).toBe(0);
  });

  it('lists the latest 50 ratings, newest first and escaped, to managers only', () => {
    const report = JSON.parse(run()) as Record<string, string>;
    expect(report.feedback_query).toMatch(/ORDER BY created_at DESC, id DESC LIMIT 50$/);
    const rows = report.settings_page!.split('<tr><td>').slice(1);
    expect(rows).toHaveLength(50);
    expect(rows[0]).toContain('<td>Not helpful</td><td>Too &lt;b&gt;vague&lt;/b&gt; &amp; &quot;long&quot;</td>');
    expect(rows[0]).toContain('<td>convLast</td><td>msgLast</td>');
    expect(rows[1]).toContain('<td>conv52</td>');
    expect(rows[49]).toContain('<td>conv4</td>');
    expect(report.settings_page).not.toContain('<b>vague');
    expect(report.settings_page_unprivileged).toBe('');
  });

  it('saves page rules, "Talk to a person", the consent text, the custom stylesheet and proof of work, and puts them on the script tag, escaped', () => {
    const report = JSON.parse(run()) as Record<string, unknown>;
    expect(report.widget_errors).toEqual([]);
    const consent = 'I agree to the [privacy policy](https://shop.example/privacy?a=1&b=%20).\n\n"Really" <b>now</b>.';
    expect(report.widget_settings).toEqual({
      show_on: '/help/*\n/docs/*\n/faq',
      hide_on: '/help/private/*',
      handoff_url: 'https://help.example/contact?from=chat&lang=en%20GB',
      handoff_email: 'help@shop.example',
      handoff_param: 'ticket',
      // Trimmed as the widget trims it, its Markdown and its link's %XX kept: the widget sanitises what it shows.
      consent,
      stylesheet: '/wp-content/themes/shop/askbox.css?v="2"&x',
      proof_of_work: '1',
    });
    const escaped = consent
      .replaceAll('&', '&amp;')
      .replaceAll('"', '&quot;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;');
    expect(report.widget_tag).toContain(
      ` data-show-on="/help/* /docs/* /faq" data-hide-on="/help/private/*" data-handoff-url="https://help.example/contact?from=chat&amp;lang=en%20GB" data-handoff-email="help@shop.example" data-handoff-param="ticket" data-consent="${escaped}" data-stylesheet="/wp-content/themes/shop/askbox.css?v=&quot;2&quot;&amp;x" src=`,
    );
    expect(report.widget_page).toContain(
      `<label for="askbox_consent">Consent before the first message</label></th><td><textarea id="askbox_consent" name="askbox_settings[consent]" rows="4" class="regular-text">${escaped}</textarea>`,
    );
    expect(report.widget_pow).toBe(true);
    expect(report.no_pow).toBe(false);
    expect(report.settings_page).toContain('name="askbox_settings[proof_of_work]"');
    expect(report.settings_page).toContain('<label for="askbox_handoff_param">Talk to a person: URL parameter</label>');
    expect(report.settings_page).toContain('<label for="askbox_stylesheet">Custom stylesheet URL</label>');
  });

  it('refuses a pattern, handoff value, consent text or stylesheet the widget would refuse, names it, and keeps the previous ones', () => {
    const [errors, kept] = (JSON.parse(run()) as { widget_refused: [string[], Record<string, string>] }).widget_refused;
    expect(errors).toEqual([
      'Show only on: "help" is not a path pattern such as /checkout/*',
      'Hide on: "/shop?x" is not a path pattern such as /checkout/*',
      'Talk to a person: email: not saved, the value is not valid',
      `Consent before the first message: not saved, it is longer than ${WIDGET_RULES.consentMax} characters`,
      'Custom stylesheet URL: not saved, use a path on this site or an https URL',
    ]);
    // The handoff's three go together, as the widget drops "Talk to a person" when one is wrong.
    expect(kept).toMatchObject({
      show_on: '/help/*\n/docs/*\n/faq',
      hide_on: '/help/private/*',
      handoff_url: 'https://help.example/contact?from=chat&lang=en%20GB',
      handoff_email: 'help@shop.example',
      // Not emptied: that would take the consent step away.
      consent: expect.stringMatching(/^I agree to the \[privacy policy\]/),
      stylesheet: '/wp-content/themes/shop/askbox.css?v="2"&x',
    });
  });

  it('saves the greeting, its delay and its page rules as the widget reads them, and puts them on the script tag, escaped', () => {
    const report = JSON.parse(run()) as Record<string, [string[], Record<string, string>, string?]>;
    const [errors, saved, tag] = report.greeting ?? [[], {}];
    expect(errors).toEqual([]);
    expect(saved).toEqual({
      greeting: 'Questions about "delivery"? Ask me.',
      greeting_delay: '2.5',
      greeting_show_on: '/products/*\n/help/*',
      greeting_hide_on: '/products/secret/*',
    });
    expect(tag).toContain(
      ' data-greeting="Questions about &quot;delivery&quot;? Ask me." data-greeting-delay="2.5" data-greeting-show-on="/products/* /help/*" data-greeting-hide-on="/products/secret/*" src=',
    );
    const page = JSON.parse(run()).settings_page as string;
    expect(page).toContain('<label for="askbox_greeting_delay">Greeting delay (seconds)</label>');
    expect(page).toContain(
      '<label for="askbox_greeting_show_on">Greeting only on</label></th><td><textarea id="askbox_greeting_show_on" name="askbox_settings[greeting_show_on]"',
    );
    expect(page).toContain('<label for="askbox_greeting_hide_on">Greeting not on</label>');
  });

  it('refuses a greeting, delay or page rule the widget would refuse, names it, and keeps the previous ones', () => {
    const [errors, kept] = (JSON.parse(run()) as { greeting_refused: [string[], Record<string, string>] })
      .greeting_refused;
    expect(errors).toEqual([
      'Greeting only on: "/shop?x" is not a path pattern such as /checkout/*',
      'Greeting not on: "checkout" is not a path pattern such as /checkout/*',
      'Greeting: not saved, the value is not valid',
      'Greeting delay (seconds): not saved, the value is not valid',
    ]);
    expect(kept).toEqual({
      greeting: 'Questions about "delivery"? Ask me.',
      greeting_delay: '2.5',
      greeting_show_on: '/products/*\n/help/*',
      greeting_hide_on: '/products/secret/*',
    });
  });

  it('signs a logged-in user into the widget with the identity secret, made once and never printed', () => {
    const report = JSON.parse(run()) as Record<string, unknown>;
    // 64 characters, not autoloaded, not the grant secret.
    expect(report.identity_secret).toEqual([64, false, true]);
    const signed = ` data-user-id="wp-7" data-user-hash="${report.user_hash as string}" src=`;
    expect(report.user_tag).toContain(signed);
    expect(report.user_hash).toMatch(/^[0-9a-f]{64}$/);
    // ASKBOX_IDENTITY_SECRET (the environment, or a constant in wp-config.php) wins over the kept one.
    expect(report.user_tag_env).toContain(' data-user-id="wp-7" data-user-hash="');
    expect(report.user_tag_env).not.toContain(report.user_hash as string);
    // A logged-out visitor stays anonymous.
    expect(report.visitor_tag).not.toContain('data-user');
    expect(report.identity_options).toEqual([true, 'AskboxWordPressPeople']);
  });

  it('keeps signed-in people’s conversations in its own table, made on activation and on an update in place', () => {
    const report = JSON.parse(run()) as Record<string, unknown>;
    expect(report.people_db_version).toBe('1');
    const made = (report.dbdelta as string[]).filter((sql) => sql.startsWith('CREATE TABLE wp_askbox_conversations '));
    // Activated twice; then, without the version, the next load makes it.
    expect(made).toHaveLength(2);
    expect(report.people_dbdelta).toEqual([made[0]]);
    expect(made[0]).toContain('\n  person char(42) NOT NULL,\n');
    expect(made[0]).toContain('\n  PRIMARY KEY  (id),\n  UNIQUE KEY one_conversation (person,conversation_id)\n');
    const person = `u-${'a'.repeat(40)}`;
    expect(report.people_queries).toEqual([
      `INSERT IGNORE INTO wp_askbox_conversations (person, conversation_id, bot_id, name, created_at) VALUES (${person}, conv1, askboxDemo01, O'Brien, 2026-01-01T00:00:00.000Z)`,
      `DELETE FROM wp_askbox_conversations WHERE person = ${person} AND id < (SELECT id FROM (SELECT id FROM wp_askbox_conversations WHERE person = ${person} ORDER BY id DESC LIMIT 1 OFFSET ${IDENTITY.conversationsMax - 1}) AS oldest_kept)`,
      `DELETE FROM wp_askbox_conversations WHERE person = ${person} AND conversation_id = conv1`,
      // A deleted user's list goes with them.
      `DELETE FROM wp_askbox_conversations WHERE person = ${report.user_person as string}`,
    ]);
    expect(report.people_failure).toBe('the conversations table refused a change: disk full');
  });
});

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshBuild } from '../helpers/build';
import { requirePhp } from '../helpers/php';

const PLUGIN = fileURLToPath(new URL('../../dist/wordpress/askbox', import.meta.url));
const SMOKE = fileURLToPath(new URL('./wordpress/smoke.php', import.meta.url));
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
      'askbox-debug.js',
      'askbox-locales',
      'askbox-proxy.php',
      'askbox.js',
      'askbox.php',
      'readme.txt',
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
    expect(report.hooks).toEqual(['admin_menu', 'admin_init', 'wp_enqueue_scripts', 'rest_api_init']);
    expect(report.page).toBe('manage_options');
    expect(report.routes).toEqual([
      { namespace: 'askbox/v1', route: '/(?P<path>.*)', methods: ['GET', 'POST'], permission: '__return_true' },
    ]);
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
      'clientIp must be',
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
});

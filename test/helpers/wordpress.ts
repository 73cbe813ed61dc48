import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports';
import { requirePhp } from './php';
import { startMariaDb, WP_DATABASE } from './wordpress-db';

/** Debian's `wordpress` package (6.1). */
const DEBIAN_WORDPRESS = process.env.WORDPRESS_PATH ?? '/usr/share/wordpress';
/** The plugin as `npm run build` packages it. */
const PLUGIN = fileURLToPath(new URL('../../dist/wordpress/askbox', import.meta.url));

/** Where the site's proxy sends the visitors' questions: the Cody API simulator. */
export interface WordPressUpstream {
  url: string;
  streamOrigin: string;
}

/**
 * php -S as WordPress's nginx recipe (`try_files $uri $uri/ /index.php?$args`): files and folders as they are,
 * every other path to index.php, so pretty permalinks and /wp-json/ reach WordPress.
 */
const ROUTER = `<?php
$root = $_SERVER['DOCUMENT_ROOT'];
if (file_exists($root . rawurldecode(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH) ?: '/'))) return false;
$_SERVER['SCRIPT_NAME'] = $_SERVER['PHP_SELF'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $root . '/index.php';
chdir($root);
require $root . '/index.php';
`;

/** The site's wp-config.php: the test's database, no calls out, no cron, no changes to the (shared) core files. */
function wpConfig(dbHost: string): string {
  const salts = ['AUTH', 'SECURE_AUTH', 'LOGGED_IN', 'NONCE']
    .flatMap((name) => [`${name}_KEY`, `${name}_SALT`])
    .map((name) => `define('${name}', '${randomBytes(24).toString('hex')}');`);
  return `<?php
define('DB_NAME', '${WP_DATABASE}');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', '${dbHost}');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
${salts.join('\n')}
$table_prefix = 'wp_';
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('DISALLOW_FILE_MODS', true);
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`;
}

/**
 * Debian links some of WordPress's files to other packages' by relative paths (underscore.js, which WordPress's
 * scripts for logged-in users need, getID3), which a copy elsewhere breaks: each is pointed at its absolute target.
 */
function absoluteLinks(root: string): void {
  const links = spawnSync('find', [root, '-type', 'l'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  for (const link of links) {
    const target = readlinkSync(link);
    if (isAbsolute(target)) continue;
    // SECURITY: unlink first, never write through a hard link into Debian's own file.
    unlinkSync(link);
    symlinkSync(resolvePath(dirname(join(DEBIAN_WORDPRESS, relative(root, link))), target), link);
  }
}

/**
 * A must-use plugin pointing the plugin's proxy at `upstream`, a simulator streaming from a host of its own (the
 * plugin's `askbox_proxy_options` filter).
 */
export function upstreamMuPlugin(upstream: WordPressUpstream): string {
  return `<?php
add_filter('askbox_proxy_options', static fn (array $options) => ['upstream' => ${JSON.stringify(upstream.url)}, 'streamOrigins' => [${JSON.stringify(upstream.streamOrigin)}]] + $options);
`;
}

/** The test site's own must-use plugin: permalinks without .htaccess (the router rewrites, as nginx does). */
const PERMALINKS_PLUGIN = `<?php
add_filter('got_url_rewrite', '__return_true');
`;

/**
 * Debian's WordPress, not yet installed, under PHP's built-in server on a free port, over a MariaDB server of its
 * own. Debian's copy reads its configuration from /etc/wordpress, so the site is a copy of /usr/share/wordpress
 * (hard links where the file system allows: instant) with a wp-config.php of its own. The Askbox plugin is copied
 * into wp-content/plugins, as its readme says, but not activated; `muPlugins` (file name → code) go into
 * wp-content/mu-plugins, as the site's owner would put them there.
 */
export async function startWordPress(muPlugins: Record<string, string>) {
  requirePhp();
  if (!existsSync(join(DEBIAN_WORDPRESS, 'wp-settings.php')))
    throw new Error('WordPress is missing: run .ci/run, or apt-get install wordpress');
  const dir = mkdtempSync(join(tmpdir(), 'askbox-wp-'));
  const db = await startMariaDb(dir);
  const root = join(dir, 'site');
  if (spawnSync('cp', ['-al', DEBIAN_WORDPRESS, root]).status !== 0) {
    rmSync(root, { recursive: true, force: true });
    cpSync(DEBIAN_WORDPRESS, root, { recursive: true, verbatimSymlinks: true });
  }
  absoluteLinks(root);
  // SECURITY: unlink first, never write through a hard link into Debian's own file.
  unlinkSync(join(root, 'wp-config.php'));
  writeFileSync(join(root, 'wp-config.php'), wpConfig(db.host));
  mkdirSync(join(root, 'wp-content/mu-plugins'));
  for (const [name, code] of Object.entries({ ...muPlugins, 'askbox-test-permalinks.php': PERMALINKS_PLUGIN }))
    writeFileSync(join(root, 'wp-content/mu-plugins', name), code);
  cpSync(PLUGIN, join(root, 'wp-content/plugins/askbox'), { recursive: true });
  writeFileSync(join(dir, 'router.php'), ROUTER);

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(
    'php',
    ['-S', `127.0.0.1:${port}`, '-t', root, '-d', 'display_errors=0', '-d', 'log_errors=1', join(dir, 'router.php')],
    // Several workers: the reply stream holds one, and WordPress calls itself during the install.
    // A process group of its own: its workers outlive a signal to the server alone.
    {
      cwd: root,
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    },
  );
  const stop = () => {
    if (server.pid) process.kill(-server.pid, 'SIGTERM');
  };
  const log: string[] = [];
  server.stderr.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  let closing = false;
  const exited = new Promise<void>((resolve) =>
    server.once('exit', (code, signal) => {
      // Said in the log, for a test that fails because its server went away (killed from outside, or crashed).
      if (!closing) log.push(`\nPHP Fatal error: php -S exited (${signal ?? code}) while the test ran\n`);
      resolve();
    }),
  );
  for (const deadline = Date.now() + 10_000; ;) {
    if (
      await fetch(`${url}/readme.html`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      stop();
      await db.close();
      throw new Error(`php -S did not answer: ${log.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    /**
     * PHP's log lines about the plugin (its warnings, the proxy's own log lines) and any fatal error. (WordPress 6.1's
     * own warnings under PHP 8.2, such as the installer's undefined variables, are not the plugin's.)
     */
    errors: () =>
      log
        .join('')
        .split('\n')
        .filter((line) => /PHP (Fatal|Parse) error|PHP \w+: .*\/plugins\/askbox\/|\[askbox\]/.test(line)),
    /** The end of PHP's stderr (requests, errors), for a failing test's report. */
    logTail: () => log.join('').slice(-4000),
    /**
     * Runs `code` in PHP's CLI with WordPress loaded (wp-load.php, as WP-CLI does), for what a browser cannot reach
     * here (file changes are off: DISALLOW_FILE_MODS); answers its output.
     */
    wpPhp(code: string): string {
      const load = `$_SERVER['HTTP_HOST'] = '127.0.0.1:${port}'; require ${JSON.stringify(join(root, 'wp-load.php'))};`;
      const result = spawnSync('php', ['-d', 'display_errors=stderr', '-r', `${load} ${code}`], { encoding: 'utf8' });
      if (result.status !== 0 || result.stderr) throw new Error(`php failed: ${result.stderr}${result.stdout}`);
      return result.stdout;
    },
    async close() {
      closing = true;
      stop();
      await exited;
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

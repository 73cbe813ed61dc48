// Before `npm test`: the suite starts Chromium, Firefox ESR, WebKitGTK (under Xvfb), redis-server, php (with
// pdo_sqlite and mysqli), and Debian's WordPress over a MariaDB server, for real. Where one is missing, stop at once
// and name the one command that installs them and runs the tests, instead of failing dozens of files a minute later.
// Plain JavaScript, so it starts in milliseconds.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const missing = [];
if (!executable(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) missing.push('Chromium');
if (!executable(process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server')) missing.push('redis-server');
const php = spawnSync(process.env.PHP_PATH ?? 'php', ['-m'], { encoding: 'utf8', timeout: 800 });
if (php.status !== 0) missing.push('php-cli');
else if (!/^pdo_sqlite$/m.test(php.stdout)) missing.push("PHP's pdo_sqlite (php-sqlite3)");
if (!existsSync(`${process.env.WORDPRESS_PATH ?? '/usr/share/wordpress'}/wp-settings.php`))
  missing.push("Debian's WordPress (wordpress)");
else if (php.status === 0 && !/^mysqli$/m.test(php.stdout)) missing.push("PHP's mysqli (php-mysql)");
if (!executable(process.env.MARIADBD_PATH ?? '/usr/sbin/mariadbd')) missing.push('MariaDB (mariadb-server-core)');
if (spawnSync('unshare', ['--help'], { timeout: 800 }).status !== 0) missing.push('unshare (util-linux)');
// The core walk in the engines of Firefox and Safari (test/e2e/engines.spec.ts).
if (!executable(process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr')) missing.push('firefox-esr');
if (!executable(process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver')) missing.push('webkit2gtk-driver');
if (!executable('/usr/bin/Xvfb')) missing.push('xvfb');

if (missing.length > 0) {
  console.error(`npm test needs ${missing.join(', ')}, missing here. Run instead:\n\n  bash .ci/run\n`);
  process.exit(1);
}

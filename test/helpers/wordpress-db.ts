import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Debian's MariaDB server and its data folder maker (mariadb-server-core). */
const MARIADBD = process.env.MARIADBD_PATH ?? '/usr/sbin/mariadbd';
const INSTALL_DB = '/usr/bin/mariadb-install-db';

/** The database WordPress is installed into. */
export const WP_DATABASE = 'wordpress';

/**
 * A MariaDB server of the test's own: a fresh data folder under `dir` (mariadb-install-db, root without a password),
 * listening on a socket in `dir` only (no TCP port to collide with), with the WordPress database made at start.
 * Durability is traded for speed: a crash loses a throwaway database.
 */
export async function startMariaDb(dir: string) {
  if (!existsSync(MARIADBD) || !existsSync(INSTALL_DB))
    throw new Error('MariaDB is missing: run .ci/run, or apt-get install mariadb-server');
  const data = join(dir, 'db');
  const socket = join(dir, 'db.sock');
  // mariadbd refuses to run as root unless told to; as anyone else, it runs as that user.
  const user = process.getuid?.() === 0 ? ['--user=root'] : [];
  const installed = spawnSync(
    INSTALL_DB,
    ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db', ...user],
    { encoding: 'utf8' },
  );
  if (installed.status !== 0) throw new Error(`mariadb-install-db failed: ${installed.stderr}${installed.stdout}`);
  writeFileSync(join(dir, 'init.sql'), `CREATE DATABASE IF NOT EXISTS ${WP_DATABASE};\n`);
  const server = spawn(
    MARIADBD,
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--socket=${socket}`,
      `--pid-file=${join(dir, 'db.pid')}`,
      `--init-file=${join(dir, 'init.sql')}`,
      '--skip-networking',
      '--skip-name-resolve',
      '--skip-log-bin',
      '--innodb-buffer-pool-size=32M',
      '--innodb-flush-log-at-trx-commit=0',
      '--innodb-doublewrite=0',
      '--performance-schema=0',
      ...user,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  // Up once it says so on stderr; gone first, or silent on it for 20 s, it did not start.
  const ready = await new Promise<boolean>((resolve) => {
    const deadline = setTimeout(() => resolve(false), 20_000);
    const settle = (up: boolean) => (clearTimeout(deadline), resolve(up));
    server.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('ready for connections')) settle(true);
    });
    void exited.then(() => settle(false));
  });
  if (!ready) {
    server.kill('SIGKILL');
    throw new Error(`MariaDB did not start:\n${log}`);
  }
  return {
    /** WordPress's DB_HOST for it: `localhost:<socket>`. */
    host: `localhost:${socket}`,
    async close() {
      server.kill('SIGTERM');
      await exited;
    },
  };
}

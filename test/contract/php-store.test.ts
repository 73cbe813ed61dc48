import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { refusalBody } from '../helpers/messages';
import { runPhp, runPhpOnStore, startPhpProxy, type PhpLaunch } from '../helpers/php';
import { contractConfig } from './config';

const create = (url: string, ip = '203.0.113.7') =>
  fetch(`${url}/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: '{"name":"x","bot_id":"askboxDemo01"}',
  });

/** The store folder askbox_store_dir() picks for a request's $_SERVER, options and environment (or its refusal). */
const dir = (server: Record<string, string>, options = '[]', env: Record<string, string> = {}) =>
  runPhp(
    `$_SERVER = ${JSON.stringify(server)
      .replace(/[{}]/g, (b) => (b === '{' ? '[' : ']'))
      .replace(/":/g, '"=>')};
    try { echo json_encode(askbox_store_dir(${options})); } catch (Exception $e) { echo json_encode($e->getMessage()); }`,
    {
      ASKBOX_STORE_DIR: '',
      ...env,
    },
  );

/** The PHP proxy's limit store (SQLite through PDO): fails closed, private, bounded, with the shared arithmetic. */
describe('the PHP limit store', () => {
  let running: Awaited<ReturnType<typeof startPhpProxy>> | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  // Nothing here reaches the service (an unused port stands in for it): a conversation is refused before it would.
  const config = contractConfig('http://127.0.0.1:9', []);
  /** Creates the store and takes one token, as a first request would, inside the setup's namespace. */
  const prime = `php -r 'require getenv("ASKBOX_PHP_PROXY"); askbox_take(askbox_db(["storeDir" => getenv("STORE")]), [["x", 5.0, 1.0]], 1000);'`;

  async function expectBusy(launch: PhpLaunch | undefined, extra: Record<string, unknown> = {}) {
    running = await startPhpProxy(config, undefined, extra, launch);
    const response = await create(running.url);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual(refusalBody('busy'));
    await expect.poll(() => running?.errors.join('')).toContain('AskboxLimitStoreError');
    const lines = running.errors.join('').split('\n');
    const logged = lines.filter((line) => line.includes('[askbox]'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('"event":"limits"');
    expect(logged[0]).toContain('AskboxLimitStoreError: The limit store failed: ');
  }

  it('fails closed (503, Retry-After, one log line) when its folder cannot be made', () =>
    expectBusy(undefined, { storeDir: '/proc/askbox-store' }));

  it('fails closed on a corrupt database file', async () => {
    await expectBusy({ setup: 'mkdir -p "$STORE"; head -c 8192 /dev/urandom > "$STORE/askbox-store.sqlite"' });
  });

  it('fails closed on a database that is there but read-only', async () => {
    await expectBusy({
      setup: `mkdir -p "$STORE"\nmount -t tmpfs -o size=1m tmpfs "$STORE"\n${prime}\nchmod 0400 "$STORE/askbox-store.sqlite"\nmount -o remount,ro "$STORE"`,
    });
  });

  it('fails closed on a full filesystem', async () => {
    await expectBusy({
      setup: `mkdir -p "$STORE"\nmount -t tmpfs -o size=256k tmpfs "$STORE"\n${prime}\ndd if=/dev/zero of="$STORE/filler" bs=4k 2>/dev/null || true`,
    });
  });

  it('creates its folder 0700 and its files 0600 whatever the umask', async () => {
    running = await startPhpProxy(config, undefined, {}, { setup: 'umask 000' });
    expect((await create(running.url)).status).toBe(502);
    expect(statSync(running.store).mode & 0o777).toBe(0o700);
    // SQLite removes its -wal and -shm files when the last connection closes, so they are checked when present.
    const files = readdirSync(running.store);
    expect(files).toContain('askbox-store.sqlite');
    for (const file of files) {
      // A -wal or -shm file may go between the listing and its stat, as the last connection closes.
      const stat = statSync(join(running.store, file), { throwIfNoEntry: false });
      if (stat) expect(stat.mode & 0o777, file).toBe(0o600);
    }
  });

  it('makes a world-readable database private again', async () => {
    running = await startPhpProxy(
      config,
      undefined,
      {},
      { setup: `mkdir -p "$STORE"\n${prime}\nchmod 0644 "$STORE/askbox-store.sqlite"` },
    );
    await create(running.url);
    expect(statSync(join(running.store, 'askbox-store.sqlite')).mode & 0o777).toBe(0o600);
  });

  it('lives beside the web root by default, never in the temporary folder; ASKBOX_STORE_DIR or storeDir move it', () => {
    expect(dir({ DOCUMENT_ROOT: '/srv/www/htdocs/' })).toBe('/srv/www/askbox-data');
    expect(dir({ DOCUMENT_ROOT: '/srv/www/htdocs' }, "['storeDir' => '/var/lib/askbox/']")).toBe('/var/lib/askbox');
    expect(dir({ DOCUMENT_ROOT: '/srv/www/htdocs' }, '[]', { ASKBOX_STORE_DIR: '/var/lib/askbox2' })).toBe(
      '/var/lib/askbox2',
    );
    expect(dir({})).toBe('storeDir must be an absolute folder path');
    expect(dir({ DOCUMENT_ROOT: '/srv/www' }, "['storeDir' => 'relative/dir']")).toBe(
      'storeDir must be an absolute folder path',
    );
  });

  /**
   * Each PHP worker keeps one persistent connection to the store, named after the file's device and inode. What
   * happens to the file under a running site must reach that connection: one worker (`workers: 1`) serves every
   * request here, so the connection the first request made is the one the next request finds.
   */
  describe('under a running site (persistent connections)', () => {
    it('opens a store replaced under it afresh, and refuses a corrupt one, rather than write on through the old file', async () => {
      running = await startPhpProxy(config, undefined, {}, { workers: 1 });
      // The service is unreachable (502), but the store has been made and written.
      expect((await create(running.url, '203.0.113.8')).status).toBe(502);
      // The whole store goes (its WAL with it: SQLite would read the old pages from a WAL left behind), and a corrupt
      // file takes its place.
      for (const file of readdirSync(running.store)) rmSync(join(running.store, file));
      writeFileSync(join(running.store, 'askbox-store.sqlite'), 'not a database at all'.repeat(400));
      expect((await create(running.url, '203.0.113.9')).status).toBe(503);
    });

    it('is not held by a request that died inside its transaction', async () => {
      // The site's settings are evaluated per request: on /die, a write that exits with its transaction open.
      const die = `(static function (): array {
        if (str_ends_with($_SERVER['REQUEST_URI'], '/die')) askbox_db_write(askbox_db(['storeDir' => getenv('STORE')]), static fn () => exit());
        return [];
      })()`;
      running = await startPhpProxy(config, undefined, {}, { workers: 1, options: die });
      expect((await create(running.url, '203.0.113.8')).status).toBe(502);
      await fetch(`${running.url}/die`);
      expect((await create(running.url, '203.0.113.9')).status).toBe(502);
    });
  });
});

describe('the PHP store, called directly', () => {
  it('takes all or nothing, answers the wait in ms rounded up, and refills at its rate', () => {
    expect(
      runPhpOnStore(`$c = [['a', 2.0, 0.5], ['b', 1.0, 0.25]];
        echo json_encode([askbox_take($db, $c, 1000), askbox_take($db, $c, 1000), askbox_take($db, [['a', 2.0, 0.5]], 1000),
          askbox_take($db, [['a', 2.0, 0.5]], 1001), askbox_take($db, $c, 4999), askbox_take($db, $c, 5000)]);`),
    ).toEqual([0, 4000, 0, 1999, 1, 0]);
  });

  it('keeps at most the cap of buckets, forgetting first those soonest full again', () => {
    expect(
      runPhpOnStore(`for ($i = 0; $i < 8; $i++) askbox_take($db, [["k$i", 1.0, $i === 3 ? 0.001 : 1.0]], 1000, 5);
        echo json_encode([$db->query('SELECT count(*) FROM buckets')->fetchColumn(), $db->query("SELECT v FROM meta")->fetchColumn(),
          askbox_take($db, [['k3', 1.0, 0.001]], 1000, 5), askbox_take($db, [['k7', 1.0, 1.0]], 1000, 5), askbox_take($db, [['k0', 1.0, 1.0]], 1000, 5)]);`),
    ).toEqual([5, 5, 1_000_000, 1000, 0]);
  });

  it('drops buckets once they would be full again', () => {
    expect(
      runPhpOnStore(`askbox_take($db, [['a', 2.0, 1.0]], 1000); askbox_take($db, [['b', 2.0, 1.0]], 2500);
        askbox_take($db, [['c', 2.0, 1.0]], 3000);
        echo json_encode($db->query('SELECT k FROM buckets ORDER BY k')->fetchAll(PDO::FETCH_COLUMN));`),
    ).toEqual(['b', 'c']);
  });

  it('spends a stream token once, until it expires', () => {
    expect(
      runPhpOnStore(`echo json_encode([askbox_spend($db, 'tok', 2000, 1000), askbox_spend($db, 'tok', 2000, 1999), askbox_spend($db, 'other', 2000, 1999),
        askbox_spend($db, 'tok', 3000, 2000)]);`),
    ).toEqual([true, false, true, true]);
  });
});

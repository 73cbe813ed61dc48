import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContractConfig } from '../contract/config';
import { freePort } from './ports';

const PHP = process.env.PHP_PATH ?? 'php';
/** The proxy file under test; the PHP mutation script points it at a weakened copy. */
export const PHP_PROXY =
  process.env.ASKBOX_PHP_PROXY ?? fileURLToPath(new URL('../../src/proxy/php/askbox-proxy.php', import.meta.url));

/** How to start `php -S`: `setup` runs first (sh, in a private mount namespace), with $STORE the store folder. */
export interface PhpLaunch {
  setup?: string;
  /** PHP_CLI_SERVER_WORKERS (default 6, so held streams do not block other calls). */
  workers?: number;
  /** php.ini settings (`-d name=value`), e.g. a small memory_limit. */
  ini?: Record<string, string>;
  /** PHP options JSON cannot carry (callables), as a PHP array expression added to the settings. */
  options?: string;
}

/** Fails with what to install when PHP is missing. */
export function requirePhp(): void {
  if (spawnSync(PHP, ['--version']).status !== 0)
    throw new Error('php is missing: run .ci/run, or apt-get install php-cli');
}

/**
 * The PHP proxy under PHP's built-in server (`php -S`, several workers so held streams do not block other calls),
 * configured as a site would: a small entry script that passes its settings to askbox_proxy_handle().
 */
export async function startPhpProxy(
  config: ContractConfig,
  port?: number,
  extra: Record<string, unknown> = {},
  launch: PhpLaunch = {},
) {
  requirePhp();
  const dir = mkdtempSync(join(tmpdir(), 'askbox-php-'));
  const store = join(dir, 'store');
  const settings = { ...config, storeDir: store, ...extra };
  writeFileSync(
    join(dir, 'router.php'),
    `<?php\nrequire ${JSON.stringify(PHP_PROXY)};\naskbox_proxy_handle(${launch.options ?? '[]'} + json_decode(getenv('ASKBOX_CONFIG_JSON'), true));\n`,
  );
  port ??= await freePort();
  const args = [
    '-S',
    `127.0.0.1:${port}`,
    '-d',
    'display_errors=stderr',
    '-d',
    'log_errors=0',
    ...Object.entries(launch.ini ?? {}).flatMap(([name, value]) => ['-d', `${name}=${value}`]),
    join(dir, 'router.php'),
  ];
  // unshare -rm: a mount namespace of its own (root mapped to us), so a test can mount a tiny or read-only tmpfs.
  const [command, argv] = launch.setup
    ? ['unshare', ['-rm', 'sh', '-ec', `${launch.setup}\nexec "$0" "$@"`, PHP, ...args]]
    : [PHP, args];
  const child = spawn(command, argv, {
    cwd: dir,
    env: {
      ...process.env,
      PHP_CLI_SERVER_WORKERS: String(launch.workers ?? 6),
      ASKBOX_CONFIG_JSON: JSON.stringify(settings),
      STORE: store,
      ASKBOX_PHP_PROXY: PHP_PROXY,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
    // A process group of its own: PHP_CLI_SERVER_WORKERS forks workers that outlive a signal to the parent alone.
    detached: true,
  });
  const stop = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, signal);
  };
  const errors: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}${config.basePath}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    // Any answer means the server is up; a misconfigured proxy answers too (503), as tests of it expect.
    const up = await fetch(`${url}/health`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      stop('SIGKILL');
      throw new Error(`php -S did not answer: ${errors.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    /** The store folder the proxy was given. */
    store,
    /** What PHP printed to stderr (its log lines, warnings). */
    errors,
    async close() {
      stop('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** runPhp with `$db` open on a fresh store, in a temporary folder removed afterwards. */
export function runPhpOnStore(code: string, env: Record<string, string> = {}): unknown {
  const store = mkdtempSync(join(tmpdir(), 'askbox-store-'));
  try {
    return runPhp(`$db = askbox_db(['storeDir' => getenv('ASKBOX_TEST_STORE')]);\n${code}`, {
      ...env,
      ASKBOX_TEST_STORE: store,
    });
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
}

/** Runs PHP code with the proxy loaded and answers what it printed as JSON (direct calls, no server). */
export function runPhp(code: string, env: Record<string, string> = {}): unknown {
  requirePhp();
  const result = spawnSync(PHP, ['-d', 'display_errors=stderr', '-r', `require getenv('ASKBOX_PHP_PROXY');\n${code}`], {
    encoding: 'utf8',
    env: { ...process.env, ASKBOX_PHP_PROXY: PHP_PROXY, ...env },
  });
  if (result.status !== 0 || result.stderr) throw new Error(`php failed: ${result.stderr}${result.stdout}`);
  return JSON.parse(result.stdout) as unknown;
}

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = (name: string) => fileURLToPath(new URL(`../../../.ci/${name}`, import.meta.url));

describe('npm test preflight (.ci/preflight.mjs)', () => {
  it('stops within a second where a tool is missing, naming the one command to run', () => {
    const started = Date.now();
    const run = spawnSync(process.execPath, [script('preflight.mjs')], {
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium', REDIS_SERVER_PATH: '/nonexistent/redis' },
      encoding: 'utf8',
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Chromium, redis-server');
    expect(run.stderr).toContain('\n  bash .ci/run\n');
  });

  it('names WordPress and MariaDB when the WordPress test could not start them', () => {
    const run = spawnSync(process.execPath, [script('preflight.mjs')], {
      env: { ...process.env, WORDPRESS_PATH: '/nonexistent/wordpress', MARIADBD_PATH: '/nonexistent/mariadbd' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Debian's WordPress (wordpress), MariaDB (mariadb-server-core)");
  });
});

describe('npm start (.ci/build-if-stale.mjs)', () => {
  it('rebuilds only when dist/ is missing or older than src/, vite.config.ts or package.json', () => {
    const root = mkdtempSync(join(tmpdir(), 'askbox-stale-'));
    try {
      const at = (path: string, seconds: number) => {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), '');
        utimesSync(join(root, path), seconds, seconds);
      };
      const check = () =>
        spawnSync(process.execPath, [script('build-if-stale.mjs'), '--check'], {
          env: { ...process.env, ASKBOX_ROOT: root },
        }).status;
      at('src/index.ts', 1000);
      at('package.json', 1000);
      expect(check()).toBe(1);
      for (const output of [
        'dist/askbox.js',
        'dist/manifest.json',
        'dist/askbox-debug.js',
        'dist/askbox.mjs',
        'dist/askbox-locales/de.json',
      ])
        at(output, 2000);
      expect(check()).toBe(0);
      at('src/state/chat-model.ts', 3000);
      expect(check()).toBe(1);
      at('dist/askbox.js', 4000);
      expect(check()).toBe(1);
      for (const output of [
        'dist/manifest.json',
        'dist/askbox-debug.js',
        'dist/askbox.mjs',
        'dist/askbox-locales/de.json',
      ])
        at(output, 4000);
      expect(check()).toBe(0);
      at('vite.config.ts', 5000);
      expect(check()).toBe(1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

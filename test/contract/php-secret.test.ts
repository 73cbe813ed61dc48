import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { refusalBody } from '../helpers/messages';
import { startPhpProxy } from '../helpers/php';
import { CONTRACT_KEY, contractConfig } from './config';
import { startUpstream } from './upstream';

let upstream: Awaited<ReturnType<typeof startUpstream>>;
let folder = '';
const running: Awaited<ReturnType<typeof startPhpProxy>>[] = [];

beforeAll(async () => {
  upstream = await startUpstream(CONTRACT_KEY, {});
  folder = mkdtempSync(join(tmpdir(), 'askbox-secret-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((php) => php.close()));
});
afterAll(async () => {
  await upstream?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** The PHP proxy with no `secret` at all (an entry script's `getenv('ASKBOX_SECRET')` of an unset variable). */
async function withoutSecret(storeDir: string) {
  const config = contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin);
  const php = await startPhpProxy(config, undefined, { secret: false, storeDir });
  running.push(php);
  return php;
}

const create = (url: string, ip: string) =>
  fetch(`${url}/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
  });

const history = (url: string, id: string, grant: string) =>
  fetch(`${url}/messages?conversation_id=${id}`, { headers: { 'x-askbox-grant': grant } });

/** Without ASKBOX_SECRET, the PHP proxy makes one secret, keeps it in its store folder, and every process uses it. */
describe('the PHP proxy without a secret', () => {
  it('signs with one secret kept in storeDir (0600): grants from racing first requests verify in a later process', async () => {
    const store = join(folder, 'kept');
    const first = await withoutSecret(store);
    // Six workers (php -S), six first requests at once: whichever makes the file, all must sign with it.
    const created = await Promise.all(
      Array.from({ length: 6 }, (_, i) => create(first.url, `203.0.113.${i + 1}`).then((r) => r.json())),
    );
    const grants = created.map((body) => body as { data: { id: string }; meta: { grant: string } });
    expect(grants.every((g) => g.meta.grant.startsWith('g1.'))).toBe(true);
    const secret = join(store, 'askbox-secret');
    expect(statSync(secret).mode & 0o777).toBe(0o600);
    expect(statSync(store).mode & 0o777).toBe(0o700);
    expect(readFileSync(secret, 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    await first.close();
    running.splice(0);

    const next = await withoutSecret(store);
    for (const { data, meta } of grants) expect((await history(next.url, data.id, meta.grant)).status).toBe(200);
    // A grant is still checked: a forged one is the usual 404.
    const { data, meta } = grants[0]!;
    expect((await history(next.url, data.id, `${meta.grant.slice(0, -2)}AA`)).status).toBe(404);
    expect(next.errors.join('')).not.toContain('[askbox]');
  }, 30_000);

  it('refuses with 503 and one log line naming ASKBOX_SECRET when it cannot keep one', async () => {
    const php = await withoutSecret('/proc/askbox-store');
    const logged = () =>
      php.errors
        .join('')
        .split('\n')
        .filter((line) => line.includes('[askbox]'));
    // startPhpProxy's own health check is the first request: one line each, every one saying what to set.
    await expect.poll(() => logged().length).toBe(1);
    for (const path of ['/health', '/conversations']) {
      const response = await fetch(`${php.url}${path}`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual(refusalBody('misconfigured'));
    }
    await expect.poll(() => logged().length).toBe(3);
    for (const line of logged())
      expect(line).toContain(
        'No secret is given (set ASKBOX_SECRET) and none can be kept in /proc/askbox-store/askbox-secret',
      );
  });
});

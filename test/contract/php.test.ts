import { afterEach, describe, expect, it } from 'vitest';
import { refusalBody } from '../helpers/messages';
import { startPhpProxy } from '../helpers/php';
import { contractConfig } from './config';
import { defineProofContract } from './proof-contract';
import { defineProxyContract } from './proxy-contract';

/** The contract against the one-file PHP proxy under `php -S`, signed-in visitors included. */
defineProxyContract({ name: 'php', start: (config) => startPhpProxy(config) });
defineProofContract({ name: 'php', start: (config) => startPhpProxy(config) });

const create = (url: string) =>
  fetch(`${url}/conversations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

describe('the PHP proxy, misconfigured or failing', () => {
  let running: Awaited<ReturnType<typeof startPhpProxy>> | undefined;
  afterEach(() => running?.close());
  // The store's failures are tested in php-store.test.ts. Nothing here reaches the service: an unused port stands in for it.
  const config = contractConfig('http://127.0.0.1:9', []);

  it.each([
    [{ grantTtlSeconds: 59 }, 'grantTtlSeconds must be a whole number of seconds from 60 to 31536000'],
    [{ grantTtlSeconds: '30d' }, 'grantTtlSeconds'],
    [{ streamTtlSeconds: 0 }, 'streamTtlSeconds must be a whole number of seconds from 1 to 3600'],
  ])('answers 503 for %j and says why in the log', async (extra, reason) => {
    running = await startPhpProxy(config, undefined, extra);
    const response = await create(running.url);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual(refusalBody('misconfigured'));
    await expect.poll(() => running?.errors.join('')).toContain(reason);
  });
});

import { describe, expect, it } from 'vitest';
import { startWorker } from '../helpers/workerd';
import { contractConfig } from './config';
import { defineProxyContract } from './proxy-contract';

/** The contract against the built Worker entry on the Workers runtime (workerd), limits in a Durable Object. */
defineProxyContract({ name: 'workerd', start: (config) => startWorker(config) });

describe('the Worker entry, misconfigured', () => {
  it.each([
    ['no key', { CODY_API_KEY: '' }],
    ['bad options JSON', { ASKBOX_OPTIONS: '{limits:' }],
    ['unknown option', { ASKBOX_OPTIONS: '{"apiKey":"x"}' }],
    ['short secret', { ASKBOX_SECRET: 'short' }],
  ])('answers 503 in the envelope, never the key (%s)', async (_name, overrides) => {
    const worker = await startWorker(contractConfig('http://127.0.0.1:9/api/v1', []), 1, overrides);
    try {
      const response = await fetch(`${worker.url}/health`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ message: 'The chat proxy is misconfigured.' });
    } finally {
      await worker.close();
    }
  });
});

import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY } from '../../src/protocol/contract';
import { createDurableObjectPeopleStore, createDurableObjectStore } from '../../src/proxy/stores/durable-object';
import { conversation, EXPIRY_CASES, PEOPLE_CASES } from '../fixtures/people-stores';
import { BUCKET_CASES, runBucketCase } from '../fixtures/token-buckets';
import { refusalBody } from '../helpers/messages';
import { simulateDays } from '../helpers/proxy';
import { startWorker } from '../helpers/workerd';
import { rawRequest } from './http';
import { CONTRACT_KEY, CONTRACT_SCENARIO, contractConfig, type ContractConfig } from './config';
import { defineProofContract } from './proof-contract';
import { defineProxyContract } from './proxy-contract';
import { startUpstream } from './upstream';

/** The contract against the built Worker entry on the Workers runtime (workerd), limits in a Durable Object. */
defineProxyContract({ name: 'workerd', start: (config) => startWorker(config) });
defineProofContract({ name: 'workerd', start: (config) => startWorker(config) });

const LIMITS = (override: unknown) => JSON.stringify({ limits: override });

describe('the Worker entry, misconfigured', () => {
  it.each([
    ['no key', { CODY_API_KEY: '' }, 'apiKey is required'],
    ['no secret', { ASKBOX_SECRET: '' }, 'ASKBOX_SECRET is required'],
    ['a foreign stream origin that is no origin', { ASKBOX_STREAM_ORIGINS: 'stream.example' }, 'is not an origin'],
    ['an allowed host with a path', { ASKBOX_ALLOWED_HOSTS: 'shop.example/x' }, 'allowedHosts'],
    ['no bot', { ASKBOX_BOT_IDS: ' , ' }, 'botIds'],
    ['short secret', { ASKBOX_SECRET: 'short' }, 'secret must be'],
    ['options not JSON', { ASKBOX_OPTIONS: '{limits:' }, 'ASKBOX_OPTIONS is not JSON'],
    ['an option the JSON may not set', { ASKBOX_OPTIONS: `{"apiKey":"x"}` }, 'unknown key apiKey'],
    [
      'a misspelt limit',
      { ASKBOX_OPTIONS: LIMITS({ ipMessage: { burst: 5, perMinute: 5 } }) },
      'limits has unknown key ipMessage',
    ],
    [
      'a limit of the wrong type',
      { ASKBOX_OPTIONS: LIMITS({ ipMessages: { burst: '5', perMinute: 5 } }) },
      'limits.ipMessages.burst must be a positive number',
    ],
    ['a limit out of range', { ASKBOX_OPTIONS: LIMITS({ ipMessages: { burst: 0.5, perMinute: 5 } }) }, 'burst ≥ 1'],
    [
      'a grant lifetime as text',
      { ASKBOX_OPTIONS: '{"grantTtlSeconds":"30d"}' },
      'grantTtlSeconds must be a positive number',
    ],
    ['a header nobody sets', { ASKBOX_OPTIONS: '{"clientIp":{"header":"x-real-ip"}}' }, 'clientIp must be'],
    ['a timeout of zero', { ASKBOX_OPTIONS: '{"timeouts":{"idleMs":0}}' }, 'timeouts.idleMs must be'],
    ['limits bound to a var', { ASKBOX_LIMITS: 'kv' }, 'ASKBOX_LIMITS must be a Durable Object binding'],
  ])('answers 503 in the envelope and logs why, never the key (%s)', async (_name, env, reason) => {
    const logs: string[] = [];
    const durableObject = !('ASKBOX_LIMITS' in env);
    const worker = await startWorker(contractConfig('http://127.0.0.1:9/api/v1', []), { env, durableObject, logs });
    try {
      for (let i = 0; i < 2; i++) {
        const response = await fetch(`${worker.url}/health`);
        expect(response.status).toBe(503);
        expect(await response.json()).toEqual(refusalBody('misconfigured'));
      }
    } finally {
      await worker.close();
    }
    const errors = logs.filter((line) => line.startsWith('error: [askbox] misconfigured:'));
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain(reason);
    expect(logs.join('\n')).not.toContain(CONTRACT_KEY);
  });
});

/** Starts a conversation through Worker copy `i`, from `ip`; its status. */
const create = (worker: Awaited<ReturnType<typeof startWorker>>, i: number, ip: string) =>
  worker
    .dispatch(i, 'http://localhost/askbox/conversations', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: '{"name":"race","bot_id":"askboxDemo01"}',
    })
    .then(async (response) => (await response.arrayBuffer(), response.status));

describe('the Worker entry on workerd, limits', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let config: ContractConfig;

  beforeAll(async () => {
    upstream = await startUpstream(CONTRACT_KEY, CONTRACT_SCENARIO);
    config = contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin);
  });
  afterAll(() => upstream?.close());

  it('hold under concurrent requests to two isolates: the Durable Object takes atomically', async () => {
    const worker = await startWorker(config, 2);
    try {
      const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => create(worker, i % 2, '198.51.100.7')));
      // The IP's conversation burst is 4, for both isolates together.
      expect(statuses.filter((status) => status === 200)).toHaveLength(config.limits.ipConversations.burst);
      expect(statuses.filter((status) => status === 429)).toHaveLength(12 - config.limits.ipConversations.burst);
    } finally {
      await worker.close();
    }
  });

  it('fall back to per-isolate memory without the ASKBOX_LIMITS binding, and say so once', async () => {
    const logs: string[] = [];
    const worker = await startWorker(config, { workers: 2, durableObject: false, logs });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push(await create(worker, i % 2, '198.51.100.8'));
      // Each isolate grants the full burst of 4: eight pass, not four.
      expect(statuses.filter((status) => status === 200)).toHaveLength(2 * config.limits.ipConversations.burst);
    } finally {
      await worker.close();
    }
    // Once per isolate, not once per request.
    expect(logs.filter((line) => line.includes('ASKBOX_LIMITS is not bound'))).toHaveLength(2);
    expect(logs.find((line) => line.includes('ASKBOX_LIMITS is not bound'))).toMatch(/^warn: /);
  });
});

describe('the Worker entry on workerd, hostile or failing', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let config: ContractConfig;

  beforeAll(async () => {
    upstream = await startUpstream(CONTRACT_KEY, CONTRACT_SCENARIO);
    config = contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin);
  });
  afterAll(() => upstream?.close());

  it('answers a broken chunked request body with a 400 in the envelope, not a 502', async () => {
    const worker = await startWorker(config);
    try {
      const { host } = new URL(worker.url);
      const head = [
        'POST /askbox/conversations HTTP/1.1',
        `Host: ${host}`,
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
        'Connection: close',
        '',
        'zz',
        '{"name":"x"}',
        '0',
      ].join('\n');
      const { status, text } = await rawRequest(worker.url, head);
      expect(status).toBe(400);
      expect(text).toContain('{"message":');
    } finally {
      await worker.close();
    }
  });

  it('keeps the buckets of two sites bound to one AskboxLimits namespace apart (ASKBOX_SITE_ID)', async () => {
    const worker = await startWorker(config, {
      workers: 2,
      perWorkerEnv: [{ ASKBOX_SITE_ID: 'shop-one' }, { ASKBOX_SITE_ID: 'shop-two' }],
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push(await create(worker, i % 2, '198.51.100.9'));
      const byWorker = [0, 1].map((w) => statuses.filter((status, i) => i % 2 === w && status === 200).length);
      // Each site grants the IP its own burst of 4; shared buckets would give 4 in all.
      expect(byWorker).toEqual([config.limits.ipConversations.burst, config.limits.ipConversations.burst]);
    } finally {
      await worker.close();
    }
  });

  it('caps a simulated day and passes the bucket table in the Durable Object, as the memory and Redis stores do', async () => {
    const worker = await startWorker(config);
    try {
      const store = createDurableObjectStore(await worker.limits(), 'simulated-day');
      expect(await simulateDays(store)).toEqual({ visitor: [39, 20], ip: [99, 50] });
      // The token bucket's table, which every store passes (test/fixtures/token-buckets.ts).
      const table = createDurableObjectStore(await worker.limits(), 'bucket-table');
      for (const [i, c] of BUCKET_CASES.entries())
        expect(await runBucketCase(table, c, `table:${i}`), c.title).toBe(c.wait);
      expect(await store.claim('stream:x', 2000, 0)).toBe(true);
      expect(await store.claim('stream:x', 2000, 1999)).toBe(false);
    } finally {
      await worker.close();
    }
  }, 60_000);

  it('keeps signed-in people’s lists in the Durable Object’s storage, passing the people cases', async () => {
    const worker = await startWorker(config);
    try {
      const namespace = await worker.limits();
      for (const [i, c] of [...PEOPLE_CASES, ...EXPIRY_CASES].entries())
        await c.run(createDurableObjectPeopleStore(namespace, `people-case-${i}`));
    } finally {
      await worker.close();
    }
  }, 60_000);

  it('deletes a list nobody reads again once it has expired (the object’s alarm), keeping a live one', async () => {
    const worker = await startWorker(config);
    try {
      const store = createDurableObjectPeopleStore(await worker.limits(), 'swept');
      const [gone, kept] = [`u-${'g'.repeat(40)}`, `u-${'k'.repeat(40)}`];
      const now = Date.now();
      await store.add({ person: kept, conversation: conversation(2), ttlMs: 24 * 3600 * 1000, now });
      await store.add({ person: gone, conversation: conversation(1), ttlMs: 200, now });
      // A read at `now`, before either list expires, finds a list while its key is stored: [] only once deleted.
      expect(await store.list(gone, now)).toEqual([conversation(1)]);
      // The alarm rings 200 ms after the write; allow the loaded machine 10 s.
      await expect.poll(() => store.list(gone, now), { timeout: 10_000, interval: 100 }).toEqual([]);
      expect(await store.list(kept, now)).toEqual([conversation(2)]);
    } finally {
      await worker.close();
    }
  }, 60_000);

  it('fails closed within the store deadline when the Durable Object never answers, and logs why', async () => {
    const logs: string[] = [];
    const worker = await startWorker(config, { stuckLimits: true, logs });
    try {
      const begun = Date.now();
      const response = await worker.dispatch(0, 'http://localhost/askbox/conversations', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.10' },
        body: '{"name":"x","bot_id":"askboxDemo01"}',
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toEqual(refusalBody('busy'));
      expect(Date.now() - begun).toBeLessThan(2500);
    } finally {
      await worker.close();
    }
    const errors = logs.filter((line) => line.includes('"event":"limits"'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('StoreError: The limit store failed: no answer within 500 ms');
    expect(upstream.records.filter((r) => r.body.includes('"name":"x"'))).toEqual([]);
  }, 30_000);

  it('fails closed when the people store never answers, logging the people store (not the limits) as what failed', async () => {
    const logs: string[] = [];
    const identitySecret = 'workerd-identity-secret-0123456789';
    // Limits off: the stuck object is reached only as the people store.
    const options = JSON.stringify({ limits: false, timeouts: config.timeouts, clientIp: config.clientIp });
    const worker = await startWorker(
      { ...config, identitySecret },
      { stuckLimits: true, logs, env: { ASKBOX_OPTIONS: options } },
    );
    const id = 'ada@example.com';
    const headers = {
      'content-type': 'application/json',
      'x-forwarded-for': '198.51.100.11',
      [IDENTITY.userHeader]: id,
      [IDENTITY.hashHeader]: createHmac('sha256', identitySecret).update(id).digest('hex'),
    };
    try {
      for (const init of [{ headers }, { method: 'POST', headers, body: '{"name":"p","bot_id":"askboxDemo01"}' }]) {
        const response = await worker.dispatch(0, 'http://localhost/askbox/conversations', init);
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('5');
        expect(await response.json()).toEqual(refusalBody('busy'));
      }
    } finally {
      await worker.close();
    }
    const errors = logs.filter((line) => line.startsWith('error:'));
    expect(errors).toHaveLength(2);
    for (const line of errors) {
      expect(line).toContain('"event":"people"');
      expect(line).toContain('StoreError: The people store failed: no answer within 500 ms');
    }
  }, 30_000);
});

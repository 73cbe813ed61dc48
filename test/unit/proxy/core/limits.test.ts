import { DEMO_BOT_ID } from '../../../../demo/simulator/index';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BucketCheck, LimitStore } from '../../../../src/proxy/core/limits';
import { createMemoryStore } from '../../../../src/proxy/stores/memory';
import { createRedisStore } from '../../../../src/proxy/stores/redis';
import { BUCKET_CASES, runBucketCase } from '../../../fixtures/token-buckets';
import { setup, simulateDays } from '../../../helpers/proxy';
import { startRedis } from '../../../helpers/redis';

const T0 = 1_700_000_000_000;
const bucket = (key: string, capacity: number, perMinute: number): BucketCheck => ({
  key,
  capacity,
  refillPerSecond: perMinute / 60,
});

let redis: Awaited<ReturnType<typeof startRedis>>;
const clients: { quit(): Promise<unknown> }[] = [];
let keySpace = 0;

/** A fresh Redis store (its own key prefix) over its own connection, as another proxy process would have. */
async function redisStore(prefix = `t${++keySpace}:`): Promise<LimitStore> {
  const client = createClient({ url: redis.url });
  await client.connect();
  clients.push(client);
  return createRedisStore({ eval: (script, keys, args) => client.eval(script, { keys, arguments: args }) }, { prefix });
}

beforeAll(async () => {
  redis = await startRedis();
}, 30_000);

afterAll(async () => {
  for (const client of clients) await client.quit();
  await redis?.stop();
});

/** The behaviour every store must share, run against memory and Redis alike. */
const stores: [string, () => Promise<LimitStore>][] = [
  ['memory', async () => createMemoryStore()],
  ['redis', () => redisStore()],
];

describe.each(stores)('limit store: %s', (_name, make) => {
  it.each(BUCKET_CASES.map((c) => [c.title, c] as const))('passes the bucket table: %s', async (_title, c) => {
    expect(await runBucketCase(await make(), c, 'table')).toBe(c.wait);
  });

  it('allows the burst, then refuses with the time to the next token', async () => {
    const store = await make();
    const b = bucket('a', 3, 6);
    for (let i = 0; i < 3; i++) expect(await store.take([b], T0)).toBe(0);
    expect(await store.take([b], T0)).toBe(10_000);
    expect(await store.take([b], T0 + 4000)).toBe(6000);
  });

  it('refills over time, never beyond the capacity', async () => {
    const store = await make();
    const b = bucket('a', 2, 60);
    await store.take([b], T0);
    await store.take([b], T0);
    expect(await store.take([b], T0 + 500)).toBe(500);
    expect(await store.take([b], T0 + 1000)).toBe(0);
    const later = T0 + 3_600_000;
    expect(await store.take([b], later)).toBe(0);
    expect(await store.take([b], later)).toBe(0);
    expect(await store.take([b], later)).toBeGreaterThan(0);
  });

  it('is all or nothing: a refusal takes no token from the other buckets', async () => {
    const store = await make();
    const wide = bucket('wide', 5, 60);
    const narrow = bucket('narrow', 1, 1);
    expect(await store.take([wide, narrow], T0)).toBe(0);
    for (let i = 0; i < 3; i++) expect(await store.take([wide, narrow], T0)).toBe(60_000);
    for (let i = 0; i < 4; i++) expect(await store.take([wide], T0)).toBe(0);
    expect(await store.take([wide], T0)).toBeGreaterThan(0);
  });

  it('claims a key once until its TTL has passed (single-use stream tokens)', async () => {
    const store = await make();
    expect(await store.claim('stream:a', 2000, T0)).toBe(true);
    expect(await store.claim('stream:a', 2000, T0)).toBe(false);
    expect(await store.claim('stream:b', 2000, T0)).toBe(true);
    expect(await store.claim('stream:a', 2000, T0 + 1900)).toBe(false);
    const racing = await Promise.all(Array.from({ length: 10 }, () => store.claim('stream:c', 2000, T0)));
    expect(racing.filter(Boolean)).toHaveLength(1);
  });

  it('caps a simulated day: 2N−1 in the first 24 hours from a full bucket, N in the next (visitor and IP)', async () => {
    // Daily caps of 20 per visitor and 50 per IP, a message every 10 minutes for two days (see simulateDays).
    expect(await simulateDays(await make())).toEqual({ visitor: [39, 20], ip: [99, 50] });
  });

  it('keeps buckets apart by key', async () => {
    const store = await make();
    expect(await store.take([bucket('x', 1, 1)], T0)).toBe(0);
    expect(await store.take([bucket('y', 1, 1)], T0)).toBe(0);
    expect(await store.take([bucket('x', 1, 1)], T0)).toBeGreaterThan(0);
  });
});

describe('limit store: redis only', () => {
  it('is shared by two connections (two proxy processes) and atomic under concurrency', async () => {
    const one = await redisStore('shared:');
    const two = await redisStore('shared:');
    const b = bucket('burst', 10, 1);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? one : two).take([b], T0)));
    expect(answers.filter((wait) => wait === 0)).toHaveLength(10);
  });

  it('lets a bucket expire once it would be full again', async () => {
    const client = createClient({ url: redis.url });
    await client.connect();
    clients.push(client);
    const store = createRedisStore(
      { eval: (script, keys, args) => client.eval(script, { keys, arguments: args }) },
      { prefix: 'ttl:' },
    );
    await store.take([bucket('k', 4, 2)], T0);
    const ttl = await client.pTTL('ttl:k');
    expect(ttl).toBeGreaterThan(110_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });

  it('refuses to trust an answer that is not a wait, or a claim that is not 0 or 1', async () => {
    for (const answer of [null, 'soon', -1, { wait: 0 }]) {
      const store = createRedisStore({ eval: async () => answer });
      await expect(store.take([bucket('k', 1, 1)], T0)).rejects.toThrow(/unexpected answer/);
    }
    for (const answer of [null, 2, -1, true, 'yes']) {
      const store = createRedisStore({ eval: async () => answer });
      await expect(store.claim('k', 1000, T0)).rejects.toThrow(/unexpected answer/);
    }
    expect(await createRedisStore({ eval: async () => '1' }).claim('k', 1000, T0)).toBe(true);
  });

  it('keeps a claim for its TTL under the prefix', async () => {
    const client = createClient({ url: redis.url });
    await client.connect();
    clients.push(client);
    const store = createRedisStore(
      { eval: (script, keys, args) => client.eval(script, { keys, arguments: args }) },
      { prefix: 'claims:' },
    );
    expect(await store.claim('stream:t', 5000, T0)).toBe(true);
    const ttl = await client.pTTL('claims:claim:stream:t');
    expect(ttl).toBeGreaterThan(4000);
    expect(ttl).toBeLessThanOrEqual(5000);
  });
});

describe('limit store: a Redis that accepts connections and never answers', () => {
  it('fails closed within the store deadline: 503 with Retry-After, one log line naming the cause', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const client = createClient({ url: `redis://127.0.0.1:${(silent.address() as AddressInfo).port}` });
    client.on('error', () => undefined);
    try {
      // Connected once the silent server has the socket; the client may still await its handshake, which never ends.
      void client.connect().catch(() => undefined);
      await expect.poll(() => sockets.length).toBe(1);
      const store = createRedisStore({ eval: (script, keys, args) => client.eval(script, { keys, arguments: args }) });
      const { call, upstreamCalls, logs } = setup({ store, timeouts: { storeMs: 300 } });
      const begun = Date.now();
      const response = await call('POST', '/conversations', { name: 'x', bot_id: DEMO_BOT_ID });
      expect(Date.now() - begun).toBeGreaterThanOrEqual(290);
      expect(Date.now() - begun).toBeLessThan(1500);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toEqual({ message: 'The chat is busy. Please try again shortly.' });
      expect(upstreamCalls).toEqual([]);
      expect(logs.filter((line) => line.level === 'error')).toEqual([
        expect.objectContaining({
          event: 'limits',
          message: 'StoreError: The limit store failed: no answer within 300 ms',
        }),
      ]);
    } finally {
      client.destroy();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});

describe('limit store: memory only', () => {
  it('forgets expired claims, and the oldest beyond its bound', async () => {
    const store = createMemoryStore(2);
    expect(await store.claim('a', 1000, T0)).toBe(true);
    expect(await store.claim('b', 1000, T0)).toBe(true);
    // Two claims are within a bound of two: both are held.
    expect(await store.claim('a', 1000, T0)).toBe(false);
    expect(await store.claim('c', 1000, T0)).toBe(true);
    // `a` was forgotten to keep the bound (a forgotten claim is the lenient side); `b` and `c` are still held.
    expect(await store.claim('c', 1000, T0)).toBe(false);
    expect(await store.claim('a', 1000, T0)).toBe(true);
    expect(await store.claim('a', 1000, T0 + 1000)).toBe(true);
  });

  it('forgets, beyond its bound, the buckets that expire soonest, not the least recently used (STORE_SIZES)', async () => {
    const store = createMemoryStore(2);
    // `slow` expires 10 minutes after its take, `quick` 1 minute after: `quick` is the one nearest to full.
    const slow = bucket('slow', 1, 0.1);
    const quick = bucket('quick', 1, 1);
    expect(await store.take([slow], T0)).toBe(0);
    expect(await store.take([quick], T0)).toBe(0);
    await store.take([bucket('c', 1, 1)], T0);
    // `quick` went, though `slow` was used less recently; `slow` is still empty.
    expect(await store.take([slow], T0)).toBeGreaterThan(0);
    expect(await store.take([quick], T0)).toBe(0);
  });

  it('forgets expired buckets first', async () => {
    const store = createMemoryStore(2);
    const slow = bucket('slow', 1, 0.1);
    expect(await store.take([slow], T0)).toBe(0);
    await store.take([bucket('quick', 1, 1)], T0);
    // A minute on, `quick` has expired: it goes, and `slow` stays empty.
    await store.take([bucket('c', 1, 1)], T0 + 60_000);
    expect(await store.take([slow], T0 + 60_000)).toBeGreaterThan(0);
  });

  /** Buckets `b1`…`b<count>` of one token, each taken at T0, `bN` expiring N minutes later. */
  async function fill(store: ReturnType<typeof createMemoryStore>, count: number) {
    for (let n = 1; n <= count; n++) expect(await store.take([bucket(`b${n}`, 1, 1 / n)], T0)).toBe(0);
  }

  it('past its bound, forgets one hundredth of it more, so that a flood sorts once per hundredth', async () => {
    const store = createMemoryStore(100);
    await fill(store, 100);
    // One over the bound: the soonest to expire goes, and one more (1 % of 100): b1 and b2, not b3.
    await store.take([bucket('new', 1, 0.001)], T0);
    expect(await store.take([bucket('b3', 1, 1 / 3)], T0)).toBeGreaterThan(0);
    expect(await store.take([bucket('b2', 1, 1 / 2)], T0)).toBe(0);
    expect(await store.take([bucket('b1', 1, 1)], T0)).toBe(0);
  });

  it('forgets nothing but the expired when dropping them brings it back within its bound', async () => {
    const store = createMemoryStore(100);
    await fill(store, 100);
    // A minute on, b1 has expired (to the millisecond): it goes, which leaves 100, and b2 (half full) stays empty.
    await store.take([bucket('new', 1, 0.001)], T0 + 60_000);
    expect(await store.take([bucket('b2', 1, 1 / 2)], T0 + 60_000)).toBeGreaterThan(0);
  });
});

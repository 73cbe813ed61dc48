import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { createProxy } from '../../src/proxy/core/proxy';
import { toNodeListener } from '../../src/proxy/adapters/node/node';
import { createRedisStore } from '../../src/proxy/stores/redis';
import { startRedis } from '../helpers/redis';
import { CONTRACT_KEY, CONTRACT_SCENARIO, contractConfig } from './config';
import { startUpstream } from './upstream';

/**
 * Two Node proxy processes' worth of state (two handlers, two Redis connections) behind one site: with a shared
 * Redis store and a shared secret they enforce ONE limit and accept each other's grants, as a load-balanced
 * deployment needs.
 */
describe('two Node proxy instances sharing one Redis', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  const clients: { quit(): Promise<unknown> }[] = [];
  const servers: Server[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    upstream = await startUpstream(CONTRACT_KEY, CONTRACT_SCENARIO);
    const config = contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin);
    for (let i = 0; i < 2; i++) {
      const client = createClient({ url: redis.url });
      await client.connect();
      clients.push(client);
      const store = createRedisStore({ eval: (script, keys, args) => client.eval(script, { keys, arguments: args }) });
      const server = createServer(toNodeListener(createProxy({ ...config, store })));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/askbox`);
    }
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    for (const client of clients) await client.quit();
    await upstream?.close();
    await redis?.stop();
  });

  const post = (instance: number, path: string, body: unknown, grant?: string) =>
    fetch(`${urls[instance]}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': '203.0.113.250',
        ...(grant ? { 'x-askbox-grant': grant } : {}),
      },
      body: JSON.stringify(body),
    });

  it('enforce one shared limit, alternating between the instances', async () => {
    const created = await post(0, '/conversations', { name: 'shared', bot_id: DEMO_BOT_ID });
    const { data, meta } = (await created.json()) as { data: { id: string }; meta: { grant: string } };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await post(i % 2, '/messages', { content: `hello ${i}`, conversation_id: data.id }, meta.grant)).status,
      );
    // The visitor's burst is 3 in the contract configuration: 3 across both instances, not 3 each.
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('hold under concurrent requests to both instances (the store is atomic)', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(i % 2, '/conversations', { name: `race ${i}`, bot_id: DEMO_BOT_ID }).then((r) => r.status),
      ),
    );
    // The IP's conversation burst is 4; the IP already spent one above.
    expect(attempts.filter((status) => status === 200)).toHaveLength(3);
    expect(attempts.filter((status) => status === 429)).toHaveLength(9);
  });
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy } from '../../src/proxy/core/proxy';
import { toNodeListener } from '../../src/proxy/adapters/node/node';
import { startPhpProxy } from '../helpers/php';
import { startWorker } from '../helpers/workerd';
import { CONTRACT_KEY, CONTRACT_SCENARIO, contractConfig } from './config';
import { startUpstream } from './upstream';

function headers(ip: string, grant?: string): Record<string, string> {
  return { 'content-type': 'application/json', 'x-forwarded-for': ip, ...(grant ? { 'x-askbox-grant': grant } : {}) };
}

/**
 * One site, three runtimes: a grant minted by any of the Node, Workers and PHP proxies opens the conversation on
 * the others (a site can switch runtimes without losing its visitors' conversations), and several Worker isolates
 * share one limit through the Durable Object.
 */
describe('Node, workerd and PHP proxies with one secret', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let php: Awaited<ReturnType<typeof startPhpProxy>>;
  let node: { url: string; close(): void };

  beforeAll(async () => {
    upstream = await startUpstream(CONTRACT_KEY, CONTRACT_SCENARIO);
    const config = contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin);
    worker = await startWorker(config, 2);
    php = await startPhpProxy(config);
    const server = createServer(toNodeListener(createProxy(config)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    node = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${config.basePath}`,
      close: () => {
        server.closeAllConnections();
        server.close();
      },
    };
  }, 60_000);

  afterAll(async () => {
    node?.close();
    await worker?.close();
    await php?.close();
    await upstream?.close();
  });

  const create = async (base: string, ip: string) => {
    const response = await fetch(`${base}/conversations`, {
      method: 'POST',
      headers: headers(ip),
      body: '{"name":"cross","bot_id":"askboxDemo01"}',
    });
    return (await response.json()) as { data: { id: string }; meta: { grant: string } };
  };

  it('accepts grants minted by every other runtime', async () => {
    const runtimes = () => ({ node: node.url, workerd: worker.url, php: php.url });
    const pairs = Object.entries(runtimes()).flatMap(([a, from]) =>
      Object.entries(runtimes())
        .filter(([b]) => b !== a)
        .map(([b, to]) => [`${a} → ${b}`, from, to] as const),
    );
    expect(pairs).toHaveLength(6);
    for (const [label, from, to] of pairs) {
      const { data, meta } = await create(from, '192.0.2.10');
      const read = await fetch(`${to}/messages?conversation_id=${data.id}`, {
        headers: headers('192.0.2.10', meta.grant),
      });
      expect(read.status, label).toBe(200);
      const sent = await fetch(`${to}/messages`, {
        method: 'POST',
        headers: headers('192.0.2.10', meta.grant),
        body: JSON.stringify({ content: 'shipping?', conversation_id: data.id }),
      });
      expect(sent.status, label).toBe(200);
    }
  });

  it('enforces one limit across Worker isolates through the Durable Object', async () => {
    const { data, meta } = await create(worker.url, '192.0.2.20');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await worker.dispatch(i % 2, 'http://localhost/askbox/messages', {
        method: 'POST',
        headers: headers('192.0.2.20', meta.grant),
        body: JSON.stringify({ content: `hello ${i}`, conversation_id: data.id }),
      });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    // The visitor's burst is 3: three across both isolates, not three each.
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
  });
});

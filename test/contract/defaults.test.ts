import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { FIELDS } from '../../src/protocol/contract';
import { createProxy } from '../../src/proxy/core/proxy';
import { toNodeListener } from '../../src/proxy/adapters/node/node';
import { limitMessage } from '../helpers/messages';
import { startPhpProxy } from '../helpers/php';
import { startWorker } from '../helpers/workerd';
import { CONTRACT_KEY, CONTRACT_SCENARIO, contractConfig, type ContractConfig } from './config';
import { startUpstream } from './upstream';

/** What one exchange answered, without what differs by nature (ids, grants, stream tokens). */
interface Seen {
  status: number;
  retryAfter: string | null;
  body: unknown;
}

/**
 * The contract suite passes explicit limits and timeouts, so drift in the defaults would go unseen there. Here every
 * runtime runs on its own defaults (only the site's identity is set) and one script of requests must get identical
 * answers from each: the default limits, their Retry-After and wording, and the service's 422s.
 */
describe('Node, workerd and PHP proxies on their defaults', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  const runtimes: Record<string, { url: string; close(): Promise<void> | void }> = {};

  beforeAll(async () => {
    upstream = await startUpstream(CONTRACT_KEY, CONTRACT_SCENARIO);
    const full = contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin);
    // No limits, timeouts or stream lifetime: each runtime's defaults.
    const config = {
      ...full,
      limits: undefined,
      timeouts: undefined,
      streamTtlSeconds: undefined,
    } as unknown as ContractConfig;
    const server = createServer(toNodeListener(createProxy(config)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    runtimes.node = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${config.basePath}`,
      close: () => {
        server.closeAllConnections();
        server.close();
      },
    };
    runtimes.workerd = await startWorker(config);
    runtimes.php = await startPhpProxy(config);
  }, 60_000);

  afterAll(async () => {
    for (const runtime of Object.values(runtimes)) await runtime.close();
    await upstream?.close();
  });

  /** The script: the same requests, from the same client IPs, against one runtime. */
  async function script(base: string): Promise<Seen[]> {
    const seen: Seen[] = [];
    const call = async (ip: string, method: string, path: string, body?: unknown, grant?: string) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': ip,
          ...(grant ? { 'x-askbox-grant': grant } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
      });
      const json = (await response.json().catch(() => null)) as { data?: { id?: string }; meta?: { grant?: string } };
      seen.push({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: response.ok ? Object.keys(json ?? {}) : json,
      });
      return json;
    };
    const created = await call('198.51.100.1', 'POST', '/conversations', { name: 'defaults', bot_id: DEMO_BOT_ID });
    const id = created?.data?.id ?? '';
    const grant = created?.meta?.grant ?? '';
    // A visitor's default burst is 6 messages.
    for (let i = 0; i < 7; i++)
      await call('198.51.100.1', 'POST', '/messages', { content: `question ${i}`, conversation_id: id }, grant);
    // A visitor's default burst of new conversations is 3 (the first one above counts).
    for (let i = 0; i < 3; i++)
      await call('198.51.100.1', 'POST', '/conversations', { name: 'again', bot_id: DEMO_BOT_ID }, grant);
    await call('198.51.100.2', 'POST', '/conversations', {});
    await call('198.51.100.2', 'POST', '/messages', {});
    await call('198.51.100.2', 'POST', '/messages', {
      content: 'x'.repeat(FIELDS.contentMax + 1),
      conversation_id: 'unknownConv1',
    });
    await call('198.51.100.2', 'GET', '/health');
    return seen;
  }

  it('answer one script identically', async () => {
    const answers = {
      node: await script(runtimes.node!.url),
      workerd: await script(runtimes.workerd!.url),
      php: await script(runtimes.php!.url),
    };
    expect(answers.node.map((seen) => seen.status)).toEqual([
      200, 200, 200, 200, 200, 200, 200, 429, 200, 200, 429, 422, 422, 422, 200,
    ]);
    expect(answers.node[7]).toEqual({
      status: 429,
      retryAfter: '10',
      body: { message: limitMessage('message', 10) },
    });
    expect(answers.workerd).toEqual(answers.node);
    expect(answers.php).toEqual(answers.node);
  });
});

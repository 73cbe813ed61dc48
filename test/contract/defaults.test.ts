import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import {
  BASE_HEADERS,
  CORS_MAX_AGE_SECONDS,
  FIELDS,
  ROUTE_METHODS,
  ROUTES,
  SECRET_MIN_LENGTH,
  TRUSTED_HOPS,
} from '../../src/protocol/contract';
import { createProxy } from '../../src/proxy/core/proxy';
import { toNodeListener } from '../../src/proxy/adapters/node/node';
import { limitMessage, refusalBody } from '../helpers/messages';
import { withBlock } from '../../scripts/php-contract';
import { startPhpProxy } from '../helpers/php';
import { startWorker } from '../helpers/workerd';
import { CONTRACT_KEY, CONTRACT_SCENARIO, contractConfig, PARTNER, type ContractConfig } from './config';
import { startUpstream } from './upstream';

/** What one exchange answered, without what differs by nature (ids, grants, stream tokens). */
interface Seen {
  status: number;
  retryAfter: string | null;
  body: unknown;
}

/** What a runtime answered, but for how long a refusal says to wait: whether it says so. */
const withoutWait = (seen: Seen[]) => seen.map(({ retryAfter, ...rest }) => ({ ...rest, waits: retryAfter !== null }));

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
    // First conversations of three new visitors (no grant, three IPs): LIMIT_BUCKETS takes no visitor bucket without
    // a visitor, so one visitor-less bucket shared by the whole site cannot refuse the next newcomer.
    for (const ip of ['198.51.100.3', '198.51.100.4', '198.51.100.5'])
      await call(ip, 'POST', '/conversations', { name: 'newcomer', bot_id: DEMO_BOT_ID });
    return seen;
  }

  it('answer one script identically', async () => {
    const answers = {
      node: await script(runtimes.node!.url),
      workerd: await script(runtimes.workerd!.url),
      php: await script(runtimes.php!.url),
    };
    expect(answers.node.map((seen) => seen.status)).toEqual([
      200, 200, 200, 200, 200, 200, 200, 429, 200, 200, 429, 422, 422, 422, 200, 200, 200, 200,
    ]);
    expect(answers.node[7]).toEqual({
      status: 429,
      retryAfter: '10',
      body: { message: limitMessage('message', 10) },
    });
    // The runtimes play the script one after another, and a conversation bucket's Retry-After counts down in whole
    // seconds over a minute: a later runtime may say one second less. Everything else must be the same.
    for (const runtime of ['workerd', 'php'] as const) {
      expect(withoutWait(answers[runtime]), runtime).toEqual(withoutWait(answers.node));
      answers[runtime].forEach(({ retryAfter }, index) => {
        const drift = Number(answers.node[index]?.retryAfter) - Number(retryAfter);
        if (retryAfter !== null) expect(drift, `${runtime}: Retry-After of answer ${index}`).toBeOneOf([0, 1]);
      });
    }
  });

  it('send BASE_HEADERS, and answer a preflight with ROUTE_METHODS and CORS_MAX_AGE_SECONDS', async () => {
    for (const [name, runtime] of Object.entries(runtimes)) {
      const response = await fetch(`${runtime.url}/conversations`, {
        method: 'OPTIONS',
        headers: { origin: PARTNER, 'access-control-request-method': 'DELETE', 'x-forwarded-for': '198.51.100.9' },
      });
      expect(response.status, name).toBe(204);
      expect(response.headers.get('access-control-allow-methods'), name).toBe(ROUTE_METHODS.join(', '));
      expect(response.headers.get('access-control-max-age'), name).toBe(String(CORS_MAX_AGE_SECONDS));
      for (const [header, value] of Object.entries(BASE_HEADERS))
        expect(response.headers.get(header), `${name}: ${header}`).toBe(value);
    }
  });

  it('route by ROUTES: each route answers every other method with a 405 naming its own', async () => {
    for (const [name, runtime] of Object.entries(runtimes))
      for (const [route, { path, methods }] of Object.entries(ROUTES))
        for (const method of ROUTE_METHODS.filter((m) => !methods.includes(m))) {
          const target = path.replace('{id}', 'abcdefghijkl').replace('{token}', 'x'.repeat(40));
          const response = await fetch(`${runtime.url}/${target}`, {
            method,
            headers: { 'x-forwarded-for': '198.51.100.8' },
          });
          expect([response.status, response.headers.get('allow')], `${name}: ${method} ${route}`).toEqual([
            405,
            methods.join(', '),
          ]);
          await response.body?.cancel();
        }
  });
});

/**
 * What a runtime refuses at start-up, with the contract's own bound and the same message everywhere: Node throws
 * from createProxy; workerd and PHP answer every request 503 and log why.
 */
describe.each([
  [
    'TRUSTED_HOPS',
    { clientIp: { header: 'x-forwarded-for', trustedHops: TRUSTED_HOPS.max + 1 } },
    TRUSTED_HOPS.message,
  ],
  [
    'TRUSTED_HOPS',
    { clientIp: { header: 'x-forwarded-for', trustedHops: TRUSTED_HOPS.min - 1 } },
    TRUSTED_HOPS.message,
  ],
  [
    'SECRET_MIN_LENGTH',
    { secret: ['s'.repeat(SECRET_MIN_LENGTH - 1)] },
    `secret must be a string of at least ${SECRET_MIN_LENGTH} characters`,
  ],
])('%s out of range: %j', (_constant, override, message) => {
  const config = { ...contractConfig('http://127.0.0.1:9/api/v1', []), ...override } as ContractConfig;

  it('is refused the same way on Node, workerd and PHP', async () => {
    expect(() => createProxy(config)).toThrow(message);
    const logs: string[] = [];
    const worker = await startWorker(config, { logs });
    const php = await startPhpProxy(config);
    try {
      for (const runtime of [worker, php]) {
        const response = await fetch(`${runtime.url}/health`);
        expect(response.status).toBe(503);
        expect(await response.json()).toEqual(refusalBody('misconfigured'));
      }
      expect(logs.join('\n')).toContain(message);
      await expect.poll(() => php.errors.join('')).toContain(message);
    } finally {
      await worker.close();
      await php.close();
    }
  }, 60_000);
});

/**
 * The constants above are read from the contract by every runtime: no source of the proxy (TypeScript, the PHP file
 * outside its generated block, the WordPress plugin) spells one of them out as code of its own.
 */
describe('no runtime keeps a copy of a contract constant', () => {
  const root = new URL('../../src/proxy/', import.meta.url);
  const sources = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|php)$/.test(file))
    .map((file) => {
      const text = readFileSync(new URL(file, root), 'utf8');
      return [file, file.endsWith('askbox-proxy.php') ? withBlock(text, '') : text] as const;
    });
  it.each([
    ['SERVICE.upstream', "'https://getcody.ai"],
    ['SERVICE.streamOrigin', "'https://stream.aimcaiface.com"],
    ['SERVICE.jsonMaxBytes', '1024 * 1024'],
    ['SERVICE.jsonMaxBytes', '1048576'],
    ['BASE_HEADERS', "'nosniff'"],
    ['BASE_PATH', "'/askbox'"],
    ['ROUTE_METHODS', "'GET, POST"],
    ['ROUTE_METHODS', "['GET', 'POST']"],
    ['CORS_MAX_AGE_SECONDS', "'600'"],
  ])('%s (%s)', (_constant, literal) => {
    expect(sources.filter(([, text]) => text.includes(literal)).map(([file]) => file)).toEqual([]);
  });
});

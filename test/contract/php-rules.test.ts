import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHP_PROXY, runPhp, startPhpProxy } from '../helpers/php';
import { CONVERSATION, json, startService } from '../helpers/php-service';
import { CONTRACT_KEY, contractConfig, CURRENT_SECRET, PARTNER } from './config';
import { mintGrant } from './http';

let visitors = 0;
/** A grant for the service's one conversation, for a fresh visitor. */
const grantFor = (visitorId = `visitor${++visitors}`) =>
  mintGrant(CURRENT_SECRET, {
    conversationId: CONVERSATION.data.id,
    botId: CONVERSATION.data.bot_id,
    visitorId,
    expires: Math.floor(Date.now() / 1000) + 600,
  });

/**
 * The PHP proxy's security rules at their edges: each test here fails when its rule is weakened by one step (the
 * mutants of test/mutate/php.ts), where the contract suite's broader cases would not notice.
 */
describe('the PHP proxy rules at their edges', () => {
  let service: Awaited<ReturnType<typeof startService>>;
  let proxy: Awaited<ReturnType<typeof startPhpProxy>>;
  let ip = 0;

  beforeAll(async () => {
    service = await startService({
      'POST /api/v1/conversations': json(CONVERSATION),
      'POST /api/v1/messages': json({ data: { id: 'msg000000001', content: 'ok' } }),
      'GET /api/v1/messages': json({ data: [] }),
    });
    proxy = await startPhpProxy(contractConfig(service.url, []));
  }, 30_000);
  afterAll(async () => {
    await proxy?.close();
    await service?.close();
  });

  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    fetch(`${proxy.url}${path}`, {
      method,
      headers: {
        'x-forwarded-for': `192.0.2.${++ip}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  it('allows a listed origin exactly: no prefix, suffix or other scheme of it', async () => {
    expect((await call('GET', '/health', { origin: PARTNER })).status).toBe(200);
    for (const origin of [
      `${PARTNER}.evil.test`,
      PARTNER.replace('://', '://evil'),
      PARTNER.replace('https:', 'http:'),
      `${PARTNER}:8443`,
    ])
      expect((await call('GET', '/health', { origin })).status, origin).toBe(403);
  });

  it('takes the client from the right end of X-Forwarded-For (one trusted hop)', async () => {
    // ipConversations: a burst of 4. The left part is whatever the client wrote; the right part is what our proxy saw.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await call(
            'POST',
            '/conversations',
            { 'x-forwarded-for': `10.9.9.${i}, 198.51.100.77` },
            { name: 'x', bot_id: 'askboxDemo01' },
          )
        ).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it('rounds Retry-After up to the whole second the bucket needs', async () => {
    // visitorMessages: a burst of 3 refilled at 6 a minute, so the fourth message waits just under 10 s.
    const grant = grantFor();
    const send = () =>
      call('POST', '/messages', { 'x-askbox-grant': grant }, { content: 'hi', conversation_id: CONVERSATION.data.id });
    for (let i = 0; i < 3; i++) expect((await send()).status).toBe(200);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('10');
  });

  it('forwards only the listed query keys when reading messages', async () => {
    const mark = service.seen.length;
    const response = await call('GET', `/messages?conversation_id=${CONVERSATION.data.id}&page=2&keyword=x&bot_id=y`, {
      'x-askbox-grant': grantFor(),
    });
    expect(response.status).toBe(200);
    expect(service.seen.slice(mark)).toEqual([`GET /api/v1/messages?conversation_id=${CONVERSATION.data.id}&page=2`]);
  });

  it('refuses a conversation id from the service that is not a plain id (502), so grants stay well formed', async () => {
    for (const id of ['abc.defghijk', 'abc/def', `x${'a'.repeat(64)}`]) {
      const odd = await startService({ 'POST /api/v1/conversations': json({ data: { ...CONVERSATION.data, id } }) });
      const other = await startPhpProxy(contractConfig(odd.url, []));
      try {
        const response = await fetch(`${other.url}/conversations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"name":"x","bot_id":"askboxDemo01"}',
        });
        expect(response.status, id).toBe(502);
      } finally {
        await other.close();
        await odd.close();
      }
    }
  });
});

describe('the PHP proxy rules, called directly', () => {
  it('refuses a grant in the second it expires, and a stream token just past its expiry', () => {
    const result =
      runPhp(`$c = askbox_config(['apiKey' => 'k', 'botIds' => ['b'], 'secret' => str_repeat('s', 16), 'storeDir' => '/x']);
      $payload = implode('.', ['g1', 'conv', 'b', 'visitor', (string) intdiv(askbox_now_ms(), 1000)]);
      $grant = $payload . '.' . askbox_b64url(hash_hmac('sha256', $payload, str_repeat('s', 16), true));
      $c['streamTtlMs'] = -300;
      $token = askbox_seal($c, 'https://getcody.ai/x', 'conv');
      echo json_encode([askbox_grant_verify($c, $grant), askbox_unseal($c, $token)]);`);
    expect(result).toEqual([null, null]);
  });

  it('compares signatures in constant time (hash_equals), never with == or ===', () => {
    const source = readFileSync(PHP_PROXY, 'utf8');
    expect(source).toMatch(/hash_equals\(hash_hmac\('sha256', \$payload, \$secret, true\), \$mac\)/);
    expect(source).not.toMatch(/[!=]==?\s*\$mac\b/);
    // The one comparison of $mac with an operator: whether it decoded at all.
    expect(source.match(/\$mac\s*[!=]==?\s*[^\s)]+/g)).toEqual(['$mac === null']);
  });
});

describe('the PHP proxy against a store or a stream chain that misbehaves', () => {
  it('refuses (503) once another worker holds the store past its 500 ms deadline, never waits or lets through', async () => {
    const service = await startService({ 'POST /api/v1/conversations': json(CONVERSATION) });
    const proxy = await startPhpProxy(contractConfig(service.url, []));
    const create = () =>
      fetch(`${proxy.url}/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.200' },
        body: '{"name":"x","bot_id":"askboxDemo01"}',
      });
    let holder: ReturnType<typeof spawn> | undefined;
    try {
      expect((await create()).status).toBe(200);
      holder = spawn(
        'php',
        [
          '-r',
          `require getenv('ASKBOX_PHP_PROXY'); $db = askbox_db_open(getenv('STORE')); $db->exec('BEGIN IMMEDIATE'); echo "held\n"; sleep(4);`,
        ],
        {
          env: { ...process.env, ASKBOX_PHP_PROXY: PHP_PROXY, STORE: proxy.store },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      await new Promise((resolve) => holder!.stdout!.once('data', resolve));
      const begun = Date.now();
      const refused = await create();
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(Date.now() - begun).toBeGreaterThanOrEqual(450);
      expect(Date.now() - begun).toBeLessThan(2500);
    } finally {
      holder?.kill();
      await proxy.close();
      await service.close();
    }
  });

  it('sends the key only while the redirect chain has stayed on the service: not again after it left', async () => {
    // The service sends the stream to the stream host, which sends it back to the service.
    let hopOrigin = '';
    const service = await startService({
      'POST /api/v1/conversations': json(CONVERSATION),
      'POST /api/v1/messages/stream': (_req, res) => res.writeHead(302, { location: '/api/v1/s1' }).end(),
      'GET /api/v1/s1': (_req, res) => res.writeHead(302, { location: `${hopOrigin}/s2` }).end(),
      'GET /api/v1/s3': (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: [START]\n\ndata: [END]\n\n'),
    });
    const hop = await startService({
      'GET /s2': (_req, res) => res.writeHead(302, { location: `${service.url}/s3` }).end(),
    });
    hopOrigin = hop.origin;
    const proxy = await startPhpProxy(contractConfig(service.url, [], hop.origin));
    try {
      const grant = mintGrant(CURRENT_SECRET, {
        conversationId: CONVERSATION.data.id,
        botId: CONVERSATION.data.bot_id,
        visitorId: 'chainVisitor',
        expires: Math.floor(Date.now() / 1000) + 600,
      });
      const headers = { 'content-type': 'application/json', 'x-askbox-grant': grant, 'x-forwarded-for': '192.0.2.201' };
      const started = await fetch(`${proxy.url}/messages/stream`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ content: 'hi', conversation_id: CONVERSATION.data.id }),
        redirect: 'manual',
      });
      expect(started.status).toBe(302);
      const opened = await fetch(`${proxy.url}${(started.headers.get('location') ?? '').replace('/askbox', '')}`, {
        headers,
      });
      expect(opened.status).toBe(200);
      expect(await opened.text()).toContain('[END]');
      const gets = service.seen.flatMap((line, i) =>
        line.startsWith('GET') ? [[line, service.authorization[i]]] : [],
      );
      expect(gets).toEqual([
        ['GET /api/v1/s1', `Bearer ${CONTRACT_KEY}`],
        ['GET /api/v1/s3', null],
      ]);
      expect(hop.authorization).toEqual([null]);
    } finally {
      await proxy.close();
      await hop.close();
      await service.close();
    }
  });
});

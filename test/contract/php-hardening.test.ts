import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { refusalBody } from '../helpers/messages';
import { runPhp, runPhpOnStore, startPhpProxy } from '../helpers/php';
import { CONVERSATION, json, startService, type Route } from '../helpers/php-service';
import { freePort } from '../helpers/ports';
import { contractConfig } from './config';
import { rawRequest } from './http';

/** 100 MB of valid JSON (a conversation with a huge field), written as fast as the reader takes it. */
function huge(_req: IncomingMessage, res: ServerResponse) {
  const head = Buffer.from('{"data":{"id":"abcdefabcdef","pad":"');
  const tail = Buffer.from('"}}');
  const chunk = Buffer.alloc(2 ** 20, 0x78);
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': String(head.length + 100 * chunk.length + tail.length),
  });
  res.on('error', () => undefined);
  res.write(head);
  let left = 100;
  const write = () => {
    while (left > 0) {
      left--;
      if (!res.write(chunk)) return void res.once('drain', write);
    }
    res.end(tail);
  };
  write();
}

const post = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.50', ...headers },
    body: JSON.stringify(body),
    redirect: 'manual',
  });

describe('the PHP proxy against a hostile service or client', () => {
  const open: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((o) => o.close()));
  });
  async function start(routes: Record<string, Route>, extra: Record<string, unknown> = {}, streamOrigin?: string) {
    const service = await startService(routes);
    open.push(service);
    // 64 MB of memory: an answer read whole (100 MB) would end the worker instead of reaching the cap.
    const proxy = await startPhpProxy(contractConfig(service.url, [], streamOrigin), undefined, extra, {
      ini: { memory_limit: '64M' },
    });
    open.push(proxy);
    return { service, proxy };
  }

  it('caps an upstream JSON answer at 1 MiB: 100 MB is a 502 in the envelope, not exhausted memory', async () => {
    const { proxy } = await start({ 'POST /api/v1/conversations': huge });
    const begun = Date.now();
    const response = await post(proxy.url, '/conversations', { name: 'x', bot_id: 'askboxDemo01' });
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual(refusalBody('unexpectedAnswer'));
    expect(Date.now() - begun).toBeLessThan(5000);
    expect(proxy.errors.join('')).not.toMatch(/memory size|Fatal/i);
  });

  it('never writes a stream URL (a bearer capability) to its log, only its origin', async () => {
    const closed = await freePort();
    const capability = `http://127.0.0.1:${closed}/stream/SECRET-CAPABILITY-4f9a?sig=SECRET-SIG`;
    const { proxy } = await start(
      {
        'POST /api/v1/conversations': json(CONVERSATION),
        'POST /api/v1/messages/stream': (_req, res) => res.writeHead(302, { location: capability }).end(),
      },
      {},
      `http://127.0.0.1:${closed}`,
    );
    const created = await post(proxy.url, '/conversations', { name: 'x', bot_id: 'askboxDemo01' });
    const { meta } = (await created.json()) as { meta: { grant: string } };
    const started = await post(
      proxy.url,
      '/messages/stream',
      { content: 'hi', conversation_id: 'abcdefabcdef' },
      { 'x-askbox-grant': meta.grant },
    );
    expect(started.status).toBe(302);
    const stream = await fetch(`${proxy.url}${(started.headers.get('location') ?? '').replace('/askbox', '')}`, {
      headers: { 'x-askbox-grant': meta.grant, 'x-forwarded-for': '203.0.113.50' },
    });
    expect(stream.status).toBe(502);
    await expect.poll(() => proxy.errors.join('')).toContain(`"event":"upstream"`);
    const log = proxy.errors.join('');
    expect(log).toContain(`127.0.0.1:${closed}`);
    expect(log).not.toContain('SECRET');
    expect(log).not.toContain('/stream/');
  });

  it('refuses an underscore twin of the client-IP header (raw socket), which PHP would merge with it', async () => {
    const { proxy } = await start({});
    const { host } = new URL(proxy.url);
    const ask = (headers: string) =>
      rawRequest(proxy.url, `GET /askbox/health HTTP/1.1\nHost: ${host}\n${headers}Connection: close`);
    for (const twin of ['X_Forwarded_For: 198.51.100.1\n', 'x_forwarded-for: 198.51.100.1\n']) {
      for (const both of [twin, `X-Forwarded-For: 203.0.113.1\n${twin}`, `${twin}X-Forwarded-For: 203.0.113.1\n`]) {
        const refused = await ask(both);
        expect(refused.status, both).toBe(400);
        expect(refused.text).toMatch(/\{"message":"[^"]+"\}$/);
      }
    }
    for (const fine of ['X-Forwarded-For: 203.0.113.1\n', 'X_Askbox_Other: 1\n', ''])
      expect((await ask(fine)).status, fine).toBe(200);
  });

  it('serves only the public URL\u2019s host and allowedHosts once they are set (421 otherwise)', async () => {
    const { proxy } = await start({}, { publicUrl: 'https://chat.example', allowedHosts: ['alt.example:8080'] });
    const health = (host: string) =>
      rawRequest(proxy.url, `GET /askbox/health HTTP/1.1\nHost: ${host}\nConnection: close`);
    for (const host of ['chat.example', 'CHAT.example', 'alt.example:8080'])
      expect((await health(host)).status, host).toBe(200);
    const { host: loopback } = new URL(proxy.url);
    for (const host of [
      loopback,
      'localhost',
      'chat.example:8443',
      'alt.example',
      'alt.example:80',
      'evil.chat.example',
    ])
      expect((await health(host)).status, host).toBe(421);
  });
});

describe('the PHP proxy rules, called directly', () => {
  it('refuses a request body that is not all there within timeouts.bodyMs (408)', () => {
    const result = runPhp(`$_SERVER['CONTENT_TYPE'] = 'application/json';
      $c = ['timeouts' => ['bodyMs' => 300]];
      $slow = popen('(printf "{"; sleep 1; printf "}") 2>/dev/null', 'r');
      $fast = popen('printf "{\\"a\\":1}"', 'r');
      ob_start(); $t0 = microtime(true); $late = askbox_read_json($c, $slow); $ms = (microtime(true) - $t0) * 1000; ob_end_clean();
      ob_start(); $ok = askbox_read_json($c, $fast); ob_end_clean();
      echo json_encode([$late, $ms < 800, $ok]);`);
    expect(result).toEqual([408, true, { a: 1 }]);
  });

  it('tells private and loopback hosts, in every spelling the resolver takes, from public ones', () => {
    const hosts = {
      private: [
        'localhost',
        'LOCALHOST.',
        'a.localhost',
        '127.0.0.1',
        '127.255.0.9',
        '10.1.2.3',
        '172.16.0.1',
        '172.31.255.255',
        '192.168.1.1',
        '169.254.169.254',
        '100.64.0.1',
        '100.127.255.255',
        '0.0.0.0',
        '224.0.0.1',
        '2130706433',
        '0x7f.1',
        '0177.0.0.1',
        '127.1',
        '[::1]',
        '[::]',
        '[::ffff:7f00:1]',
        '[::ffff:127.0.0.1]',
        '[fd00::1]',
        '[fc00::1]',
        '[fe80::1]',
        '[febf::1]',
      ],
      public: [
        'getcody.ai',
        'stream.aimcaiface.com',
        '8.8.8.8',
        '172.15.0.1',
        '172.32.0.1',
        '100.63.0.1',
        '100.128.0.1',
        '169.253.0.1',
        '192.167.1.1',
        '11.0.0.1',
        '223.255.255.255',
        '[2606:4700::1]',
        '[fec0::1]',
        'cafe.example',
        '1e100.net',
      ],
    };
    const verdicts = runPhp(
      `echo json_encode(array_map(fn ($h) => askbox_private_host($h), json_decode(getenv('HOSTS'), true)));`,
      { HOSTS: JSON.stringify([...hosts.private, ...hosts.public]) },
    ) as boolean[];
    const expected = [...hosts.private.map(() => true), ...hosts.public.map(() => false)];
    expect(Object.fromEntries([...hosts.private, ...hosts.public].map((h, i) => [h, verdicts[i]]))).toEqual(
      Object.fromEntries([...hosts.private, ...hosts.public].map((h, i) => [h, expected[i]])),
    );
  });

  it('takes stream URLs only on the service or a listed stream origin, exactly, and private ones only for a private service', () => {
    const table: [string, string, boolean][] = [
      ['https://getcody.ai/api/v1', 'https://getcody.ai/stream/1', true],
      ['https://getcody.ai/api/v1', '/stream/1', true],
      ['https://getcody.ai/api/v1', 'https://stream.aimcaiface.com/x', true],
      ['https://getcody.ai/api/v1', 'https://STREAM.aimcaiface.com:443/x', true],
      ['https://getcody.ai/api/v1', 'http://stream.aimcaiface.com/x', false],
      ['https://getcody.ai/api/v1', 'https://stream.aimcaiface.com:8443/x', false],
      ['https://getcody.ai/api/v1', 'https://stream.aimcaiface.com.evil.example/x', false],
      ['https://getcody.ai/api/v1', 'https://evilstream.aimcaiface.com/x', false],
      ['https://getcody.ai/api/v1', 'https://user@getcody.ai/x', false],
      ['https://getcody.ai/api/v1', '//evil.example/x', false],
      ['https://getcody.ai/api/v1', 'ftp://getcody.ai/x', false],
      ['https://getcody.ai/api/v1', 'https://getcody.ai\\@evil.example/x', false],
      ['https://getcody.ai/api/v1', 'https://127.0.0.1/x', false],
      ['http://127.0.0.1:8080/api/v1', 'http://127.0.0.1:8080/stream', true],
      ['http://127.0.0.1:8080/api/v1', 'http://127.0.0.1:8081/stream', false],
    ];
    const verdicts = runPhp(
      `$out = [];
      foreach (json_decode(getenv('TABLE'), true) as [$up, $url]) {
        $c = askbox_config(['apiKey' => 'k', 'botIds' => ['b'], 'secret' => str_repeat('s', 16), 'upstream' => $up, 'storeDir' => '/x']);
        $out[] = askbox_stream_url($c, $url, $up) !== null;
      }
      echo json_encode($out);`,
      { TABLE: JSON.stringify(table) },
    ) as boolean[];
    expect(table.map(([, url], i) => [url, verdicts[i]])).toEqual(table.map(([, url, ok]) => [url, ok]));
  });

  it('caps one IP at ipMessagesPerDay and one visitor at visitorMessagesPerDay over simulated days', () => {
    // One message every 20 s for two days from one IP; a new visitor each time, or always the same one.
    const sent =
      runPhpOnStore(`$l = askbox_config(['apiKey' => 'k', 'botIds' => ['b'], 'secret' => str_repeat('s', 16), 'storeDir' => '/x'])['limits'];
      $l['ipMessages'] = $l['visitorMessages'] = ['burst' => 10, 'perMinute' => 10];
      $days = ['fresh' => [0, 0], 'same' => [0, 0]];
      foreach ($days as $who => &$count) {
        for ($t = 0; $t < 2 * 86400; $t += 20) {
          $visitor = $who === 'fresh' ? "v$t" : 'v';
          if (askbox_take($db, askbox_limit_checks($l, 'message', "ip-$who", $visitor), $t * 1000) === 0) $count[intdiv($t, 86400)]++;
        }
      }
      echo json_encode($days);`) as { fresh: [number, number]; same: [number, number] };
    // The first day: the full bucket, then what refills; every day after: the cap.
    expect(sent.fresh[0]).toBeGreaterThan(1000);
    expect(sent.fresh[0]).toBeLessThanOrEqual(2000);
    expect(Math.abs(sent.fresh[1] - 1000)).toBeLessThanOrEqual(1);
    expect(Math.abs(sent.same[1] - 200)).toBeLessThanOrEqual(1);
  }, 60_000);

  it.each([
    [{ allowedOrigins: ['https://partner.example/'] }, 'is not an origin'],
    [{ allowedOrigins: ['https://Partner.example'] }, 'is not an origin'],
    [{ allowedOrigins: ['https://partner.example:443'] }, 'is not an origin'],
    [{ allowedOrigins: ['*'] }, '"*" is not allowed in allowedOrigins'],
    [{ streamOrigins: ['ftp://s.example'] }, 'is not an origin'],
    [{ allowedHosts: ['evil.example/'] }, 'is not a host'],
    [{ allowedHosts: ['Chat.example'] }, 'is not a host'],
    [{ publicUrl: 'chat.example' }, 'publicUrl is not a URL'],
    [{ limits: { ipMessagesPerDay: 0 } }, 'ipMessagesPerDay ≥ 1'],
    [{ limits: { visitorMessages: { burst: 0, perMinute: 1 } } }, 'burst ≥ 1'],
    [{ limits: { ipMessages: { burst: 1, perMinute: 0 } } }, 'perMinute > 0'],
    [{ timeouts: { idleMs: 0 } }, 'timeouts must be positive'],
  ])('refuses the option %j', (extra, reason) => {
    const message = runPhp(
      `try { askbox_config(json_decode(getenv('OPTIONS'), true) + ['apiKey' => 'k', 'botIds' => ['b'], 'secret' => str_repeat('s', 16), 'storeDir' => '/x']); echo '"accepted"'; }
      catch (InvalidArgumentException $e) { echo json_encode($e->getMessage()); }`,
      { OPTIONS: JSON.stringify(extra) },
    );
    expect(message).toContain(reason);
  });
});

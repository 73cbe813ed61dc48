import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { IDENTITY, ROUTE_METHODS, STORE_SIZES } from '../../src/protocol/contract';
import { limitMessage, refusalBody } from '../helpers/messages';
import { runPhp, runPhpOnStore, startPhpProxy } from '../helpers/php';
import { CONTRACT_KEY, CONTRACT_SCENARIO, contractConfig, PARTNER } from './config';
import { readGrant } from './http';
import { startUpstream } from './upstream';
import type { PersonConversation } from '../../src/proxy/core/people';

const SECRET = 'identity-secret-of-this-site-0123';
const OTHER_SITE = 'identity-secret-of-another-site-99';
const hash = (id: string, secret = SECRET) => createHmac('sha256', secret).update(id).digest('hex');
const personKey = (id: string) =>
  `u-${createHmac('sha256', SECRET).update(`${IDENTITY.personLabel}${id}`).digest('hex').slice(0, 40)}`;
/** The contract's limits, with room for a person's three conversations in one test. */
const LIMITS = { ...contractConfig('', []).limits, visitorConversations: { burst: 3, perMinute: 1 } };
/** The identity headers a site's page gives the widget for `id`. */
const signedIn = (id: string, secret = SECRET) => ({
  [IDENTITY.userHeader]: id,
  [IDENTITY.hashHeader]: hash(id, secret),
});

type Proxy = Awaited<ReturnType<typeof startPhpProxy>>;
/** A conversation as `GET conversations` lists it. */
type Listed = PersonConversation & { grant: string };

/** A new conversation, with `headers`. */
const post = (proxy: Proxy, headers: Record<string, string>) =>
  fetch(`${proxy.url}/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.9', ...headers },
    body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
  });
/** The proxy's own log lines. */
const askboxLines = (proxy: Proxy) =>
  proxy.errors
    .join('')
    .split('\n')
    .filter((line) => line.includes('[askbox]'));
/** PHP on a fresh store, with `$people` the SQLite store of people and `$add` adding to it. */
const store = (code: string, grantTtl = 3600) =>
  runPhpOnStore(`$people = new AskboxSqlitePeople(['storeDir' => getenv('ASKBOX_TEST_STORE'), 'grantTtl' => ${grantTtl}]);
    $add = static fn (string $p, string $id) => $people->add($p, ['id' => $id, 'bot_id' => 'b', 'name' => $id, 'created_at' => 't']);
    ${code}`);

/** Signed-in visitors on the PHP proxy (the contract's IDENTITY): verified, bound to their grants, listed per person. */
describe('the PHP proxy and signed-in visitors', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let proxy: Proxy;
  let ip = 0;

  beforeAll(async () => {
    upstream = await startUpstream(CONTRACT_KEY, CONTRACT_SCENARIO);
    proxy = await startPhpProxy(contractConfig(upstream.url, []), undefined, {
      identitySecret: SECRET,
      limits: LIMITS,
    });
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await upstream?.close();
  });

  /** One request from a fresh IP (or `from`), with a grant and headers. */
  function call(
    method: string,
    path: string,
    options: { body?: unknown; grant?: string; headers?: Record<string, string>; from?: string; to?: Proxy } = {},
  ) {
    const headers: Record<string, string> = {
      'x-forwarded-for': options.from ?? `198.51.100.${++ip}`,
      ...options.headers,
    };
    if (options.grant) headers['x-askbox-grant'] = options.grant;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    return fetch(`${(options.to ?? proxy).url}${path}`, { method, headers, body, redirect: 'manual' });
  }
  async function start(headers: Record<string, string>, name = 'Signed in') {
    const response = await call('POST', '/conversations', { body: { name, bot_id: DEMO_BOT_ID }, headers });
    expect(response.status).toBe(200);
    const { data, meta } = (await response.json()) as { data: { id: string }; meta: { grant: string } };
    return { id: data.id, grant: meta.grant };
  }
  async function list(headers: Record<string, string>) {
    const response = await call('GET', '/conversations', { headers });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Listed[]; meta: object };
    expect(body.meta).toEqual({});
    return body.data;
  }
  /** Every grant-bearing route on `id` with `grant` and `headers`: the statuses, in order. */
  async function reach(id: string, grant: string, headers: Record<string, string>) {
    const answers = [
      await call('GET', `/messages?conversation_id=${id}`, { grant, headers }),
      await call('POST', '/messages', { body: { content: 'hello', conversation_id: id }, grant, headers }),
      await call('POST', '/messages/stream', { body: { content: 'hello', conversation_id: id }, grant, headers }),
      await call('POST', '/feedback', {
        body: { conversation_id: id, message_id: 'Rep1y0000001', rating: 'up' },
        grant,
        headers,
      }),
      await call('DELETE', `/conversations/${id}`, { grant, headers }),
    ];
    return answers.map((answer) => answer.status);
  }
  const REFUSED = [404, 422, 422, 422, 404];

  it('mints a person grant, and lists the conversation on another device with a fresh grant', async () => {
    const { id, grant } = await start(signedIn('ada@example.com'), 'Shipping');
    expect(readGrant(grant).visitorId).toBe(personKey('ada@example.com'));
    const sent = await call('POST', '/messages', {
      body: { content: 'shipping costs?', conversation_id: id },
      grant,
      headers: signedIn('ada@example.com'),
    });
    expect(sent.status).toBe(200);
    // Another device: another address, no grant, only the person's signed id.
    const [listed] = await list(signedIn('ada@example.com'));
    expect(listed).toEqual({
      id,
      name: 'Shipping',
      bot_id: DEMO_BOT_ID,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      grant: expect.any(String),
    });
    expect(readGrant(listed!.grant)).toMatchObject({ conversationId: id, visitorId: personKey('ada@example.com') });
    const history = await call('GET', `/messages?conversation_id=${id}`, {
      grant: listed!.grant,
      headers: signedIn('ada@example.com'),
    });
    expect(history.status).toBe(200);
    expect(JSON.stringify(await history.json())).toContain('shipping costs?');
  });

  it('lists newest first, once each, and only the person’s own', async () => {
    const first = await start(signedIn('grace'), 'First');
    const second = await start(signedIn('grace'), 'Second');
    await start(signedIn('linus'), 'Not hers');
    // Starting from a conversation she holds keeps her key and adds nothing twice.
    expect((await list(signedIn('grace'))).map((c) => c.id)).toEqual([second.id, first.id]);
    expect((await list(signedIn('linus'))).map((c) => c.name)).toEqual(['Not hers']);
    expect(await list(signedIn('nobody-yet'))).toEqual([]);
  });

  it.each([
    ['a forged hash', { [IDENTITY.userHeader]: 'ada@example.com', [IDENTITY.hashHeader]: 'f'.repeat(64) }],
    [
      'another person’s id with my hash',
      { [IDENTITY.userHeader]: 'ada@example.com', [IDENTITY.hashHeader]: hash('mallory') },
    ],
    ['the id without its hash', { [IDENTITY.userHeader]: 'ada@example.com' }],
    ['a hash without its id', { [IDENTITY.hashHeader]: hash('ada@example.com') }],
    ['a hash made with another site’s secret', signedIn('ada@example.com', OTHER_SITE)],
    ['the hash in capitals', { [IDENTITY.userHeader]: 'ada', [IDENTITY.hashHeader]: hash('ada').toUpperCase() }],
    [
      'an id the pattern refuses',
      { [IDENTITY.userHeader]: 'ada lovelace', [IDENTITY.hashHeader]: hash('ada lovelace') },
    ],
    ['an id too long', signedIn('a'.repeat(129))],
  ])('refuses %s with 403 in the envelope, on every route but health', async (_, headers) => {
    const anonymous = await start({});
    for (const [method, path, body] of [
      ['POST', '/conversations', { name: 'x', bot_id: DEMO_BOT_ID }],
      ['GET', '/conversations'],
      ['GET', `/messages?conversation_id=${anonymous.id}`],
    ] as const) {
      const response = await call(method, path, { body, headers, grant: anonymous.grant });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(await response.json()).toEqual(refusalBody('identityRefused'));
    }
    expect((await call('GET', '/health', { headers })).status).toBe(200);
  });

  it('takes the longest id the pattern allows', async () => {
    const id = `${'a'.repeat(120)}.@:+=-_Z`;
    await start(signedIn(id));
    expect(await list(signedIn(id))).toHaveLength(1);
  });

  it('answers GET conversations without identity with 401', async () => {
    const response = await call('GET', '/conversations');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(refusalBody('identityRequired'));
  });

  it('refuses a person’s grant after logout and to anyone else, on every route', async () => {
    const { id, grant } = await start(signedIn('hedy'));
    expect(await reach(id, grant, {})).toEqual(REFUSED);
    expect(await reach(id, grant, signedIn('eve'))).toEqual(REFUSED);
    // Nor does it lend her key to a conversation started with it after logout.
    const response = await call('POST', '/conversations', { body: { name: 'x', bot_id: DEMO_BOT_ID }, grant });
    expect(readGrant(((await response.json()) as { meta: { grant: string } }).meta.grant).visitorId).not.toMatch(/^u-/);
    // Still hers, and still listed: nothing above reached it.
    expect((await list(signedIn('hedy'))).map((c) => c.id)).toEqual([id]);
    expect((await call('GET', `/messages?conversation_id=${id}`, { grant, headers: signedIn('hedy') })).status).toBe(
      200,
    );
  });

  it('keeps an anonymous grant usable, signed in or not', async () => {
    const { id, grant } = await start({});
    for (const headers of [{}, signedIn('ada@example.com')]) {
      expect((await call('GET', `/messages?conversation_id=${id}`, { grant, headers })).status).toBe(200);
    }
  });

  it('takes a deleted conversation out of the person’s list, also when the service no longer has it', async () => {
    const kept = await start(signedIn('margaret'), 'Kept');
    const gone = await start(signedIn('margaret'), 'Gone');
    expect(
      (await call('DELETE', `/conversations/${gone.id}`, { grant: gone.grant, headers: signedIn('margaret') })).status,
    ).toBe(200);
    // Deleted at the service already (by another device, say): the 404 takes it out of the list too.
    const stale = await start(signedIn('margaret'), 'Stale');
    await fetch(`${upstream.url}/conversations/${stale.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${CONTRACT_KEY}` },
    });
    expect(
      (await call('DELETE', `/conversations/${stale.id}`, { grant: stale.grant, headers: signedIn('margaret') }))
        .status,
    ).toBe(404);
    expect((await list(signedIn('margaret'))).map((c) => c.id)).toEqual([kept.id]);
  });

  it('counts limits per person, whichever address or device they come from', async () => {
    const { burst } = LIMITS.visitorConversations;
    for (let i = 0; i < burst; i++) await start(signedIn('barbara'));
    const over = await call('POST', '/conversations', {
      body: { name: 'x', bot_id: DEMO_BOT_ID },
      headers: signedIn('barbara'),
    });
    expect(over.status).toBe(429);
    expect((await over.json()).message).toBe(limitMessage('conversation', 60));
    // Each try came from another address: only the person's own bucket was empty. Others are not held by it.
    await start(signedIn('katherine'));
    await start({});
  });

  it('counts the list against the person’s action limit', async () => {
    const { burst } = LIMITS.visitorActions;
    for (let i = 0; i < burst; i++) await list(signedIn('annie'));
    expect((await call('GET', '/conversations', { headers: signedIn('annie') })).status).toBe(429);
  });

  it('lets the identity headers and GET through a CORS preflight', async () => {
    const response = await call('OPTIONS', '/conversations', {
      headers: {
        origin: PARTNER,
        'access-control-request-method': 'GET',
        'access-control-request-headers': `${IDENTITY.userHeader}, ${IDENTITY.hashHeader}`,
      },
    });
    expect(response.status).toBe(204);
    const allowed = response.headers.get('access-control-allow-headers')!.split(', ');
    expect(allowed).toEqual(expect.arrayContaining([IDENTITY.userHeader, IDENTITY.hashHeader]));
    expect(response.headers.get('access-control-allow-methods')).toBe(ROUTE_METHODS.join(', '));
    expect(ROUTE_METHODS).toContain('GET');
  });
});

describe('the PHP proxy and signed-in visitors, misconfigured or failing', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  const running: Proxy[] = [];
  beforeAll(async () => {
    upstream = await startUpstream(CONTRACT_KEY, CONTRACT_SCENARIO);
  });
  afterAll(async () => {
    await Promise.all(running.map((proxy) => proxy.close()));
    await upstream?.close();
  });
  async function launch(extra: Record<string, unknown>) {
    const proxy = await startPhpProxy(contractConfig(upstream.url, []), undefined, extra);
    running.push(proxy);
    return proxy;
  }

  it('refuses every identity without an identity secret, says which setting is missing, and serves anonymous visitors', async () => {
    const proxy = await launch({});
    const response = await post(proxy, signedIn('ada'));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(refusalBody('identityRefused'));
    await expect.poll(() => askboxLines(proxy)).toHaveLength(1);
    expect(askboxLines(proxy)[0]).toContain('ASKBOX_IDENTITY_SECRET');
    expect((await post(proxy, {})).status).toBe(200);
  });

  it('refuses an identity secret shorter than the contract’s minimum at start-up', async () => {
    const proxy = await launch({ identitySecret: 'short' });
    const response = await post(proxy, {});
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual(refusalBody('misconfigured'));
    await expect.poll(() => proxy.errors.join('')).toContain('identitySecret must be a string of at least');
  });

  it('fails closed (503 busy, one log line) when the people store cannot answer', async () => {
    // Limits off: nothing but the people store needs the store folder, which cannot be made.
    const proxy = await launch({ identitySecret: SECRET, limits: false, storeDir: '/proc/askbox-people' });
    expect((await post(proxy, {})).status).toBe(200);
    const before = upstream.records.length;
    for (const answer of [
      await post(proxy, signedIn('ada')),
      await fetch(`${proxy.url}/conversations`, { headers: signedIn('ada') }),
    ]) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(await answer.json()).toEqual(refusalBody('busy'));
    }
    await expect.poll(() => askboxLines(proxy)).toHaveLength(2);
    for (const line of askboxLines(proxy)) {
      expect(line).toContain('"level":"error","event":"people"');
      expect(line).toContain('AskboxStoreError: The people store failed: The store folder /proc/askbox-people cannot');
    }
    // The conversation the service made for ada went again: none is left that no list shows and no grant reaches.
    const made = upstream.records.slice(before).map(({ method, path }) => `${method} ${path}`);
    expect(made).toEqual([
      'POST /api/v1/conversations',
      expect.stringMatching(/^DELETE \/api\/v1\/conversations\/\w+$/),
    ]);
  });
});

/** The SQLite store of people's conversations, called directly: bounded per person and in people, as the contract says. */
describe('the PHP people store', () => {
  it('keeps the newest conversationsMax a person, newest first, and adds an id once', () => {
    const max = IDENTITY.conversationsMax;
    const ids = store(`for ($i = 0; $i <= $max = ${max}; $i++) $add('u-a', "c$i");
      $add('u-a', 'c5');
      $people->remove('u-a', "c$max");
      echo json_encode(array_column($people->list('u-a'), 'id'));`) as string[];
    expect(ids).toEqual(Array.from({ length: max - 1 }, (_, i) => `c${max - 1 - i}`));
  });

  it('keeps at most STORE_SIZES.people people, forgetting the least recently used first', () => {
    const kept = store(`$add('u-first', 'a'); $add('u-second', 'b'); usleep(3000);
      $people->list('u-first'); usleep(3000);
      for ($i = 2; $i <= ${STORE_SIZES.people}; $i++) $add("u-$i", 'c');
      echo json_encode([count($people->list('u-first')), count($people->list('u-second')), count($people->list('u-2'))]);`);
    expect(kept).toEqual([1, 0, 1]);
  }, 60_000);

  it('forgets a person unused for a grant’s lifetime (their grants have all expired) when another comes', () => {
    // A lifetime of 20 ms here, so the test need not wait an hour.
    const kept = store(
      `$add('u-old', 'a'); usleep(40000); $add('u-new', 'b');
      echo json_encode([count($people->list('u-old')), count($people->list('u-new'))]);`,
      0.02,
    );
    expect(kept).toEqual([0, 1]);
  });

  it('adds its tables to a store made before signed-in visitors (schema version 1), keeping its buckets', () => {
    const dir = mkdtempSync(join(tmpdir(), 'askbox-store-v1-'));
    try {
      const kept = runPhp(
        `$old = new PDO('sqlite:' . getenv('DIR') . '/askbox-store.sqlite');
        $old->exec('CREATE TABLE buckets (k TEXT PRIMARY KEY, t REAL NOT NULL, a INTEGER NOT NULL, e INTEGER NOT NULL) WITHOUT ROWID; INSERT INTO buckets VALUES (\\'kept\\', 1, 1, 9999999999999); PRAGMA user_version = 1;');
        $old = null;
        $people = new AskboxSqlitePeople(['storeDir' => getenv('DIR'), 'grantTtl' => 3600]);
        $people->add('u-a', ['id' => 'c1', 'bot_id' => 'b', 'name' => 'n', 'created_at' => 't']);
        echo json_encode([array_column($people->list('u-a'), 'id'), askbox_db(['storeDir' => getenv('DIR')])->query('SELECT k FROM buckets')->fetchColumn()]);`,
        { DIR: dir },
      );
      expect(kept).toEqual([['c1'], 'kept']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

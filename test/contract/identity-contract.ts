import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { IDENTITY } from '../../src/protocol/contract';
import { limitMessage, refusalBody } from '../helpers/messages';
import { CONTRACT_KEY, CONTRACT_SCENARIO, PARTNER, contractConfig, type ContractConfig } from './config';
import { readGrant } from './http';
import type { ProxyRuntime } from './proxy-contract';
import { startUpstream } from './upstream';
import type { PersonConversation } from '../../src/proxy/core/people';

/** The secret the contract's site shares with its proxy, and another site's. */
const IDENTITY_SECRET = 'contract-identity-secret-0123456789';
const OTHER_SITE_SECRET = 'another-site-identity-secret-98765';

/** HMAC-SHA256(secret, text) in lowercase hex, as a site's server computes it (node:crypto, not the proxy's code). */
const hmacHex = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

/** The person key the contract defines for `id`: `u-` + 40 hex digits of HMAC(secret, personLabel + id). */
const personKey = (id: string) => `u-${hmacHex(IDENTITY_SECRET, IDENTITY.personLabel + id).slice(0, 40)}`;

/** The identity headers of `id`, signed with `secret` (the site's own by default). */
const signedIn = (id: string, secret = IDENTITY_SECRET) => ({
  [IDENTITY.userHeader]: id,
  [IDENTITY.hashHeader]: hmacHex(secret, id),
});

/** Every route a grant opens, for conversation `id`: what each answers when the grant is not the caller's. */
const granted = (id: string): [string, string, unknown, number][] => [
  ['GET', `/messages?conversation_id=${id}`, undefined, 404],
  ['POST', '/messages', { content: 'x', conversation_id: id }, 422],
  ['POST', '/messages/stream', { content: 'x', conversation_id: id }, 422],
  ['POST', '/feedback', { conversation_id: id, message_id: 'Rep1y0000001', rating: 'up' }, 422],
  ['DELETE', `/conversations/${id}`, undefined, 404],
];

let ipCounter = 0;
let personCounter = 0;

/** A conversation as `GET conversations` lists it. */
type Listed = PersonConversation & { grant: string };

/**
 * Signed-in visitors (issue 35 item 1), over HTTP only, for every runtime: the site signs the person's id with the
 * proxy's `identitySecret`; the proxy keeps the person's conversations and binds their grants to them. Attack cases:
 * forged, foreign, partial, uppercase or another site's hashes; replay after logout; another person's conversations.
 */
export function defineIdentityContract(runtime: ProxyRuntime): void {
  describe(`signed-in visitors [${runtime.name}]`, () => {
    let upstream: Awaited<ReturnType<typeof startUpstream>>;
    let proxy: { url: string; close(): Promise<void> };
    let config: ContractConfig;

    beforeAll(async () => {
      upstream = await startUpstream(CONTRACT_KEY, CONTRACT_SCENARIO);
      const base = contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin);
      config = { ...base, identitySecret: IDENTITY_SECRET };
      proxy = await runtime.start(config);
    }, 60_000);

    afterAll(async () => {
      await proxy?.close();
      await upstream?.close();
    });

    const t = (title: string) => `${title} [${runtime.name}]`;
    const upstreamSince = (mark: number) => upstream.records.slice(mark);

    /** A client at one IP: calls with optional identity headers and grant. */
    function client(ip = `192.0.2.${++ipCounter}`) {
      return async (
        method: string,
        path: string,
        options: { body?: unknown; grant?: string; identity?: Record<string, string> } = {},
      ) => {
        const headers: Record<string, string> = { 'x-forwarded-for': ip, ...options.identity };
        if (options.grant) headers['x-askbox-grant'] = options.grant;
        if (options.body !== undefined) headers['content-type'] = 'application/json';
        const body = options.body === undefined ? undefined : JSON.stringify(options.body);
        return fetch(`${proxy.url}${path}`, { method, headers, body, redirect: 'manual' });
      };
    }

    /** A new person (a fresh id), signed in from a fresh IP. */
    function person(id = `person-${++personCounter}@example.com`) {
      const identity = signedIn(id);
      const call = client();
      const start = async (name = 'Signed in') => {
        const response = await call('POST', '/conversations', { body: { name, bot_id: DEMO_BOT_ID }, identity });
        expect(response.status).toBe(200);
        const body = (await response.json()) as { data: { id: string }; meta: { grant: string } };
        return { id: body.data.id, grant: body.meta.grant };
      };
      const list = async (from = call) => {
        const response = await from('GET', '/conversations', { identity });
        expect(response.status).toBe(200);
        return ((await response.json()) as { data: Listed[] }).data;
      };
      return { id, identity, call, start, list };
    }

    it(t('keeps a person their conversations, newest first, with grants that work from another browser'), async () => {
      const me = person();
      const first = await me.start('First');
      const second = await me.start('Second');
      expect(readGrant(first.grant).visitorId).toBe(personKey(me.id));
      // Another browser: another IP, no grant, the same identity.
      const elsewhere = client();
      const list = await me.list(elsewhere);
      expect(list.map(({ id, name, bot_id }) => ({ id, name, bot_id }))).toEqual([
        { id: second.id, name: 'Second', bot_id: DEMO_BOT_ID },
        { id: first.id, name: 'First', bot_id: DEMO_BOT_ID },
      ]);
      for (const item of list) {
        expect(Object.keys(item)).toEqual(['id', 'name', 'bot_id', 'created_at', 'grant']);
        expect(new Date(item.created_at).toISOString()).toBe(item.created_at);
        expect(readGrant(item.grant)).toMatchObject({ conversationId: item.id, visitorId: personKey(me.id) });
      }
      const sent = await elsewhere('POST', '/messages', {
        body: { content: 'from my phone', conversation_id: first.id },
        grant: list[1]!.grant,
        identity: me.identity,
      });
      expect(sent.status).toBe(200);
      const history = await elsewhere('GET', `/messages?conversation_id=${first.id}`, {
        grant: list[1]!.grant,
        identity: me.identity,
      });
      expect(history.status).toBe(200);
      expect(JSON.stringify(await history.json())).toContain('from my phone');
      const streamed = await elsewhere('POST', '/messages/stream', {
        body: { content: 'and a stream', conversation_id: first.id },
        grant: list[1]!.grant,
        identity: me.identity,
      });
      expect(streamed.status).toBe(302);
      const stream = await elsewhere('GET', streamed.headers.get('location')!.replace(/^.*\/stream\//, '/stream/'), {
        grant: list[1]!.grant,
        identity: me.identity,
      });
      expect(stream.status).toBe(200);
      expect(await stream.text()).toContain('data:');
      const full = await me.call('GET', '/conversations', { identity: me.identity });
      // The same list in the envelope; each grant minted afresh (its expiry may be a second later).
      const fresh = list.map((item) => ({ ...item, grant: expect.stringMatching(/^g1\./) }));
      expect(await full.json()).toEqual({ data: fresh, meta: {} });
    });

    it(t('answers the list only to a signed-in person (401 without identity headers)'), async () => {
      const call = client();
      const response = await call('GET', '/conversations');
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(refusalBody('identityRequired'));
      const stranger = person();
      expect(await stranger.list()).toEqual([]);
    });

    it(t('takes empty identity headers for none: anonymous, as every runtime sees them'), async () => {
      const call = client();
      const empty = { [IDENTITY.userHeader]: '', [IDENTITY.hashHeader]: '' };
      const listed = await call('GET', '/conversations', { identity: empty });
      expect(listed.status).toBe(401);
      expect(await listed.json()).toEqual(refusalBody('identityRequired'));
      const created = await call('POST', '/conversations', {
        body: { name: 'x', bot_id: DEMO_BOT_ID },
        identity: empty,
      });
      expect(created.status).toBe(200);
    });

    it(
      t('refuses forged, foreign, partial, malformed or another site’s signatures in the envelope'),
      async () => {
        const me = person();
        const mine = await me.start();
        const other = person();
        const hash = me.identity[IDENTITY.hashHeader]!;
        const flipped = `${hash.slice(0, -1)}${hash.endsWith('0') ? '1' : '0'}`;
        const bad: [string, Record<string, string>][] = [
          ['a forged hash', { [IDENTITY.userHeader]: me.id, [IDENTITY.hashHeader]: 'ab'.repeat(32) }],
          ['the last digit changed', { [IDENTITY.userHeader]: me.id, [IDENTITY.hashHeader]: flipped }],
          ['my id with another person’s hash', { ...other.identity, [IDENTITY.userHeader]: me.id }],
          ['another person’s id with my hash', { ...me.identity, [IDENTITY.userHeader]: other.id }],
          ['the id without a hash', { [IDENTITY.userHeader]: me.id }],
          ['a hash without the id', { [IDENTITY.hashHeader]: hash }],
          ['my hash with an empty id', { [IDENTITY.userHeader]: '', [IDENTITY.hashHeader]: hash }],
          ['my id with an empty hash', { [IDENTITY.userHeader]: me.id, [IDENTITY.hashHeader]: '' }],
          ['the hash in uppercase', { ...me.identity, [IDENTITY.hashHeader]: hash.toUpperCase() }],
          ['the hash cut short', { ...me.identity, [IDENTITY.hashHeader]: hash.slice(0, 63) }],
          ['another site’s hash', signedIn(me.id, OTHER_SITE_SECRET)],
          ['an id with a space', signedIn(`${me.id} x`)],
          ['an id too long', signedIn('a'.repeat(129))],
        ];
        for (const [name, identity] of bad) {
          const mark = upstream.records.length;
          for (const [method, path, body] of [
            ['GET', '/conversations', undefined],
            ['POST', '/conversations', { name: 'x', bot_id: DEMO_BOT_ID }],
            ...granted(mine.id),
          ] as [string, string, unknown][]) {
            const response = await me.call(method, path, { body, grant: mine.grant, identity });
            expect(response.status, `${name}: ${method} ${path}`).toBe(403);
            expect(await response.json()).toEqual(refusalBody('identityRefused'));
          }
          expect(upstreamSince(mark), name).toEqual([]);
        }
        // The id may be anything header-safe up to 128 characters, and only its exact signature opens it.
        const longest = person(`A.b_c@d:e+f=g-${'h'.repeat(114)}`);
        expect(longest.id).toHaveLength(128);
        await longest.start();
        expect(await longest.list()).toHaveLength(1);
        // 13 identities on 7 routes each: 91 requests, a few seconds on a busy machine.
      },
      30_000,
    );

    it(t('binds a person’s grant to that person: no use after logout, nor under another identity'), async () => {
      const me = person();
      const mine = await me.start();
      const other = person();
      const theirs = await other.start();
      for (const identity of [undefined, other.identity]) {
        for (const [method, path, body, status] of granted(mine.id)) {
          const mark = upstream.records.length;
          const response = await me.call(method, path, { body, grant: mine.grant, identity });
          expect(response.status, `${method} ${path} as ${identity ? 'another person' : 'nobody'}`).toBe(status);
          expect(response.status).toBeLessThan(500);
          expect(upstreamSince(mark)).toEqual([]);
        }
      }
      // Their list holds only theirs; mine is still mine, and still works for me.
      expect((await other.list()).map(({ id }) => id)).toEqual([theirs.id]);
      expect((await me.list()).map(({ id }) => id)).toEqual([mine.id]);
      const history = await me.call('GET', `/messages?conversation_id=${mine.id}`, {
        grant: mine.grant,
        identity: me.identity,
      });
      expect(history.status).toBe(200);
    });

    it(t('keeps an anonymous grant usable, with or without identity headers'), async () => {
      const call = client();
      const started = await call('POST', '/conversations', { body: { name: 'anon', bot_id: DEMO_BOT_ID } });
      const { data, meta } = (await started.json()) as { data: { id: string }; meta: { grant: string } };
      expect(readGrant(meta.grant).visitorId).not.toMatch(new RegExp(IDENTITY.personKeyPattern));
      const me = person();
      for (const identity of [undefined, me.identity]) {
        const response = await call('GET', `/messages?conversation_id=${data.id}`, { grant: meta.grant, identity });
        expect(response.status).toBe(200);
      }
    });

    it(t('deletes from the person’s list, and only with their identity'), async () => {
      const me = person();
      const kept = await me.start('kept');
      const gone = await me.start('gone');
      const stranger = person();
      // Someone else's identity deletes nothing (the action limits allow three lists and deletions per person).
      const refused = await me.call('DELETE', `/conversations/${kept.id}`, {
        grant: kept.grant,
        identity: stranger.identity,
      });
      expect(refused.status).toBe(404);
      expect(await refused.json()).toEqual(refusalBody('conversationNotFound'));
      const deleted = await me.call('DELETE', `/conversations/${gone.id}`, {
        grant: gone.grant,
        identity: me.identity,
      });
      expect(deleted.status).toBe(200);
      expect((await me.list()).map(({ id }) => id)).toEqual([kept.id]);
    });

    it(t('counts limits per person, whichever address or grant they come with'), async () => {
      const me = person();
      const { burst } = config.limits.visitorConversations;
      for (let i = 0; i < burst; i++) await me.start();
      // Another address, no grant: an anonymous first visit would pass; the person's bucket is empty.
      const elsewhere = client();
      const response = await elsewhere('POST', '/conversations', {
        body: { name: 'one too many', bot_id: DEMO_BOT_ID },
        identity: me.identity,
      });
      expect(response.status).toBe(429);
      expect(((await response.json()) as { message: string }).message).toBe(
        limitMessage('conversation', Number(response.headers.get('retry-after'))),
      );
      const anonymous = await elsewhere('POST', '/conversations', { body: { name: 'anon', bot_id: DEMO_BOT_ID } });
      expect(anonymous.status).toBe(200);
    });

    it(t('counts a signed-in person’s actions against them, also on a conversation begun anonymously'), async () => {
      const started = await client()('POST', '/conversations', { body: { name: 'anon', bot_id: DEMO_BOT_ID } });
      const { data, meta } = (await started.json()) as { data: { id: string }; meta: { grant: string } };
      const me = person();
      const rating = { conversation_id: data.id, message_id: 'Rep1y0000001', rating: 'up' };
      const { burst } = config.limits.visitorActions;
      const statuses: number[] = [];
      // Each from another address, so that only the person's bucket can run dry.
      for (let i = 0; i <= burst; i++) {
        const response = await client()('POST', '/feedback', {
          body: rating,
          grant: meta.grant,
          identity: me.identity,
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([...Array<number>(burst).fill(200), 429]);
      // The anonymous visitor the grant names was not counted.
      expect((await client()('POST', '/feedback', { body: rating, grant: meta.grant })).status).toBe(200);
    });

    it(t('lets a listed origin send the identity headers (CORS preflight)'), async () => {
      const call = client();
      const preflight = await call('OPTIONS', '/conversations', {
        identity: {
          origin: PARTNER,
          'access-control-request-method': 'GET',
          'access-control-request-headers': `${IDENTITY.userHeader}, ${IDENTITY.hashHeader}`,
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-methods')).toMatch(/\bGET\b/);
      const allowed = preflight.headers.get('access-control-allow-headers')?.toLowerCase() ?? '';
      expect(allowed).toContain(IDENTITY.userHeader);
      expect(allowed).toContain(IDENTITY.hashHeader);
    });
  });

  describe(`signed-in visitors, a proxy without identitySecret [${runtime.name}]`, () => {
    let upstream: Awaited<ReturnType<typeof startUpstream>>;
    let proxy: { url: string; close(): Promise<void> };

    beforeAll(async () => {
      upstream = await startUpstream(CONTRACT_KEY, CONTRACT_SCENARIO);
      proxy = await runtime.start(contractConfig(upstream.url, upstream.documentIds));
    }, 60_000);

    afterAll(async () => {
      await proxy?.close();
      await upstream?.close();
    });

    it(`refuses every identity, even a well-signed one, and serves anonymous visitors as ever [${runtime.name}]`, async () => {
      const headers = { 'x-forwarded-for': `192.0.2.${++ipCounter}`, 'content-type': 'application/json' };
      const body = JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID });
      for (const method of ['GET', 'POST']) {
        const signed = await fetch(`${proxy.url}/conversations`, {
          method,
          headers: { ...headers, ...signedIn('someone@example.com') },
          ...(method === 'POST' && { body }),
        });
        expect(signed.status).toBe(403);
        expect(await signed.json()).toEqual(refusalBody('identityRefused'));
      }
      const anonymous = await fetch(`${proxy.url}/conversations`, { method: 'POST', headers, body });
      expect(anonymous.status).toBe(200);
    });
  });
}

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../../../../demo/simulator/index';
import type { PeopleStore } from '../../../../../src/proxy/core/people';
import { createMemoryPeopleStore } from '../../../../../src/proxy/stores/memory';
import { IDENTITY, TTLS } from '../../../../../src/protocol/contract';
import { mintGrant, readGrant } from '../../../../contract/http';
import { refusalBody } from '../../../../helpers/messages';
import { SECRET, setup } from '../../../../helpers/proxy';
import { API, SIM_KEY } from '../../../../helpers/simulator';
import type { PersonConversation } from '../../../../../src/proxy/core/people';

/** `GET conversations` and a signed-in person's list as the other routes keep it (issue 35). */

const IDENTITY_SECRET = 'unit-identity-secret-0123456789';
const hex = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');
const headersOf = (id: string) => ({ [IDENTITY.userHeader]: id, [IDENTITY.hashHeader]: hex(IDENTITY_SECRET, id) });
const keyOf = (id: string) => `u-${hex(IDENTITY_SECRET, IDENTITY.personLabel + id).slice(0, 40)}`;
const ALICE = 'alice@example.com';

/** A conversation as `GET conversations` lists it. */
type Listed = PersonConversation & { grant: string };

function signedInSetup(options: Parameters<typeof setup>[0] = {}) {
  const people = createMemoryPeopleStore();
  const proxy = setup({ identitySecret: IDENTITY_SECRET, peopleStore: people, ...options });
  const as = (id: string, grant?: string) => ({ ...headersOf(id), ...(grant && { 'x-askbox-grant': grant }) });
  const start = async (id: string, name = 'Mine') => {
    const response = await proxy.call('POST', '/conversations', { name, bot_id: DEMO_BOT_ID }, as(id));
    const body = (await response.json()) as { data: { id: string }; meta: { grant: string } };
    return { id: body.data.id, grant: body.meta.grant };
  };
  const list = async (id: string) => {
    const response = await proxy.call('GET', '/conversations', undefined, as(id));
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: Listed[] }).data;
  };
  return { ...proxy, people, as, start, list };
}

describe('proxy: a signed-in person’s conversations', () => {
  it('lists what the person started, dated by the proxy’s clock, each with a fresh grant of theirs', async () => {
    const proxy = signedInSetup();
    const first = await proxy.start(ALICE, `  ${'n'.repeat(120)}  `);
    proxy.clock.now += 60_000;
    await proxy.start(ALICE, 'Second');
    proxy.clock.now += 60_000;
    const list = await proxy.list(ALICE);
    expect(list.map(({ name, created_at }) => ({ name, created_at }))).toEqual([
      { name: 'Second', created_at: '2026-11-22T12:01:00.000Z' },
      { name: 'n'.repeat(100), created_at: '2026-11-22T12:00:00.000Z' },
    ]);
    expect(readGrant(list[1]!.grant)).toEqual({
      conversationId: first.id,
      botId: DEMO_BOT_ID,
      visitorId: keyOf(ALICE),
      expires: Math.floor(proxy.clock.now / 1000) + TTLS.grantTtlSeconds.default,
    });
  });

  it('leaves out a conversation of a bot the proxy no longer serves', async () => {
    const proxy = signedInSetup();
    const kept = await proxy.start(ALICE);
    await proxy.people.add({
      person: keyOf(ALICE),
      conversation: { id: 'retiredConv1', bot_id: 'retiredBot01', name: 'old', created_at: '2026-01-01T00:00:00.000Z' },
      ttlMs: 60_000,
      now: proxy.clock.now,
    });
    expect((await proxy.list(ALICE)).map(({ id }) => id)).toEqual([kept.id]);
  });

  it('keeps nothing for an anonymous visitor, and answers them 401 identityRequired', async () => {
    const proxy = signedInSetup();
    const anonymous = await proxy.call('POST', '/conversations', { name: 'anon', bot_id: DEMO_BOT_ID });
    expect(anonymous.status).toBe(200);
    expect(await proxy.list(ALICE)).toEqual([]);
    const response = await proxy.call('GET', '/conversations');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(refusalBody('identityRequired'));
  });

  it('never mints a person’s grant for a logged-out visitor who shows one of theirs', async () => {
    const proxy = signedInSetup();
    const mine = await proxy.start(ALICE);
    const response = await proxy.call(
      'POST',
      '/conversations',
      { name: 'after logout', bot_id: DEMO_BOT_ID },
      { 'x-askbox-grant': mine.grant },
    );
    expect(response.status).toBe(200);
    const { meta } = (await response.json()) as { meta: { grant: string } };
    expect(readGrant(meta.grant).visitorId).not.toMatch(new RegExp(IDENTITY.personKeyPattern));
  });

  it('takes a conversation out of the list when the service deleted it or never had it (404)', async () => {
    const proxy = signedInSetup();
    const kept = await proxy.start(ALICE);
    const deleted = await proxy.start(ALICE);
    const grantOf = (id: string) =>
      mintGrant(SECRET, { conversationId: id, botId: DEMO_BOT_ID, visitorId: keyOf(ALICE), expires: 2_000_000_000 });
    await proxy.people.add({
      person: keyOf(ALICE),
      conversation: { id: 'unknownConv1', bot_id: DEMO_BOT_ID, name: 'gone', created_at: '2026-01-01T00:00:00.000Z' },
      ttlMs: 60_000,
      now: proxy.clock.now,
    });
    const remove = (id: string) =>
      proxy.call('DELETE', `/conversations/${id}`, undefined, proxy.as(ALICE, grantOf(id)));
    expect((await remove(deleted.id)).status).toBe(200);
    expect((await remove('unknownConv1')).status).toBe(404);
    expect((await proxy.people.list(keyOf(ALICE), proxy.clock.now)).map(({ id }) => id)).toEqual([kept.id]);
  });

  it('keeps a conversation in the list when the service could not delete it', async () => {
    const proxy = signedInSetup();
    const mine = await proxy.start(ALICE);
    const handle = proxy.sim.handle;
    proxy.sim.handle = (request) =>
      request.method === 'DELETE'
        ? Promise.resolve(Response.json({ message: 'Server Error' }, { status: 500 }))
        : handle(request);
    const response = await proxy.call('DELETE', `/conversations/${mine.id}`, undefined, proxy.as(ALICE, mine.grant));
    expect(response.status).toBe(500);
    expect((await proxy.list(ALICE)).map(({ id }) => id)).toEqual([mine.id]);
  });

  it('counts a signed-in person’s messages as theirs, even in conversations started anonymously', async () => {
    const proxy = signedInSetup({
      limits: { visitorMessages: { burst: 1, perMinute: 1 }, ipMessages: { burst: 100, perMinute: 100 } },
    });
    // Two anonymous visits (two visitor ids), then the same person signs in on both.
    const grants: { data: { id: string }; meta: { grant: string } }[] = [];
    for (const name of ['a', 'b']) {
      const response = await proxy.call('POST', '/conversations', { name, bot_id: DEMO_BOT_ID });
      grants.push((await response.json()) as { data: { id: string }; meta: { grant: string } });
    }
    expect(readGrant(grants[0]!.meta.grant).visitorId).not.toBe(readGrant(grants[1]!.meta.grant).visitorId);
    const send = (i: number) =>
      proxy.call(
        'POST',
        '/messages',
        { content: 'hi', conversation_id: grants[i]!.data.id },
        proxy.as(ALICE, grants[i]!.meta.grant),
      );
    expect((await send(0)).status).toBe(200);
    expect((await send(1)).status).toBe(429);
  });
});

describe('proxy: a people store that cannot answer', () => {
  it('fails closed: 503 busy with Retry-After and one log line, for the list and for a new conversation', async () => {
    const hung: PeopleStore = {
      list: () => new Promise(() => undefined),
      add: () => new Promise(() => undefined),
      remove: () => new Promise(() => undefined),
    };
    const proxy = setup({ identitySecret: IDENTITY_SECRET, peopleStore: hung, timeouts: { storeMs: 100 } });
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { name: 'x', bot_id: DEMO_BOT_ID }],
    ] as const) {
      const response = await proxy.call(method, '/conversations', body, headersOf(ALICE));
      expect(response.status, method).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toEqual(refusalBody('busy'));
    }
    // The conversation the service made went again: none is left that no list shows and no grant reaches.
    const made = proxy.upstreamCalls.map((request) => `${request.method} ${new URL(request.url).pathname}`);
    expect(made).toEqual([
      'POST /api/v1/conversations',
      expect.stringMatching(/^DELETE \/api\/v1\/conversations\/\w+$/),
    ]);
    const left = await proxy.sim.handle(
      new Request(`${API}/conversations`, { headers: { authorization: `Bearer ${SIM_KEY}` } }),
    );
    expect(((await left.json()) as { data: unknown[] }).data).toEqual([]);
    expect(proxy.logs.filter((entry) => entry.level === 'error')).toEqual([
      expect.objectContaining({
        event: 'people',
        method: 'GET',
        message: 'StoreError: The people store failed: no answer within 100 ms',
      }),
      expect.objectContaining({
        event: 'people',
        method: 'POST',
        message: 'StoreError: The people store failed: no answer within 100 ms',
      }),
    ]);
  });

  it('fails closed on a deletion whose list cannot be updated, logging the people store as what failed', async () => {
    const stuckRemove: PeopleStore = { ...createMemoryPeopleStore(), remove: () => new Promise(() => undefined) };
    const proxy = signedInSetup({ peopleStore: stuckRemove, timeouts: { storeMs: 100 } });
    const { id, grant } = await proxy.start(ALICE);
    const response = await proxy.call('DELETE', `/conversations/${id}`, undefined, proxy.as(ALICE, grant));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual(refusalBody('busy'));
    expect(proxy.logs.filter((entry) => entry.level === 'error')).toEqual([
      expect.objectContaining({
        event: 'people',
        method: 'DELETE',
        message: 'StoreError: The people store failed: no answer within 100 ms',
      }),
    ]);
  });

  it('keeps the identity secret out of every log line', async () => {
    const failing: PeopleStore = {
      list: () => Promise.reject(new Error(`cannot reach store with ${IDENTITY_SECRET}`)),
      add: () => Promise.resolve(),
      remove: () => Promise.resolve(),
    };
    const proxy = setup({ identitySecret: IDENTITY_SECRET, peopleStore: failing });
    expect((await proxy.call('GET', '/conversations', undefined, headersOf(ALICE))).status).toBe(503);
    expect(JSON.stringify(proxy.logs)).not.toContain(IDENTITY_SECRET);
    expect(JSON.stringify(proxy.logs)).toContain('[redacted]');
  });
});

import { createHmac } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPersonConversation, type PeopleStore } from '../../../../src/proxy/core/people';
import { AskboxLimits, createDurableObjectPeopleStore } from '../../../../src/proxy/stores/durable-object';
import { createMemoryPeopleStore } from '../../../../src/proxy/stores/memory';
import { createRedisPeopleStore } from '../../../../src/proxy/stores/redis';
import { IDENTITY } from '../../../../src/protocol/contract';
import { EXPIRY_CASES, PEOPLE_CASES, conversation } from '../../../fixtures/people-stores';
import { durableState, namespaceOf } from '../../../helpers/durable-object';
import { refusalBody } from '../../../helpers/messages';
import { setup } from '../../../helpers/proxy';
import { startRedis } from '../../../helpers/redis';

/** Signed-in people's conversation lists (issue 35), the same cases over every store. */

let redis: Awaited<ReturnType<typeof startRedis>>;
let client: ReturnType<typeof createClient>;
let keySpace = 0;

beforeAll(async () => {
  redis = await startRedis();
  client = createClient({ url: redis.url });
  await client.connect();
}, 30_000);

afterAll(async () => {
  await client?.quit();
  await redis?.stop();
});

const redisEval = {
  eval: (script: string, keys: string[], args: string[]) => client.eval(script, { keys, arguments: args }),
};

const stores: [string, () => PeopleStore][] = [
  ['memory', () => createMemoryPeopleStore()],
  ['redis', () => createRedisPeopleStore(redisEval, { prefix: `p${++keySpace}:` })],
  [
    'durable object, storage',
    () => createDurableObjectPeopleStore(namespaceOf(new AskboxLimits(durableState())).namespace),
  ],
  ['durable object, no state', () => createDurableObjectPeopleStore(namespaceOf(new AskboxLimits()).namespace)],
];

describe('a list entry read back from a store', () => {
  it.each([
    ['an id with a space', { id: 'conv 0000001' }],
    ['an id that walks a path', { id: '../bots' }],
    ['a bot id with a space', { bot_id: 'askbox Demo1' }],
    ['a bot id that walks a path', { bot_id: '../../keys' }],
    ['a numeric id', { id: 12 }],
    ['no name', { name: undefined }],
    ['a date that is a number', { created_at: 5 }],
  ])('is refused with %s', (_title, change) => {
    expect(isPersonConversation(conversation(1))).toBe(true);
    expect(isPersonConversation({ ...conversation(1), ...change })).toBe(false);
  });

  it.each([null, undefined, 'conv00000001', []])('is refused when it is %j', (value) => {
    expect(isPersonConversation(value)).toBe(false);
  });
});

describe.each(stores)('people store: %s', (_name, make) => {
  it.each(PEOPLE_CASES.map((c) => [c.title, c] as const))('%s', async (_title, c) => {
    await c.run(make());
  });
});

describe.each(stores.filter(([name]) => name !== 'redis'))('people store: %s, by its clock', (_name, make) => {
  it.each(EXPIRY_CASES.map((c) => [c.title, c] as const))('%s', async (_title, c) => {
    await c.run(make());
  });
});

const PERSON = `u-${'d'.repeat(40)}`;
/** Person `n`'s key. */
const person = (n: number) => `u-${String(n).repeat(40)}`;

describe('people store: memory only', () => {
  it('keeps at most its bound of people, forgetting the least recently used', async () => {
    const store = createMemoryPeopleStore(2);
    const add = (n: number) => store.add({ person: person(n), conversation: conversation(n), ttlMs: 60_000, now: 0 });
    await add(1);
    await add(2);
    // Reading person 1 makes person 2 the least recently used.
    expect(await store.list(person(1), 0)).toHaveLength(1);
    await add(3);
    expect(await store.list(person(2), 0)).toEqual([]);
    expect(await store.list(person(1), 0)).toEqual([conversation(1)]);
    expect(await store.list(person(3), 0)).toEqual([conversation(3)]);
  });

  it('hands out a copy: changing it changes nothing kept', async () => {
    const store = createMemoryPeopleStore();
    await store.add({ person: PERSON, conversation: conversation(1), ttlMs: 60_000, now: 0 });
    (await store.list(PERSON, 0)).pop();
    expect(await store.list(PERSON, 0)).toEqual([conversation(1)]);
  });
});

describe('people store: redis only', () => {
  it('keeps a person’s list under askbox:people: unless told otherwise, expiring a grant lifetime after it was added', async () => {
    const store = createRedisPeopleStore(redisEval);
    await store.add({ person: PERSON, conversation: conversation(1), ttlMs: 5000, now: 0 });
    const ttl = await client.pTTL(`askbox:people:${PERSON}`);
    expect(ttl).toBeGreaterThan(4000);
    expect(ttl).toBeLessThanOrEqual(5000);
    expect(await client.lLen(`askbox:people:${PERSON}`)).toBe(1);
  });

  it('drops an entry that is not a list entry, and refuses an answer that is not a list or a done', async () => {
    const prefix = `p${++keySpace}:`;
    await client.rPush(`${prefix}${PERSON}`, [JSON.stringify({ id: 'x y' }), JSON.stringify(conversation(1))]);
    expect(await createRedisPeopleStore(redisEval, { prefix }).list(PERSON, 0)).toEqual([conversation(1)]);
    const odd = createRedisPeopleStore({ eval: async () => 'OK' });
    await expect(odd.list(PERSON, 0)).rejects.toThrow(/unexpected answer/);
    await expect(odd.remove(PERSON, 'x')).rejects.toThrow(/Redis people store: unexpected answer "OK"/);
    await expect(odd.add({ person: PERSON, conversation: conversation(1), ttlMs: 1000, now: 0 })).rejects.toThrow(
      /unexpected answer/,
    );
  });
});

describe('people store: a Redis that accepts connections and never answers', () => {
  it('fails closed within the store deadline: 503 with Retry-After, one log line naming the cause', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const stuck = createClient({ url: `redis://127.0.0.1:${(silent.address() as AddressInfo).port}` });
    stuck.on('error', () => undefined);
    try {
      void stuck.connect().catch(() => undefined);
      await expect.poll(() => sockets.length).toBe(1);
      const peopleStore = createRedisPeopleStore({
        eval: (script, keys, args) => stuck.eval(script, { keys, arguments: args }),
      });
      const identitySecret = 'people-test-identity-secret-0123';
      const { call, logs } = setup({ identitySecret, peopleStore, timeouts: { storeMs: 300 } });
      const id = 'alice@example.com';
      const hash = createHmac('sha256', identitySecret).update(id).digest('hex');
      const begun = Date.now();
      const response = await call('GET', '/conversations', undefined, {
        [IDENTITY.userHeader]: id,
        [IDENTITY.hashHeader]: hash,
      });
      expect(Date.now() - begun).toBeGreaterThanOrEqual(290);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toEqual(refusalBody('busy'));
      expect(logs.filter((line) => line.level === 'error')).toEqual([
        expect.objectContaining({
          event: 'people',
          message: 'StoreError: The people store failed: no answer within 300 ms',
        }),
      ]);
    } finally {
      stuck.destroy();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});

describe('people store: the Durable Object', () => {
  it('keeps the lists in its durable storage, under the site id, one key per person', async () => {
    const state = durableState();
    const store = createDurableObjectPeopleStore(namespaceOf(new AskboxLimits(state)).namespace, 'shop.example');
    await store.add({ person: PERSON, conversation: conversation(1), ttlMs: 1000, now: 0 });
    expect(state.keys()).toEqual([`people:shop.example:${PERSON}`, 'sweep:people']);
    // A new object (Cloudflare evicted the idle one) over the same storage still has it.
    const again = createDurableObjectPeopleStore(namespaceOf(new AskboxLimits(state)).namespace, 'shop.example');
    expect(await again.list(PERSON, 999)).toEqual([conversation(1)]);
    expect(await again.list(PERSON, 1000)).toEqual([]);
    expect(state.keys()).toEqual(['sweep:people']);
  });

  it.each([
    ['no person', 'people/list', { now: 1 }],
    ['no time', 'people/list', { person: PERSON }],
    ['an entry that is no conversation', 'people/add', { person: PERSON, conversation: { id: 'x' }, ttlMs: 1, now: 1 }],
    ['a negative lifetime', 'people/add', { person: PERSON, conversation: conversation(1), ttlMs: -1, now: 1 }],
    ['no id to remove', 'people/remove', { person: PERSON }],
    ['an unknown route', 'people/clear', { person: PERSON, now: 1 }],
  ])('answers 400 to %s', async (_name, path, body) => {
    const response = await new AskboxLimits().fetch(
      new Request(`https://askbox-limits/${path}`, { method: 'POST', body: JSON.stringify(body) }),
    );
    expect(response.status).toBe(400);
  });

  it.each([
    ['an error status', { list: [], done: true }, 500, ['list', 'add', 'remove']],
    ['a list that is no list', { list: 'x', done: true }, 200, ['list']],
    ['no done', { list: [] }, 200, ['add', 'remove']],
    ['a done that is not true', { list: [], done: 1 }, 200, ['add', 'remove']],
  ])('fails on %s', async (_name, answer, status, failing) => {
    const object = { fetch: async () => Response.json(answer, { status }) };
    const store = createDurableObjectPeopleStore(namespaceOf(object).namespace);
    const calls = {
      list: store.list(PERSON, 0),
      add: store.add({ person: PERSON, conversation: conversation(1), ttlMs: 1, now: 0 }),
      remove: store.remove(PERSON, 'x'),
    };
    for (const [name, call] of Object.entries(calls)) {
      if (failing.includes(name))
        await expect(call, name).rejects.toThrow(/^Durable Object people store: unexpected answer \(\d+\)$/);
      else await call;
    }
  });

  it('caps each list at the contract’s size', async () => {
    const store = createDurableObjectPeopleStore(namespaceOf(new AskboxLimits(durableState())).namespace);
    for (let n = 0; n < IDENTITY.conversationsMax + 3; n++)
      await store.add({ person: PERSON, conversation: conversation(n), ttlMs: 60_000, now: 0 });
    expect(await store.list(PERSON, 0)).toHaveLength(IDENTITY.conversationsMax);
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatError } from '../../../src/api/errors';
import { createConversations, KEPT_CONVERSATIONS } from '../../../src/state/conversations';
import type * as Conversations from '../../../src/state/conversations';
import { FIELDS } from '../../../src/protocol/contract';
import type { KeyValueStore } from '../../../src/state/storage';
import { createMemoryStorage } from '../../helpers/memory-storage';
import { createTestModel } from '../../helpers/model';
import { storedReply } from '../../helpers/fake-client';

const KEY = 'conversations:bot000000001@/askbox';
const ref = (n: number) => ({ id: `conv${String(n).padStart(8, '0')}`, grant: `grant-${n}` });

/** A list over memory, with a clock the test moves. */
function setup(stored?: string) {
  const storage = createMemoryStorage();
  if (stored !== undefined) storage.set(KEY, stored);
  let time = 1000;
  const list = createConversations(storage, KEY, () => (time += 1000));
  return { list, storage, ids: () => list.all().map((entry) => entry.id) };
}

describe('conversations: the stored list', () => {
  it('keeps each conversation with its first question as title, newest activity first', () => {
    const { list, storage, ids } = setup();
    list.touch(ref(1), 'first question');
    list.touch(ref(2), 'another');
    list.touch(ref(1), 'a follow-up');
    expect(list.all()).toEqual([
      { ...ref(1), title: 'first question', at: 4000 },
      { ...ref(2), title: 'another', at: 3000 },
    ]);
    expect(JSON.parse(storage.get(KEY)!)).toEqual(list.all());
    expect(ids()).toEqual([ref(1).id, ref(2).id]);
  });

  it(`keeps the latest ${KEPT_CONVERSATIONS}, the least recently used going first`, () => {
    const { list, ids } = setup();
    for (let n = 1; n <= KEPT_CONVERSATIONS + 3; n++) list.touch(ref(n), `question ${n}`);
    expect(ids()).toHaveLength(KEPT_CONVERSATIONS);
    expect(ids()[0]).toBe(ref(KEPT_CONVERSATIONS + 3).id);
    expect(ids().at(-1)).toBe(ref(4).id);
  });

  it('cuts a long first question to a title of 100 characters, whole emoji', () => {
    const { list } = setup();
    list.touch(ref(1), '😀'.repeat(150));
    expect([...list.all()[0]!.title]).toHaveLength(100);
  });

  it('drops a conversation, and writes nothing when it holds no such conversation', () => {
    const { list, storage, ids } = setup();
    list.drop(ref(1).id);
    expect(storage.get(KEY)).toBeUndefined();
    list.touch(ref(1), 'a');
    list.touch(ref(2), 'b');
    list.drop(ref(1).id);
    expect(ids()).toEqual([ref(2).id]);
    expect(JSON.parse(storage.get(KEY)!)).toHaveLength(1);
  });

  it('reads what storage holds once, sorted, and skips entries that are not conversations', () => {
    const good = { ...ref(1), title: 'kept', at: 5 };
    const newer = { ...ref(2), title: 'newer', at: 9 };
    const stored = [
      good,
      { ...ref(3), title: 7, at: 1 },
      { id: '../x', grant: 'g', title: 't', at: 1 },
      null,
      'x',
      newer,
    ];
    const { storage, ids } = setup(JSON.stringify(stored));
    expect(ids()).toEqual([ref(2).id, ref(1).id]);
    storage.set(KEY, '[]');
    expect(ids()).toHaveLength(2);
    for (const garbled of ['{oops', '{"a":1}', '42']) expect(setup(garbled).list.all(), garbled).toEqual([]);
  });
});

const setupModel = (storage: KeyValueStore = createMemoryStorage()) => createTestModel({}, storage);
const texts = (model: ReturnType<typeof setupModel>['model']) => model.messages.value.map((m) => m.text);

/** A model that asked "first" (answered "one"), started a new conversation and asked "second" (answered "two"). */
async function twoConversations() {
  const test = setupModel();
  test.reply('one');
  await test.model.send('first');
  test.model.newConversation();
  test.reply('two');
  await test.model.send('second');
  return test;
}

describe('a conversation’s name at the service', () => {
  // Loaded afresh for each test: the joiner between the site's name and the question is set when the module loads,
  // and a runner that keeps modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded
  // first.
  let nameOf: typeof Conversations.nameOf;
  let titleOf: typeof Conversations.titleOf;
  beforeEach(async () => {
    vi.resetModules();
    ({ nameOf, titleOf } = await import('../../../src/state/conversations'));
  });

  it('is the site’s name, then the first question on one line', () => {
    expect(nameOf('Website visitor', '  How much\n\tdoes shipping   cost?\n')).toBe(
      'Website visitor: How much does shipping cost?',
    );
  });

  it('is cut at the proxy’s name limit, in whole characters', () => {
    const name = nameOf('Shop', '😀'.repeat(FIELDS.nameMax));
    expect([...name]).toHaveLength(FIELDS.nameMax);
    expect(name).toBe(`Shop: ${'😀'.repeat(FIELDS.nameMax - 'Shop: '.length)}`);
  });

  it('gives back the question as a title, and a name of other making as it is', () => {
    expect(titleOf('Website visitor', 'Website visitor: Which plans?')).toBe('Which plans?');
    // Made before names held questions, by another site name, or by hand at the service.
    expect(titleOf('Website visitor', 'Website visitor')).toBe('Website visitor');
    expect(titleOf('Website visitor', 'Website visitor: ')).toBe('Website visitor: ');
    expect(titleOf('Shop', 'Website visitor: Which plans?')).toBe('Website visitor: Which plans?');
    expect(titleOf('Website visitor', 'Website visitors: Which plans?')).toBe('Website visitors: Which plans?');
  });
});

describe('conversations: in the chat model', () => {
  it('creates the conversation named by the site’s name and its first question, once', async () => {
    const { model, reply, state } = setupModel();
    reply('one');
    await model.send('Which plans?');
    reply('two');
    await model.send('And the price?');
    expect(state.createdNames).toEqual(['Website visitor: Which plans?']);
  });

  it('keeps the name when the conversation is asked for again (a stale proof of work)', async () => {
    const { model, reply, state } = setupModel();
    state.createRefusals.push(new ChatError('http', 'Stale proof', { status: 428 }));
    reply('one');
    await model.send('Which plans?');
    expect(state.createdNames).toEqual(['Website visitor: Which plans?', 'Website visitor: Which plans?']);
  });

  it('stores nothing before the first message, then the conversation with its first question', async () => {
    const storage = createMemoryStorage();
    const { model, reply } = setupModel(storage);
    model.open();
    expect(model.conversations.all()).toEqual([]);
    expect(storage.get(KEY)).toBeUndefined();
    reply('hi');
    await model.send('hello there');
    expect(model.conversations.all()).toMatchObject([{ id: 'conv00000001', grant: 'grant-1', title: 'hello there' }]);
  });

  it('keeps the old conversation through "new conversation", switches back to it, and Undo still returns', async () => {
    const { model, state } = await twoConversations();
    expect(model.conversations.all().map((e) => e.title)).toEqual(['second', 'first']);
    model.conversations.show(true);
    state.history = [storedReply('first answer')];
    model.resume(model.conversations.all()[1]!);
    expect(model.conversations.shown.value).toBe(false);
    await vi.waitFor(() => expect(texts(model)).toEqual(['first answer']));
    expect(model.conversation()?.id).toBe('conv00000001');
    expect(state.calls.at(-1)).toBe('list');
    // Undo of a "new conversation" still brings the cleared one back.
    model.newConversation();
    model.undoNewConversation();
    expect([texts(model), model.conversation()?.id]).toEqual([['first answer'], 'conv00000001']);
  });

  it.each([
    ['deleted (404)', new ChatError('not_found', 'Not found', { status: 404 })],
    ['a grant refused (422)', new ChatError('http', 'Invalid', { status: 422 })],
    ['an expired grant (401)', new ChatError('auth', 'Unauthorized', { status: 401 })],
  ])('drops a conversation whose history is refused, quietly: %s', async (_, error) => {
    const { model, state } = await twoConversations();
    state.historyError = error;
    model.resume(model.conversations.all()[1]!);
    await vi.waitFor(() => expect(model.conversations.all().map((e) => e.title)).toEqual(['second']));
    expect([model.failure.value, model.conversation(), texts(model)]).toEqual([undefined, undefined, []]);
  });

  it('resuming the conversation in use only leaves the list', async () => {
    const { model, reply, state } = setupModel();
    reply('one');
    await model.send('first');
    model.conversations.show(true);
    model.resume(model.conversations.all()[0]!);
    expect([model.conversations.shown.value, texts(model), state.calls.includes('list')]).toEqual([
      false,
      ['first', 'one'],
      false,
    ]);
  });

  it('forgets a deleted conversation, and one the service no longer knows when it is written to', async () => {
    const { model, reply, state } = setupModel();
    reply('one');
    await model.send('first');
    reply('two');
    model.newConversation();
    await model.send('second');
    expect(await model.removal.confirm()).toBe(true);
    expect(model.conversations.all().map((e) => e.title)).toEqual(['first']);
    state.history = [];
    model.resume(model.conversations.all()[0]!);
    await vi.waitFor(() => expect(model.status.value.type).toBe('idle'));
    state.gone.add('conv00000001');
    reply('three');
    await model.send('third');
    expect(model.conversations.all().map((e) => [e.id, e.title])).toEqual([['conv00000003', 'third']]);
  });
});

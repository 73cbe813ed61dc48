import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatError } from '../../../src/api/errors';
import type { ApiConversation } from '../../../src/api/types';
import type { ListState } from '../../../src/state/conversations';
import { createMachine } from '../../../src/state/machine';
import type * as PersonList from '../../../src/state/person-list';
import { createTestModel } from '../../helpers/model';
import { storedReply } from '../../helpers/fake-client';

/**
 * The module afresh for each test: its transition table is set as it loads, and Stryker counts a mutant of it only
 * against the tests that load it.
 */
let LIST_TRANSITIONS: typeof PersonList.LIST_TRANSITIONS;
let createPersonList: typeof PersonList.createPersonList;
beforeEach(async () => {
  vi.resetModules();
  ({ LIST_TRANSITIONS, createPersonList } = await import('../../../src/state/person-list'));
});

type ListEvent = PersonList.ListEvent;

const STATES: ListState[] = ['unread', 'loading', 'read', 'failed'];
const EVENTS: ListEvent[] = ['load', 'fetched', 'failed'];

/**
 * Every move of a signed-in person's list. It is read as it is shown, and again each time (a conversation started
 * on another device then appears) or after a failure; never twice at once; only a read on its way ends fetched or
 * failed. Every other (state, event) pair is refused.
 */
const ALLOWED: [from: ListState, event: ListEvent, to: ListState][] = [
  ['unread', 'load', 'loading'],
  ['loading', 'fetched', 'read'],
  ['loading', 'failed', 'failed'],
  ['read', 'load', 'loading'],
  ['failed', 'load', 'loading'],
];
const target = (from: ListState, event: ListEvent) => ALLOWED.find(([f, e]) => f === from && e === event)?.[2];
const CASES = STATES.flatMap((from) =>
  EVENTS.map((event): [ListState, ListEvent, ListState | undefined] => [from, event, target(from, event)]),
);

/** Drives a machine over the table into `from`, along the allowed moves. */
function machineIn(from: ListState) {
  const machine = createMachine(LIST_TRANSITIONS, 'unread');
  const path: Record<ListState, ListEvent[]> = {
    unread: [],
    loading: ['load'],
    read: ['load', 'fetched'],
    failed: ['load', 'failed'],
  };
  for (const event of path[from]) machine.go(event);
  expect(machine.state.value).toBe(from);
  return machine;
}

describe('LIST_TRANSITIONS', () => {
  it.each(CASES)('%s + %s → %s', (from, event, to) => {
    const machine = machineIn(from);
    expect(machine.go(event)).toBe(to !== undefined);
    expect(machine.state.value).toBe(to ?? from);
  });
});

const HASH = 'a'.repeat(64);
const listed = (n: number, at: number): ApiConversation => ({
  id: `conv${String(n).padStart(8, '0')}`,
  grant: `person-grant-${n}`,
  name: 'Website visitor',
  createdAt: at,
});

/** A list over a fake client whose answers the test releases. */
function setup() {
  const answers: { resolve: (list: ApiConversation[]) => void; reject: (error: unknown) => void }[] = [];
  const client = {
    listConversations: () => new Promise<ApiConversation[]>((resolve, reject) => answers.push({ resolve, reject })),
  } as unknown as Parameters<typeof PersonList.createPersonList>[0]['client'];
  let time = 10_000;
  const list = createPersonList({ client, conversationName: 'Website visitor', now: () => (time += 1000) });
  return { list, answers };
}

describe('a signed-in person’s list', () => {
  it('reads the proxy’s list as it is shown, with its grants, and again each time it is shown', async () => {
    const { list, answers } = setup();
    expect([list.all(), list.state.value, answers.length]).toEqual([[], 'unread', 0]);
    list.show(true);
    list.show(true);
    expect([list.state.value, answers.length]).toEqual(['loading', 1]);
    answers[0]!.resolve([listed(2, 2000), listed(1, 1000)]);
    await vi.waitFor(() => expect(list.state.value).toBe('read'));
    expect(list.all()).toEqual([
      { id: 'conv00000002', grant: 'person-grant-2', title: 'Website visitor', at: 2000 },
      { id: 'conv00000001', grant: 'person-grant-1', title: 'Website visitor', at: 1000 },
    ]);
    list.show(false);
    expect([list.shown.value, list.state.value, answers.length]).toEqual([false, 'read', 1]);
    list.show(true);
    expect([list.shown.value, list.state.value, answers.length]).toEqual([true, 'loading', 2]);
  });

  it('puts a conversation used here first, once, with its first question as title for good', () => {
    const { list } = setup();
    list.touch({ id: 'conv00000001', grant: 'grant-1' }, 'Which plans?');
    list.touch({ id: 'conv00000002', grant: 'grant-2' }, 'Is there a trial?');
    list.touch({ id: 'conv00000001', grant: 'grant-1b' }, 'A later question');
    expect(list.all()).toEqual([
      { id: 'conv00000001', grant: 'grant-1b', title: 'Which plans?', at: 13_000 },
      { id: 'conv00000002', grant: 'grant-2', title: 'Is there a trial?', at: 12_000 },
    ]);
  });

  it('takes the proxy’s list as the whole list, a conversation used here keeping its question as title', async () => {
    const { list, answers } = setup();
    list.touch({ id: 'conv00000001', grant: 'here-1' }, 'Which plans?');
    // Deleted on another device: the proxy no longer lists it.
    list.touch({ id: 'conv00000009', grant: 'here-9' }, 'Deleted elsewhere');
    list.show(true);
    answers[0]!.resolve([listed(1, 1000), listed(3, 30_000)]);
    await vi.waitFor(() => expect(list.state.value).toBe('read'));
    expect(list.all().map(({ id, title, grant }) => [id, title, grant])).toEqual([
      ['conv00000003', 'Website visitor', 'person-grant-3'],
      // The proxy's grant is the fresh one.
      ['conv00000001', 'Which plans?', 'person-grant-1'],
    ]);
    list.drop('conv00000003');
    expect(list.all().map((entry) => entry.id)).toEqual(['conv00000001']);
  });

  it('titles a conversation from another device with the question its name holds', async () => {
    const { list, answers } = setup();
    list.show(true);
    answers[0]!.resolve([{ ...listed(1, 1000), name: 'Website visitor: Which plans?' }, listed(2, 500)]);
    await vi.waitFor(() => expect(list.state.value).toBe('read'));
    // The second was named before names held questions: its name is its title.
    expect(list.all().map((entry) => entry.title)).toEqual(['Which plans?', 'Website visitor']);
  });

  it('fails, keeps the entries it had, and reads again on reload', async () => {
    const { list, answers } = setup();
    list.show(true);
    answers[0]!.reject(new ChatError('network', 'down'));
    await vi.waitFor(() => expect(list.state.value).toBe('failed'));
    list.reload();
    expect(list.state.value).toBe('loading');
    answers[1]!.resolve([listed(1, 1000)]);
    await vi.waitFor(() => expect(list.all()).toHaveLength(1));
  });
});

describe('a signed-in person in the chat model', () => {
  const signedIn = { user: { id: 'alice', hash: HASH } };

  it('writes nothing to storage: not the conversation, the list, nor a rating', async () => {
    const test = createTestModel(signedIn);
    const set = vi.spyOn(test.storage, 'set');
    test.state.people = [listed(5, 1000)];
    test.model.open();
    test.reply('hi');
    await test.model.send('hello');
    await test.model.feedback.rate(test.model.messages.value.at(-1)!.id, 'up');
    // The proxy lists the conversation just started, as it does once it created it.
    test.state.people.push({ ...listed(1, 500), grant: 'grant-1' });
    test.model.conversations.show(true);
    await vi.waitFor(() => expect(test.model.conversations.state.value).toBe('read'));
    expect(test.model.conversations.all().map((entry) => entry.title)).toEqual(['hello', 'Website visitor']);
    expect(set).not.toHaveBeenCalled();
  });

  it('resumes a listed conversation with the grant the proxy gave, and deletes it with it', async () => {
    const test = createTestModel(signedIn);
    test.state.people = [listed(4, 1000)];
    test.model.open();
    test.model.conversations.show(true);
    await vi.waitFor(() => expect(test.model.conversations.all()).toHaveLength(1));
    test.state.history = [storedReply('from another device')];
    test.model.resume(test.model.conversations.all()[0]!);
    await vi.waitFor(() => expect(test.model.messages.value.map((m) => m.text)).toEqual(['from another device']));
    expect(test.model.conversation()).toMatchObject({ id: 'conv00000004', grant: 'person-grant-4' });
    expect(await test.model.removal.confirm()).toBe(true);
    expect([test.state.deleted, test.model.conversations.all()]).toEqual([['conv00000004'], []]);
  });

  it('an anonymous visitor’s list is this browser’s, never the proxy’s', async () => {
    const test = createTestModel();
    test.model.conversations.show(true);
    expect([test.model.conversations.state.value, test.state.calls.includes('people')]).toEqual(['read', false]);
  });
});

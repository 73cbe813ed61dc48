import { signal } from '@preact/signals';
import { describe, expect, it, vi } from 'vitest';
import { createConversations } from '../../../src/state/conversations';
import { createHistory, type HistoryEvent, type HistoryState } from '../../../src/state/history';
import { createModelState } from '../../../src/state/model-state';
import { createRuns } from '../../../src/state/runs';
import { createSession } from '../../../src/state/session';
import { createFakeClient, question } from '../../helpers/fake-client';
import { createMemoryStorage } from '../../helpers/memory-storage';

const STATES: HistoryState[] = ['unread', 'read'];
const EVENTS: HistoryEvent[] = ['fetched', 'created', 'restored', 'resumed'];

/** A history over a fake client, with a stored conversation whose history holds one question. */
function setup() {
  const fake = createFakeClient();
  fake.state.history = [question('m1', 'earlier')];
  const storage = createMemoryStorage();
  storage.set('conversation', JSON.stringify({ id: 'conv00000001', grant: 'grant-1' }));
  const state = createModelState(signal(true));
  const failures: unknown[] = [];
  const history = createHistory({
    client: fake.client,
    session: createSession(storage, 'conversation'),
    conversations: createConversations(storage, 'conversations'),
    runs: createRuns(),
    fail: (error) => failures.push(error),
    state,
    allowed: () => true,
  });
  return { history, state, failures };
}

/** A history in `from`, reached the way the model gets there: a conversation created here is read. */
function at(from: HistoryState) {
  const { history } = setup();
  if (from === 'read') expect(history.go('created')).toBe(true);
  return history;
}

/**
 * Every move of the history. A read is started only for an unread history, so only an unread one is `fetched`; a
 * conversation created here or brought back by Undo has nothing earlier to read; a resumed one has, whatever it
 * was before. Every other (state, event) pair is refused.
 */
const ALLOWED: [from: HistoryState, event: HistoryEvent, to: HistoryState][] = [
  ['unread', 'fetched', 'read'],
  ['unread', 'created', 'read'],
  ['unread', 'restored', 'read'],
  ['unread', 'resumed', 'unread'],
  ['read', 'created', 'read'],
  ['read', 'restored', 'read'],
  ['read', 'resumed', 'unread'],
];

const target = (from: HistoryState, event: HistoryEvent) => ALLOWED.find(([f, e]) => f === from && e === event)?.[2];
const CASES = STATES.flatMap((from) =>
  EVENTS.map((event): [HistoryState, HistoryEvent, HistoryState | undefined] => [from, event, target(from, event)]),
);

describe('history: the transition table', () => {
  it('starts unread', () => {
    expect(setup().history.loaded).toBe(false);
  });

  it.each(CASES)('%s on %s: moves to %s (undefined: refused)', (from, event, to) => {
    const history = at(from);
    expect(history.go(event)).toBe(to !== undefined);
    expect(history.loaded).toBe((to ?? from) === 'read');
  });

  it('is exactly the table the history follows', async () => {
    // Loaded afresh, so that Stryker counts the table's load towards this test.
    vi.resetModules();
    const { HISTORY_TRANSITIONS: table } = await import('../../../src/state/history');
    expect(Object.keys(table).sort()).toEqual([...STATES].sort());
    for (const from of STATES)
      for (const event of EVENTS) expect(table[from][event], `${from} on ${event}`).toBe(target(from, event));
  });
});

describe('history: reading it', () => {
  it('shows what it read and counts as read, the status back at rest', async () => {
    const { history, state } = setup();
    await history.load();
    expect(history.loaded).toBe(true);
    expect(state.messages.value.map((m) => m.text)).toEqual(['earlier']);
    expect(state.status.value).toEqual({ type: 'idle' });
  });
});

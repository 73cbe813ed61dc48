import { describe, expect, it, vi } from 'vitest';
import { ChatError } from '../../../src/api/errors';
import { createMachine } from '../../../src/state/machine';
import { createRemoval, REMOVAL_TRANSITIONS, type RemovalEvent, type RemovalState } from '../../../src/state/removal';
import { createFakeClient } from '../../helpers/fake-client';

const STATES: RemovalState[] = ['idle', 'confirm', 'deleting', 'failed'];
const EVENTS: RemovalEvent[] = ['ask', 'cancel', 'confirm', 'deleted', 'refused'];

/**
 * Every move of "Delete this conversation". The question can be asked but while the delete is on its way (which
 * would offer Delete twice); a delete is confirmed from the question, after a refusal (try again), or at once by the
 * page; only a delete on its way ends deleted or refused, so one cancelled meanwhile shows no refusal. Every other
 * (state, event) pair is refused.
 */
const ALLOWED: [from: RemovalState, event: RemovalEvent, to: RemovalState][] = [
  ['idle', 'ask', 'confirm'],
  ['idle', 'confirm', 'deleting'],
  ['confirm', 'ask', 'confirm'],
  ['confirm', 'cancel', 'idle'],
  ['confirm', 'confirm', 'deleting'],
  ['deleting', 'cancel', 'idle'],
  ['deleting', 'deleted', 'idle'],
  ['deleting', 'refused', 'failed'],
  ['failed', 'ask', 'confirm'],
  ['failed', 'cancel', 'idle'],
  ['failed', 'confirm', 'deleting'],
];

const target = (from: RemovalState, event: RemovalEvent) => ALLOWED.find(([f, e]) => f === from && e === event)?.[2];
const CASES = STATES.flatMap((from) =>
  EVENTS.map((event): [RemovalState, RemovalEvent, RemovalState | undefined] => [from, event, target(from, event)]),
);

const CONVERSATION = { id: 'conv00000001', grant: 'grant-1' };

/** A removal of `CONVERSATION` over a fake client; `discarded()` counts how often it was cleared here. */
function setup(client = createFakeClient().client) {
  let discarded = 0;
  const removal = createRemoval({
    client,
    conversation: () => CONVERSATION,
    discard: () => {
      discarded += 1;
    },
  });
  return { removal, discarded: () => discarded };
}

describe('removal: the transition table', () => {
  it.each(CASES)('%s on %s: moves to %s (undefined: refused)', (from, event, to) => {
    const machine = createMachine(REMOVAL_TRANSITIONS, from);
    expect(machine.go(event)).toBe(to !== undefined);
    expect(machine.state.value).toBe(to ?? from);
  });

  it('is exactly the table the removal follows', async () => {
    // Loaded afresh, so that Stryker counts the table's load towards this test.
    vi.resetModules();
    const { REMOVAL_TRANSITIONS: table } = await import('../../../src/state/removal');
    expect(Object.keys(table).sort()).toEqual([...STATES].sort());
    for (const from of STATES)
      for (const event of EVENTS) expect(table[from][event], `${from} on ${event}`).toBe(target(from, event));
  });
});

describe('removal: deleting the conversation', () => {
  it('asks, deletes at the service, then clears here', async () => {
    const fake = createFakeClient();
    const { removal, discarded } = setup(fake.client);
    removal.ask();
    expect(removal.state.value).toBe('confirm');
    expect(await removal.confirm()).toBe(true);
    expect(fake.state.deleted).toEqual(['conv00000001']);
    expect(discarded()).toBe(1);
    expect(removal.state.value).toBe('idle');
  });

  it('says when the service refused, everything left in place, and tries again on Delete', async () => {
    const fake = createFakeClient();
    const { removal, discarded } = setup(fake.client);
    fake.state.actionError = new ChatError('http', 'HTTP 500', { status: 500 });
    removal.ask();
    expect(await removal.confirm()).toBe(false);
    expect(removal.state.value).toBe('failed');
    expect(discarded()).toBe(0);
    fake.state.actionError = undefined;
    expect(await removal.confirm()).toBe(true);
    expect(removal.state.value).toBe('idle');
  });

  it('sends one delete however often Delete is pressed, and shows no refusal once cancelled', async () => {
    const calls: string[] = [];
    let refuse: ((error: Error) => void) | undefined;
    const { removal, discarded } = setup({
      ...createFakeClient().client,
      deleteConversation: (conversation) => {
        calls.push(conversation.id);
        return new Promise((_, reject) => {
          refuse = reject;
        });
      },
    });
    removal.ask();
    const first = removal.confirm();
    expect(removal.state.value).toBe('deleting');
    expect(await removal.confirm()).toBe(false);
    expect(calls).toEqual(['conv00000001']);
    removal.cancel();
    refuse?.(new ChatError('http', 'HTTP 500', { status: 500 }));
    expect(await first).toBe(false);
    expect(removal.state.value).toBe('idle');
    expect(discarded()).toBe(0);
  });
});

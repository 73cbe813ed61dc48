import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatError } from '../../../src/api/errors';
import {
  createStatusMachine,
  toFailure,
  type Failure,
  type StatusEvent,
  type StatusType,
} from '../../../src/state/status';

const TYPES: StatusType[] = ['idle', 'loading', 'sending', 'streaming', 'failed'];
const EVENTS: StatusEvent[] = ['load', 'send', 'stream', 'done', 'fail', 'dismiss', 'wait-over', 'clear'];

const FAILURE: Failure = { can: 'none', error: new ChatError('http', 'HTTP 500', { status: 500 }) };

/** Moves `machine` on `event`, with a failure when the event is `fail`. */
const move = (machine: ReturnType<typeof createStatusMachine>, event: StatusEvent) =>
  event === 'fail' ? machine.go('fail', FAILURE) : machine.go(event);

/** The way the widget gets to each status from `idle`, where every model starts. */
const PATH: Record<StatusType, StatusEvent[]> = {
  idle: [],
  loading: ['load'],
  sending: ['send'],
  streaming: ['send', 'stream'],
  failed: ['send', 'fail'],
};

/** A new machine in `type`, reached through the table. */
function at(type: StatusType) {
  const machine = createStatusMachine();
  for (const event of PATH[type]) expect(move(machine, event), `${machine.status.value.type} on ${event}`).toBe(true);
  return machine;
}

/**
 * Every move the status makes, as the visitor sees it. Work (a history read, a send) starts only at rest: idle, or
 * a failure that a new attempt replaces; only a send the service accepted streams; only work under way ends or
 * fails; a failure ends by a new attempt, its dismissal, the end of its wait, or a clear; a clear puts work under
 * way and failures to rest. Every other (status, event) pair is refused.
 */
const ALLOWED: [from: StatusType, event: StatusEvent, to: StatusType][] = [
  ['idle', 'load', 'loading'],
  ['idle', 'send', 'sending'],
  ['loading', 'done', 'idle'],
  ['loading', 'fail', 'failed'],
  ['loading', 'clear', 'idle'],
  ['sending', 'stream', 'streaming'],
  ['sending', 'done', 'idle'],
  ['sending', 'fail', 'failed'],
  ['sending', 'clear', 'idle'],
  ['streaming', 'done', 'idle'],
  ['streaming', 'fail', 'failed'],
  ['streaming', 'clear', 'idle'],
  ['failed', 'load', 'loading'],
  ['failed', 'send', 'sending'],
  ['failed', 'dismiss', 'idle'],
  ['failed', 'wait-over', 'idle'],
  ['failed', 'clear', 'idle'],
];

const target = (from: StatusType, event: StatusEvent) => ALLOWED.find(([f, e]) => f === from && e === event)?.[2];
const CASES = TYPES.flatMap((from) =>
  EVENTS.map((event): [StatusType, StatusEvent, StatusType | undefined] => [from, event, target(from, event)]),
);

afterEach(() => {
  vi.useRealTimers();
});

describe('status: the transition table', () => {
  it('starts idle', () => {
    expect(createStatusMachine().status.value).toEqual({ type: 'idle' });
  });

  it.each(CASES)('%s on %s: moves to %s (undefined: refused)', (from, event, to) => {
    const machine = at(from);
    const before = machine.status.value;
    expect(move(machine, event)).toBe(to !== undefined);
    if (to === undefined) expect(machine.status.value).toBe(before);
    else expect(machine.status.value.type).toBe(to);
  });

  it('is exactly the table the machine follows', async () => {
    // Loaded afresh, so that Stryker counts the table's load towards this test.
    vi.resetModules();
    const { STATUS_TRANSITIONS: table } = await import('../../../src/state/status');
    expect(Object.keys(table).sort()).toEqual([...TYPES].sort());
    for (const from of TYPES)
      for (const event of EVENTS) expect(table[from][event], `${from} on ${event}`).toBe(target(from, event));
  });

  it('shows the failure `fail` brings, and refuses a fail without one', () => {
    const machine = at('sending');
    expect((machine.go as (event: StatusEvent) => boolean)('fail')).toBe(false);
    expect(machine.status.value.type).toBe('sending');
    expect(machine.go('fail', FAILURE)).toBe(true);
    expect(machine.status.value).toEqual({ type: 'failed', failure: FAILURE });
  });

  it("ends a 429's wait by itself when its time comes, and not before", () => {
    vi.useFakeTimers();
    const machine = createStatusMachine();
    machine.go('send');
    const error = new ChatError('rate_limit', 'Slow down', { status: 429, retryAfter: 2 });
    machine.go('fail', toFailure(error));
    vi.advanceTimersByTime(1999);
    expect(machine.status.value.type).toBe('failed');
    vi.advanceTimersByTime(1);
    expect(machine.status.value).toEqual({ type: 'idle' });
  });

  it('forgets the wait when the status moves on first: the new status stays', () => {
    vi.useFakeTimers();
    const machine = createStatusMachine();
    machine.go('send');
    machine.go('fail', toFailure(new ChatError('rate_limit', 'Slow down', { status: 429, retryAfter: 1 })));
    machine.go('send');
    vi.advanceTimersByTime(5000);
    expect(machine.status.value.type).toBe('sending');
  });
});

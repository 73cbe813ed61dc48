import { describe, expect, it, vi } from 'vitest';
import { createSendFlow, SEND_TRANSITIONS, type SendPhase } from '../../../src/state/send-flow';

const PHASES: SendPhase[] = [
  'sending',
  'accepted',
  'streaming',
  'committed',
  'read-back',
  'failed',
  'waiting',
  'stopped',
];

/** The way a send gets to each phase from `sending`, where every send starts. */
const PATH: Record<SendPhase, SendPhase[]> = {
  sending: [],
  accepted: ['accepted'],
  streaming: ['accepted', 'streaming'],
  committed: ['accepted', 'streaming', 'committed'],
  'read-back': ['read-back'],
  failed: ['failed'],
  waiting: ['waiting'],
  stopped: ['stopped'],
};

/** A live send in `phase`, reached through the table. */
function at(phase: SendPhase, live = () => true) {
  const flow = createSendFlow(live);
  for (const step of PATH[phase]) expect(flow.go(step), `${flow.phase} → ${step}`).toBe(true);
  return flow;
}

/**
 * Every allowed move of a send. A send starts sending (reading back first what a lost connection may have
 * delivered); until the service accepts, it may be read back, wait for the connection, fail or stop; once accepted
 * the reply streams, and ends committed, read back, failed, waiting or stopped. Every other pair is refused.
 */
const ALLOWED: [from: SendPhase, to: SendPhase][] = [
  ['sending', 'accepted'],
  ['sending', 'read-back'],
  ['sending', 'failed'],
  ['sending', 'waiting'],
  ['sending', 'stopped'],
  ['accepted', 'streaming'],
  ['streaming', 'committed'],
  ['streaming', 'read-back'],
  ['streaming', 'failed'],
  ['streaming', 'waiting'],
  ['streaming', 'stopped'],
];

const allowed = (from: SendPhase, to: SendPhase) => ALLOWED.some(([f, t]) => f === from && t === to);
const PAIRS = PHASES.flatMap((from) =>
  PHASES.map((to): [SendPhase, SendPhase, boolean] => [from, to, allowed(from, to)]),
);

describe('send flow: the transition table', () => {
  it('starts sending', () => {
    expect(createSendFlow(() => true).phase).toBe('sending');
  });

  it.each(PAIRS)('%s → %s: moves %s', (from, to, moves) => {
    const flow = at(from);
    expect(flow.go(to)).toBe(moves);
    expect(flow.phase).toBe(moves ? to : from);
  });

  it('is exactly the table the flow follows', async () => {
    // Loaded afresh, so that Stryker counts the table's load towards this test.
    vi.resetModules();
    const { SEND_TRANSITIONS: table } = await import('../../../src/state/send-flow');
    for (const from of PHASES)
      expect([...(table[from] ?? [])].sort(), from).toEqual(PHASES.filter((to) => allowed(from, to)).sort());
  });

  it('ends a send in committed, read-back, failed, waiting or stopped: nothing moves on from them', () => {
    const ends = PHASES.filter((from) => !SEND_TRANSITIONS[from]);
    expect(ends.sort()).toEqual(['committed', 'failed', 'read-back', 'stopped', 'waiting']);
  });

  it('moves nowhere once stale (a new conversation): the send writes nothing more', () => {
    let live = true;
    const flow = at('sending', () => live);
    live = false;
    for (const to of PHASES) expect(flow.go(to), to).toBe(false);
    expect(flow.phase).toBe('sending');
  });
});

import { signal } from '@preact/signals';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatError } from '../../../src/api/errors';
import { parseConfig } from '../../../src/config/parse';
import { createFail, setupFault } from '../../../src/state/fail';
import { createStatusMachine, failureOf } from '../../../src/state/status';

const invalidBot = new ChatError('http', 'HTTP 422', {
  status: 422,
  detail: 'The selected bot id is invalid.',
  fields: ['bot_id'],
});

describe('setupFault', () => {
  it.each([
    {
      title: 'a bot the proxy does not serve',
      error: invalidBot,
      online: true,
      fault: /does not serve bot b1.*botIds/,
    },
    {
      title: 'a proxy not reached while online',
      error: new ChatError('network', 'Failed to fetch'),
      online: true,
      fault: /\/askbox is unreachable \(Failed to fetch\) while online.*allowedOrigins/,
    },
    {
      title: 'a proxy not reached while offline',
      error: new ChatError('network', 'Offline'),
      online: false,
      fault: undefined,
    },
    {
      title: 'another 422',
      error: new ChatError('http', 'HTTP 422', { status: 422, fields: ['content'] }),
      online: true,
      fault: undefined,
    },
    { title: 'a 500', error: new ChatError('http', 'HTTP 500', { status: 500 }), online: true, fault: undefined },
    {
      title: 'another status naming the bot',
      error: new ChatError('http', 'HTTP 500', { status: 500, fields: ['bot_id'] }),
      online: true,
      fault: undefined,
    },
    {
      title: 'an answer from a server that is not the proxy',
      error: new ChatError('http', 'answered with text/html', { status: 200, notProxy: true }),
      online: true,
      fault: /^Proxy \/askbox answered with text\/html: is data-proxy-url right\?$/,
    },
  ])('$title', ({ error, online, fault }) => {
    const found = setupFault(error, online, { proxyUrl: '/askbox', botId: 'b1' });
    if (fault) expect(found).toMatch(fault);
    else expect(found).toBeUndefined();
  });
});

/** A fail over a real status machine, sending, and a recording event sink. */
function failing(online = true) {
  const { config } = parseConfig({ botId: 'b1', proxyUrl: '/askbox' });
  const machine = createStatusMachine();
  machine.go('send');
  const events: [string, unknown][] = [];
  const fail = createFail({
    config: config!,
    online: signal(online),
    go: machine.go,
    emit: (type, detail) => events.push([type, detail]),
  });
  /** The failure the status shows, then the status back to sending for the next attempt. */
  const shown = () => {
    const failure = failureOf(machine.status.value);
    machine.go('send');
    return failure;
  };
  return { fail, shown, events };
}

describe('createFail', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('explains a setup fault on the console once per widget, and marks the failure as the setup’s', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { fail, shown, events } = failing();
    const unreachable = new ChatError('network', 'Failed to fetch');
    fail(unreachable, 'resend');
    const first = shown();
    fail(unreachable, 'resend');
    expect([first, shown()].map((failure) => [failure?.can, failure?.setup])).toEqual([
      ['resend', true],
      ['resend', true],
    ]);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]?.[0]).toMatch(/^\[askbox\] Proxy \/askbox is unreachable \(Failed to fetch\)/);
    expect(events).toEqual([
      ['error', { kind: 'network', message: 'Failed to fetch' }],
      ['error', { kind: 'network', message: 'Failed to fetch' }],
    ]);
  });

  it('blames no setup for a failure in the middle of a reply, the proxy having been reached', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { fail, shown } = failing();
    fail(new ChatError('network', 'Failed to fetch'), undefined, true);
    expect(errors).not.toHaveBeenCalled();
    expect(shown()?.setup).toBeUndefined();
  });

  it('reports the service’s message limit as a quota event with its text, and other failures as errors', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { fail, shown, events } = failing();
    fail(new ChatError('quota', 'HTTP 402', { status: 402, detail: 'The message limit is reached.' }));
    shown();
    fail(new ChatError('quota', 'HTTP 402', { status: 402 }));
    shown();
    fail(new ChatError('http', 'HTTP 500', { status: 500, detail: 'Server Error' }));
    expect(events).toEqual([
      ['quota', { message: 'The message limit is reached.' }],
      ['quota', { message: '' }],
      ['error', { kind: 'http', message: 'Server Error' }],
    ]);
  });
});

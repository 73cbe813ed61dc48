import { describe, expect, it } from 'vitest';
import { ChatError } from '../../../src/api/errors';
import { setupFault } from '../../../src/state/fail';

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
  ])('$title', ({ error, online, fault }) => {
    const found = setupFault(error, online, { proxyUrl: '/askbox', botId: 'b1' });
    if (fault) expect(found).toMatch(fault);
    else expect(found).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { DEMO_BOT_ID, OTHER_BOT_ID } from '../../../../../demo/simulator/index';
import { createProxy } from '../../../../../src/proxy/core/proxy';
import { PAGE, PAGE_HOST, SECRET, setup } from '../../../../helpers/proxy';
import { API, SIM_KEY } from '../../../../helpers/simulator';

/** `POST conversations`: what reaches the service, in which shape, and how odd answers are turned away. */
describe('proxy routes: conversations', () => {
  it('forwards a trimmed name on the pinned bot, and refuses a missing one as the service does', async () => {
    const { call, upstreamCalls } = setup();
    const created = await call('POST', '/conversations', { name: '  Shop visitor  ', bot_id: DEMO_BOT_ID });
    expect(created.status).toBe(200);
    for (const [name, message] of [
      ['   ', 'The name field is required.'],
      [undefined, 'The name field is required.'],
      [7, 'The name field must be a string.'],
    ] as const) {
      const refused = await call('POST', '/conversations', { name, bot_id: DEMO_BOT_ID });
      expect(refused.status, String(name)).toBe(422);
      expect(await refused.json()).toEqual({ message, errors: { name: [message] } });
    }
    const sent = await Promise.all(upstreamCalls.map((r) => r.json() as Promise<{ name: string; bot_id: string }>));
    expect(sent).toEqual([{ name: 'Shop visitor', bot_id: DEMO_BOT_ID }]);
    expect(upstreamCalls[0]?.headers.get('authorization')).toBe(`Bearer ${SIM_KEY}`);
    expect(upstreamCalls[0]?.headers.get('accept')).toBe('application/json');
    expect(upstreamCalls[0]?.headers.get('content-type')).toBe('application/json');
  });

  it('needs bot_id, even with one bot, and takes only the allowed ones', async () => {
    for (const botIds of [[DEMO_BOT_ID], [DEMO_BOT_ID, OTHER_BOT_ID]]) {
      const { call } = setup({ botIds });
      const missing = await call('POST', '/conversations', { name: 'x' });
      expect(missing.status).toBe(422);
      expect(await missing.json()).toEqual({
        message: 'The bot id field is required.',
        errors: { bot_id: ['The bot id field is required.'] },
      });
      const unknown = await call('POST', '/conversations', { name: 'x', bot_id: 'unknownBot01' });
      expect(await unknown.json()).toEqual({
        message: 'The selected bot id is invalid.',
        errors: { bot_id: ['The selected bot id is invalid.'] },
      });
    }
    const { call } = setup({ botIds: [DEMO_BOT_ID, OTHER_BOT_ID] });
    expect((await call('POST', '/conversations', { name: 'x', bot_id: OTHER_BOT_ID })).status).toBe(200);
  });

  it('is a 502 when the service creates a conversation without a usable id', async () => {
    for (const data of [{}, { id: 7 }, { id: '../bots' }, null]) {
      const proxy = createProxy({
        apiKey: SIM_KEY,
        botIds: [DEMO_BOT_ID],
        upstream: API,
        secret: SECRET,
        allowedHosts: [PAGE_HOST],
        fetch: async () => Response.json({ data }),
      });
      const response = await proxy(
        new Request(`${PAGE}/askbox/conversations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
        }),
      );
      expect(response.status, JSON.stringify(data)).toBe(502);
      expect(await response.json()).toEqual({ message: 'The chat service sent an unexpected response.' });
    }
  });
});

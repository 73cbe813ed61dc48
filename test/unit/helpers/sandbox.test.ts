import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../helpers/sandbox';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  sandbox = await startSandbox();
}, 30_000);
afterAll(() => sandbox?.stop());

/** `npm run simulator`: the owner's sandbox, driven only with what it printed. */
describe('npm run simulator', () => {
  it('prints its API base, key and bot ids as variables, on a loopback port', () => {
    expect(sandbox.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(sandbox.output).toContain(`Cody API simulator on ${sandbox.apiUrl}`);
    expect(sandbox.output).toMatch(/^Bots: \w+ answers from demo\/kb; \w+ exists too/m);
  });

  it('answers the Cody API with that key and bot: bots, a conversation, a streamed reply from its own host', async () => {
    const call = (path: string, init: RequestInit = {}, key = sandbox.apiKey) =>
      fetch(`${sandbox.apiUrl}${path}`, {
        ...init,
        redirect: 'manual',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      });
    expect((await call('/bots', {}, 'wrong-key')).status).toBe(401);
    const bots = (await (await call('/bots')).json()) as { data: { id: string }[] };
    expect(bots.data.map((bot) => bot.id)).toContain(sandbox.botId);
    const created = await call('/conversations', {
      method: 'POST',
      body: JSON.stringify({ name: 'Sandbox', bot_id: sandbox.botId }),
    });
    expect(created.status).toBe(200);
    const { data } = (await created.json()) as { data: { id: string } };
    const sent = await call('/messages/stream', {
      method: 'POST',
      body: JSON.stringify({ content: 'What do the plans cost?', conversation_id: data.id }),
    });
    expect(sent.status).toBe(302);
    const stream = sent.headers.get('location') ?? '';
    // Streams come from the API's own origin: a proxy pointed at the sandbox needs no streamOrigins.
    expect(new URL(stream).origin).toBe(new URL(sandbox.apiUrl).origin);
    const events = await (await fetch(stream)).text();
    expect(events).toContain('[END]');
    expect(events).toMatch(/plan/i);
  }, 15_000);
});

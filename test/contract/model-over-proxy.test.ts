import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse';
import type { ProxyOptions } from '../../src/proxy/core/proxy';
import { ChatModel } from '../../src/state/model';
import { createMemoryStorage } from '../helpers/memory-storage';
import { createPanelStore } from '../helpers/model';
import { API, SIM_KEY } from '../helpers/simulator';
import { setupStack } from '../helpers/stack';

/**
 * The chat model over the real client, proxy and simulator, in-process: the refusals the proxy really sends for a
 * conversation that is gone are the ones the model recognises (its own behaviour is unit-tested with a fake client).
 */
function setup(
  proxyOptions: Partial<ProxyOptions> = {},
  extra: (stack: ReturnType<typeof setupStack>) => Record<string, unknown> = () => ({}),
) {
  const stack = setupStack({}, proxyOptions);
  const { config } = parseConfig({ botId: stack.botId, proxyUrl: '/askbox', ...extra(stack) });
  if (!config) throw new Error('bad test config');
  const storage = createMemoryStorage();
  const model = new ChatModel({
    client: stack.client,
    storage,
    config,
    emit: () => undefined,
    online: signal(true),
    panel: createPanelStore(),
  });
  const storedId = () => JSON.parse(storage.get(`conversation:${stack.botId}@/askbox`) ?? '{}').id as unknown;
  const created = () => stack.requests.filter((r) => r === 'POST /askbox/conversations').length;
  return { ...stack, model, storedId, created };
}

function expectTwoExchanges(model: ReturnType<typeof setup>['model']) {
  expect(model.messages.value.map((m) => [m.role, m.status])).toEqual([
    ['user', 'done'],
    ['assistant', 'done'],
    ['user', 'done'],
    ['assistant', 'done'],
  ]);
  expect(model.failure.value).toBeUndefined();
}

describe('the chat model through the proxy', () => {
  it('delivers the message in a new conversation when the grant expired mid-session', async () => {
    const clock = { now: Date.now() };
    const { model, storedId, created } = setup({ grantTtlSeconds: 60, now: () => clock.now });
    await model.send('first');
    const old = storedId();
    clock.now += 61_000;
    await model.send('second');
    expect(storedId()).not.toBe(old);
    expect(created()).toBe(2);
    expectTwoExchanges(model);
  });

  it('delivers the message in a new conversation when the stored one was deleted upstream', async () => {
    const { model, sim, storedId, created } = setup();
    await model.send('first');
    const old = storedId();
    const deleted = await sim.handle(
      new Request(`${API}/conversations/${String(old)}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${SIM_KEY}` },
      }),
    );
    expect(deleted.status).toBe(200);
    await model.send('second');
    expect(storedId()).not.toBe(old);
    expect(created()).toBe(2);
    expectTwoExchanges(model);
  });

  it('creates the conversation named by the configured name and its first question, with the focus documents', async () => {
    let document: string | undefined;
    const { model, sim } = setup({}, (stack) => {
      document = stack.sim.documents[1]?.id;
      return { documentIds: document, conversationName: 'Checkout visitor' };
    });
    await model.send('shipping?');
    const response = await sim.handle(
      new Request(`${API}/conversations?includes=document_ids`, { headers: { authorization: `Bearer ${SIM_KEY}` } }),
    );
    const { data } = (await response.json()) as { data: Array<{ name: string; document_ids: string[] }> };
    expect(data).toEqual([expect.objectContaining({ name: 'Checkout visitor: shipping?', document_ids: [document] })]);
  });
});

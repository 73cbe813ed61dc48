import { signal } from '@preact/signals';
import { describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../../src/config/parse';
import { DEFAULT_LIMITS, type ProxyOptions } from '../../../src/proxy/core/options';
import { ChatModel } from '../../../src/state/model';
import { createMemoryStorage } from '../../helpers/memory-storage';
import { createPanelStore } from '../../helpers/model';
import { setupStack } from '../../helpers/stack';

/** The model over the real client, proxy and simulator, streaming or asking for whole replies. */
function setup(stream: boolean, proxyOptions: Partial<ProxyOptions> = {}) {
  const stack = setupStack(
    {
      replies: [
        { match: 'apologise', text: 'Sorry, I could not answer that.', failedResponding: true },
        { match: 'broken', status: 500, text: 'Sorry, I could not answer that.', failedResponding: true },
        { match: 'limit', status: 402 },
        { match: 'refused', status: 422, message: 'The content may not contain links.' },
        { match: 'ship', text: 'We ship to 40 countries.' },
      ],
    },
    proxyOptions,
    { stream },
  );
  const { config } = parseConfig({ botId: stack.botId, proxyUrl: '/askbox', stream: String(stream) });
  if (!config) throw new Error('bad config');
  const events: string[] = [];
  const online = signal(true);
  const model = new ChatModel({
    client: stack.client,
    storage: createMemoryStorage(),
    config,
    emit: (type) => events.push(type),
    online,
    panel: createPanelStore(),
  });
  return { ...stack, model, events, online };
}

const shown = (model: ReturnType<typeof setup>['model']) =>
  model.messages.value.map((m) => `${m.role}: ${m.text} (${m.status})`);

describe.each([
  ['streaming', true, 'POST /askbox/messages/stream'],
  ['whole replies (data-stream="false")', false, 'POST /askbox/messages'],
])('the chat model, %s', (_, stream, sendRoute) => {
  it('shows the reply the service stored, with its sources, asking by its own route', async () => {
    const { model, requests, events } = setup(stream);
    await model.send('What do you ship?');
    expect(shown(model)).toEqual(['user: What do you ship? (done)', 'assistant: We ship to 40 countries. (done)']);
    expect(model.messages.value[1]?.sources).toEqual([expect.objectContaining({ title: 'Shipping and returns' })]);
    expect(requests.filter((r) => r.startsWith('POST /askbox/messages'))).toEqual([sendRoute]);
    expect(events).toEqual(['send', 'reply']);
  });

  it('after a 500, shows the stored question and failed reply once, with Retry', async () => {
    const { model } = setup(stream);
    await model.send('This is broken');
    expect(shown(model)).toEqual([
      'user: This is broken (done)',
      'assistant: Sorry, I could not answer that. (failed)',
    ]);
    expect(model.canRetryReply.value).toBe(true);
    expect(model.draft.value).toBe('');
  });

  it('shows a failed_responding reply the service answered as failed, with Retry', async () => {
    const { model } = setup(stream);
    await model.send('Please apologise');
    expect(shown(model)).toEqual([
      'user: Please apologise (done)',
      'assistant: Sorry, I could not answer that. (failed)',
    ]);
    expect(model.canRetryReply.value).toBe(true);
  });

  it('sends nothing offline: the message waits, pending, and goes once when the connection returns', async () => {
    const { model, online, requests } = setup(stream);
    online.value = false;
    await model.send('What do you ship?');
    expect([requests, shown(model), model.failure.value?.can]).toEqual([
      [],
      ['user: What do you ship? (pending)'],
      'resend',
    ]);
    online.value = true;
    await vi.waitFor(() => expect(model.messages.value).toHaveLength(2));
    expect(shown(model)).toEqual(['user: What do you ship? (done)', 'assistant: We ship to 40 countries. (done)']);
    expect(requests.filter((r) => r.startsWith('POST /askbox/messages'))).toEqual([sendRoute]);
  });

  it("holds sending for the proxy's 429 Retry-After, the draft intact", async () => {
    const { model, requests } = setup(stream, {
      limits: { ...DEFAULT_LIMITS, visitorMessages: { burst: 1, perMinute: 1 } },
    });
    await model.send('What do you ship?');
    model.setDraft('And returns?');
    await model.send();
    expect(model.failure.value).toMatchObject({ can: 'wait', until: expect.any(Number) });
    expect([model.canSend.value, model.draft.value]).toEqual([false, 'And returns?']);
    expect(requests.filter((r) => r.startsWith('POST /askbox/messages'))).toEqual([sendRoute, sendRoute]);
  });

  it("after a 422, gives the text back with the service's reason", async () => {
    const { model } = setup(stream);
    await model.send('This is refused');
    expect([model.messages.value, model.draft.value]).toEqual([[], 'This is refused']);
    expect(model.failure.value?.error.detail).toBe('The content may not contain links.');
  });

  it('at the message limit (402), keeps the text and waits', async () => {
    const { model } = setup(stream);
    model.setDraft('Over the limit?');
    await model.send();
    expect([model.failure.value?.can, model.draft.value, model.canSend.value]).toEqual([
      'restart',
      'Over the limit?',
      false,
    ]);
  });
});

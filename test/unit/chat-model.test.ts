import { vi } from 'vitest';
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../src/state/storage';
import { setupModel } from '../helpers/model';
import { API, SIM_KEY } from '../helpers/simulator';

/** Both questions and both replies were delivered, with no error left showing. */
function expectTwoExchanges(model: ReturnType<typeof setupModel>['model']) {
  expect(model.messages.value.map((m) => [m.role, m.status])).toEqual([
    ['user', 'done'],
    ['assistant', 'done'],
    ['user', 'done'],
    ['assistant', 'done'],
  ]);
  expect(model.error.value).toBeNull();
}

/** The stored conversation, read as the model writes it. */
function stored(
  storage: { get(key: string): string | undefined },
  botId: string,
): { id: string; grant: string } | undefined {
  const raw = storage.get(`conversation:${botId}@/askbox`);
  return raw === undefined ? undefined : (JSON.parse(raw) as { id: string; grant: string });
}

describe('chat model', () => {
  it('costs nothing until the visitor engages, and creates the conversation on the first send', async () => {
    const { model, requests, storage, config } = setupModel();
    expect(requests).toEqual([]);
    model.open();
    await Promise.resolve();
    expect(requests).toEqual([]);
    model.setDraft('How long does delivery take?');
    await model.send();
    expect(requests[0]).toBe('POST /askbox/conversations');
    expect(stored(storage, config.botId)).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
      grant: expect.stringMatching(/^g1\./),
    });
    const [question, reply] = model.messages.value;
    expect(question).toMatchObject({ role: 'user', status: 'done', text: 'How long does delivery take?' });
    expect(reply).toMatchObject({ role: 'assistant', status: 'done', id: expect.not.stringMatching(/^local-/) });
    expect(reply?.sources.map((s) => s.title)).toEqual(['Shipping and returns']);
    expect(model.draft.value).toBe('');
    expect(model.status.value).toBe('idle');
  });

  it('streams into `streaming` before committing the stored reply', async () => {
    const { model } = setupModel({ replies: [{ text: 'one two three four', chunkSize: 4, delayMs: 5 }] });
    const seen: string[] = [];
    const off = model.streaming.subscribe((text) => text && seen.push(text));
    await model.send('q');
    off();
    expect(seen.length).toBeGreaterThan(2);
    expect(seen[0]).toBe('one ');
    expect(model.messages.value.at(-1)?.text).toBe('one two three four');
    expect(model.streaming.value).toBe('');
  });

  it('restores the whole history of the stored conversation when the panel opens', async () => {
    const storage = createMemoryStorage();
    const first = setupModel({ replies: [{ text: 'first answer' }] }, {}, storage);
    await first.model.send('first question');
    // Same simulator and storage, new model: as after a page reload.
    const { ChatModel } = await import('../../src/state/chat-model');
    const reloaded = new ChatModel({ client: first.client, storage, config: first.config, emit: () => undefined });
    reloaded.open();
    await vi.waitFor(() => expect(reloaded.messages.value).toHaveLength(2));
    expect(reloaded.messages.value.map((m) => m.text)).toEqual(['first question', 'first answer']);
  });

  it('gives the visitor their text back when the message is refused (402) and shows the service wording', async () => {
    const { model } = setupModel({ replies: [{ match: 'quota', status: 402 }] });
    model.setDraft('over quota');
    await model.send();
    expect(model.messages.value).toEqual([]);
    expect(model.draft.value).toBe('over quota');
    expect(model.error.value?.error).toMatchObject({
      kind: 'quota',
      detail: expect.stringContaining('message limit for last 30 days'),
    });
  });

  it('keeps a failed_responding reply, marked failed, and retries it without repeating the question', async () => {
    const { model, events } = setupModel({ replies: [{ failedResponding: true }, { text: 'second time lucky' }] });
    await model.send('question');
    expect(model.messages.value.at(-1)).toMatchObject({ role: 'assistant', status: 'failed' });
    expect(events.some((e) => e.type === 'error')).toBe(true);
    await model.retryReply();
    expect(model.messages.value.map((m) => m.text)).toEqual(['question', 'second time lucky']);
  });

  it('recovers the stored reply when the stream is cut', async () => {
    const { model } = setupModel({ replies: [{ text: 'complete reply text', chunkSize: 3, cutAfter: 2 }] });
    await model.send('q');
    expect(model.messages.value.at(-1)).toMatchObject({ status: 'done', text: 'complete reply text' });
    expect(model.error.value).toBeNull();
  });

  it('keeps the partial text, marked failed with a retry, when a cut reply was never stored', async () => {
    const { model } = setupModel({
      replies: [{ text: 'abcdefghij', chunkSize: 2, cutAfter: 2, stored: false }, { text: 'again' }],
    });
    await model.send('q');
    expect(model.messages.value.at(-1)).toMatchObject({ status: 'failed', text: 'abcd' });
    expect(model.error.value).toMatchObject({ canRetry: false, error: { kind: 'stream' } });
    await model.retryReply();
    expect(model.messages.value.map((m) => m.text)).toEqual(['q', 'again']);
  });

  it('stops a reply on request, keeping what arrived', async () => {
    const { model } = setupModel({ replies: [{ text: 'a'.repeat(200), chunkSize: 1, delayMs: 5 }] });
    const sending = model.send('q');
    await vi.waitFor(() => expect(model.streaming.value.length).toBeGreaterThan(3));
    model.stop();
    await sending;
    expect(model.messages.value.at(-1)).toMatchObject({ status: 'stopped' });
    expect(model.messages.value.at(-1)?.text.length).toBeLessThan(200);
    expect(model.error.value).toBeNull();
  });

  it('starts a new conversation on request, forgetting the old one', async () => {
    const { model, storage, config, requests } = setupModel();
    await model.send('hello');
    model.newConversation();
    expect(model.messages.value).toEqual([]);
    expect(storage.get(`conversation:${config.botId}@/askbox`)).toBeUndefined();
    await model.send('hello again');
    expect(requests.filter((r) => r === 'POST /askbox/conversations')).toHaveLength(2);
  });

  it('brings the previous grant to the next conversation, so the proxy keeps knowing the visitor', async () => {
    const storage = createMemoryStorage();
    const { model, config } = setupModel({}, {}, storage);
    await model.send('hello');
    const first = stored(storage, config.botId);
    model.newConversation();
    await model.send('hello again');
    const second = stored(storage, config.botId);
    expect(second?.id).not.toBe(first?.id);
    expect(second?.grant.split('.')[3]).toBe(first?.grant.split('.')[3]);
  });

  it('starts afresh, without a request, from a conversation stored by an older widget (no grant)', async () => {
    for (const old of ['gonegonegone', '{"id":"gonegonegone"}', '{"id":"../x","grant":"g"}', 'null', '{oops']) {
      const storage = createMemoryStorage();
      const { model, config, requests } = setupModel({}, {}, storage);
      storage.set(`conversation:${config.botId}@/askbox`, old);
      model.open();
      await vi.waitFor(() => expect(model.status.value).toBe('idle'));
      expect(requests).toEqual([]);
      expect(model.error.value).toBeNull();
      expect(storage.get(`conversation:${config.botId}@/askbox`)).toBeUndefined();
      await model.send('hello');
      expect(requests[0]).toBe('POST /askbox/conversations');
      expect(model.messages.value.map((m) => m.role)).toEqual(['user', 'assistant']);
    }
  });

  it('starts afresh when the proxy no longer knows the stored grant', async () => {
    const storage = createMemoryStorage();
    const { model, config, client, botId } = setupModel({}, {}, storage);
    const real = await client.createConversation({ name: 'x', botId, documentIds: [] });
    storage.set(
      `conversation:${config.botId}@/askbox`,
      JSON.stringify({ id: real.id, grant: `${real.grant.slice(0, -4)}AAAA` }),
    );
    model.open();
    await vi.waitFor(() => expect(model.status.value).toBe('idle'));
    expect(model.error.value).toBeNull();
    expect(storage.get(`conversation:${config.botId}@/askbox`)).toBeUndefined();
  });

  it('delivers the message in a new conversation when the grant expired mid-session', async () => {
    const clock = { now: Date.now() };
    const storage = createMemoryStorage();
    const { model, config, requests } = setupModel({}, {}, storage, { grantTtlSeconds: 60, now: () => clock.now });
    await model.send('first');
    const old = stored(storage, config.botId);
    clock.now += 61_000;
    await model.send('second');
    const fresh = stored(storage, config.botId);
    expect(fresh?.id).not.toBe(old?.id);
    expect(requests.filter((r) => r === 'POST /askbox/conversations')).toHaveLength(2);
    expectTwoExchanges(model);
  });

  it('delivers the message in a new conversation when the stored one was deleted mid-session', async () => {
    const { model, sim, storage, config, requests } = setupModel();
    await model.send('first');
    const old = stored(storage, config.botId);
    await sim.handle(
      new Request(`${API}/conversations/${old?.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${SIM_KEY}` },
      }),
    );
    await model.send('second');
    expect(requests.filter((r) => r === 'GET /askbox/messages')).toHaveLength(2);
    const fresh = stored(storage, config.botId);
    expect(fresh?.id).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(fresh?.id).not.toBe(old?.id);
    expectTwoExchanges(model);
  });

  it('creates the conversation with the configured name and focus documents', async () => {
    const { model, sim } = setupModel({}, (stack) => ({
      documentIds: stack.sim.documents[1]?.id,
      conversationName: 'Checkout visitor',
    }));
    await model.send('shipping?');
    const response = await sim.handle(
      new Request(`${API}/conversations?includes=document_ids`, { headers: { authorization: `Bearer ${SIM_KEY}` } }),
    );
    const { data } = (await response.json()) as { data: Array<{ name: string; document_ids: string[] }> };
    expect(data).toEqual([expect.objectContaining({ name: 'Checkout visitor', document_ids: [sim.documents[1]?.id] })]);
  });

  it('emits lifecycle events', async () => {
    const { model, events } = setupModel();
    model.open();
    await model.send('hi');
    model.close();
    expect(events.map((e) => e.type)).toEqual(['open', 'send', 'reply', 'close']);
  });

  it('ignores sends while busy and over-long text', async () => {
    const { model, requests } = setupModel();
    model.setDraft('x'.repeat(2001));
    await model.send();
    expect(requests).toEqual([]);
    expect(model.draft.value).toHaveLength(2001);
  });
});

import { describe, expect, it } from 'vitest';
import { createChatClient, toChronological } from '../../src/api/client';
import type { ApiMessage, StreamEvent } from '../../src/api/types';
import { setupStack } from '../helpers/stack';

async function ask(client: ReturnType<typeof setupStack>['client'], conversationId: string, content: string) {
  const events: StreamEvent[] = [];
  for await (const event of client.streamReply({ conversationId, content }, new AbortController().signal)) events.push(event);
  return events;
}

describe('chat client through the proxy and simulator', () => {
  it('creates a conversation, streams a reply and finds the stored reply with its sources', async () => {
    const { client, botId, requests } = setupStack();
    const conversation = await client.createConversation({ name: 'Visitor', botId, documentIds: [] });
    expect(conversation).toMatchObject({ bot_id: botId, name: 'Visitor' });
    const events = await ask(client, conversation.id, 'How long does delivery take?');
    expect(events[0]).toEqual({ type: 'start' });
    expect(events.at(-1)).toEqual({ type: 'end' });
    const streamed = events.map((e) => (e.type === 'chunk' ? e.text : '')).join('');
    const reply = await client.latestReply(conversation.id, new Set());
    expect(reply?.content).toBe(streamed);
    expect(reply?.sources?.data).toEqual([expect.objectContaining({ document_name: 'Shipping and returns' })]);
    expect(requests).toContain('POST /askbox/messages/stream');
    expect(requests.some((r) => r.startsWith('GET /askbox/stream/'))).toBe(true);
  });

  it('reads every page of a long history, oldest first', async () => {
    const { client, botId } = setupStack({ replies: Array.from({ length: 30 }, (_, i) => ({ text: `reply ${i}` })) });
    const { id } = await client.createConversation({ name: 'Long', botId, documentIds: [] });
    for (let i = 0; i < 30; i++) await ask(client, id, `question ${i}`);
    const all = await client.listAllMessages(id);
    expect(all).toHaveLength(60);
    expect(all.slice(0, 2).map((m) => m.content)).toEqual(['question 0', 'reply 0']);
    expect(all.at(-1)?.content).toBe('reply 29');
    const known = new Set(all.slice(0, -1).map((m) => m.id));
    expect((await client.latestReply(id, known))?.content).toBe('reply 29');
  });

  it('maps failures to ChatError kinds, keeping the service message', async () => {
    const { client, botId } = setupStack({ replies: [{ match: 'quota', status: 402 }, { match: 'busy', status: 429 }] });
    const { id } = await client.createConversation({ name: 'x', botId, documentIds: [] });
    await expect(ask(client, id, 'quota')).rejects.toMatchObject({ kind: 'quota', status: 402, detail: expect.stringContaining('message limit') });
    await expect(ask(client, id, 'busy')).rejects.toMatchObject({ kind: 'rate_limit', retryable: true });
    await expect(ask(client, id, 'x'.repeat(2001))).rejects.toMatchObject({ kind: 'http', status: 422, retryable: false, fields: ['content'] });
    await expect(client.listAllMessages('zzzzzzzzzzzz')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(client.createConversation({ name: 'x', botId: 'otherBot0002', documentIds: [] })).rejects.toMatchObject({ status: 422 });
  });

  it('maps a cut stream to a stream error, and a network failure to a network error', async () => {
    const { client, botId } = setupStack({ replies: [{ match: 'cut', text: 'abcdefgh', chunkSize: 2, cutAfter: 1 }] });
    const { id } = await client.createConversation({ name: 'x', botId, documentIds: [] });
    await expect(ask(client, id, 'cut')).rejects.toMatchObject({ kind: 'stream' });
    const offline = createChatClient({
      proxyUrl: '/askbox',
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(offline.createConversation({ name: 'x', botId, documentIds: [] })).rejects.toMatchObject({ kind: 'network', retryable: true });
  });

  it('reports an aborted stream as aborted', async () => {
    const { client, botId } = setupStack({ replies: [{ text: 'slow reply', chunkSize: 1, delayMs: 20 }] });
    const { id } = await client.createConversation({ name: 'x', botId, documentIds: [] });
    const controller = new AbortController();
    const run = (async () => {
      for await (const event of client.streamReply({ conversationId: id, content: 'q' }, controller.signal)) {
        if (event.type === 'chunk') controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('follows {data: {stream_url}} when a server answers that instead of a redirect', async () => {
    const encoder = new TextEncoder();
    const client = createChatClient({
      proxyUrl: 'https://chat.test/askbox/',
      fetch: async (input) =>
        String(input).endsWith('/messages/stream')
          ? Response.json({ data: { stream_url: 'https://chat.test/askbox/stream/t' } })
          : new Response(encoder.encode('data: [START]\n\ndata: {"chunk":"ok"}\n\ndata: [END]\n\n'), { headers: { 'content-type': 'text/event-stream' } }),
    });
    const events: StreamEvent[] = [];
    for await (const event of client.streamReply({ conversationId: 'c', content: 'q' }, new AbortController().signal)) events.push(event);
    expect(events).toContainEqual({ type: 'chunk', text: 'ok' });
  });
});

const m = (id: string, created_at: number): ApiMessage => ({ id, content: id, conversation_id: 'c', machine: false, created_at });

describe('toChronological', () => {
  it('sorts by created_at and keeps same-second ties in conversation order either way round', () => {
    const ascending = [m('q1', 1), m('a1', 1), m('q2', 2), m('a2', 2)];
    expect(toChronological(ascending).map((x) => x.id)).toEqual(['q1', 'a1', 'q2', 'a2']);
    expect(toChronological([...ascending].reverse()).map((x) => x.id)).toEqual(['q1', 'a1', 'q2', 'a2']);
  });
});

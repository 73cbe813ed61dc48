import { describe, expect, it } from 'vitest';
import { createChatClient, toChronological, type ConversationRef } from '../../../src/api/client';
import { parseRetryAfter } from '../../../src/api/errors';
import type { ApiMessage, StreamEvent } from '../../../src/api/types';
import { setupStack } from '../../helpers/stack';

async function ask(client: ReturnType<typeof setupStack>['client'], conversation: ConversationRef, content: string) {
  const events: StreamEvent[] = [];
  for await (const event of client.streamReply({ conversation, content }, new AbortController().signal))
    events.push(event);
  return events;
}

describe('chat client through the proxy and simulator', () => {
  it('creates a conversation, streams a reply and finds the stored reply with its sources', async () => {
    const { client, botId, requests } = setupStack();
    const conversation = await client.createConversation({ name: 'Visitor', botId, documentIds: [] });
    expect(conversation).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
      grant: expect.stringMatching(new RegExp(`^g1\\.${conversation.id}\\.${botId}\\.`)),
    });
    const events = await ask(client, conversation, 'How long does delivery take?');
    expect(events[0]).toEqual({ type: 'start' });
    expect(events.at(-1)).toEqual({ type: 'end' });
    const streamed = events.map((e) => (e.type === 'chunk' ? e.text : '')).join('');
    const reply = (await client.recentMessages(conversation)).at(-1);
    expect(reply?.content).toBe(streamed);
    expect(reply?.sources).toEqual([expect.objectContaining({ document_name: 'Shipping and returns' })]);
    expect(requests).toContain('POST /askbox/messages/stream');
    expect(requests.some((r) => r.startsWith('GET /askbox/stream/'))).toBe(true);
  });

  it('reads every page of a long history, oldest first', async () => {
    const { client, botId } = setupStack({ replies: Array.from({ length: 30 }, (_, i) => ({ text: `reply ${i}` })) });
    const conversation = await client.createConversation({ name: 'Long', botId, documentIds: [] });
    for (let i = 0; i < 30; i++) await ask(client, conversation, `question ${i}`);
    const all = await client.listAllMessages(conversation);
    expect(all).toHaveLength(60);
    expect(all.slice(0, 2).map((m) => m.content)).toEqual(['question 0', 'reply 0']);
    expect(all.at(-1)?.content).toBe('reply 29');
    // The newest messages: the first and the last page of 50, oldest first.
    const recent = await client.recentMessages(conversation);
    expect([recent.length, recent.at(-2)?.content, recent.at(-1)?.content]).toEqual([60, 'question 29', 'reply 29']);
  });

  it('stops reading history when next_page does not advance', async () => {
    const pages: string[] = [];
    const client = createChatClient({
      proxyUrl: '/askbox',
      fetch: async (input) => {
        pages.push(new URL(String(input), 'http://x').searchParams.get('page') ?? '');
        const message = { id: `m${pages.length}`, content: 'x', conversation_id: 'c1', machine: false, created_at: 1 };
        const pagination = { count: 1, total: 500, per_page: 1, total_pages: 500, next_page: 1, previous_page: null };
        return Response.json({ data: [message], meta: { pagination } });
      },
    });
    expect(await client.listAllMessages({ id: 'c1', grant: 'g' })).toHaveLength(1);
    expect(pages).toEqual(['1']);
  });

  it('maps failures to ChatError kinds, keeping the service message', async () => {
    const { client, botId } = setupStack({
      replies: [
        { match: 'quota', status: 402 },
        { match: 'busy', status: 429 },
      ],
    });
    const conversation = await client.createConversation({ name: 'x', botId, documentIds: [] });
    await expect(ask(client, conversation, 'quota')).rejects.toMatchObject({
      kind: 'quota',
      status: 402,
      detail: expect.stringContaining('message limit'),
    });
    await expect(ask(client, conversation, 'busy')).rejects.toMatchObject({ kind: 'rate_limit', retryable: true });
    await expect(ask(client, conversation, 'x'.repeat(2001))).rejects.toMatchObject({
      kind: 'http',
      status: 422,
      retryable: false,
      fields: ['content'],
    });
    await expect(client.listAllMessages({ id: 'zzzzzzzzzzzz', grant: conversation.grant })).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(
      client.createConversation({ name: 'x', botId: 'otherBot0002', documentIds: [] }),
    ).rejects.toMatchObject({ status: 422 });
  });

  it('maps a cut stream to a stream error, and a network failure to a network error', async () => {
    const { client, botId } = setupStack({ replies: [{ match: 'cut', text: 'abcdefgh', chunkSize: 2, cutAfter: 1 }] });
    const conversation = await client.createConversation({ name: 'x', botId, documentIds: [] });
    await expect(ask(client, conversation, 'cut')).rejects.toMatchObject({ kind: 'stream' });
    const offline = createChatClient({
      proxyUrl: '/askbox',
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(offline.createConversation({ name: 'x', botId, documentIds: [] })).rejects.toMatchObject({
      kind: 'network',
      retryable: true,
    });
  });

  it('reports an aborted stream as aborted', async () => {
    const { client, botId } = setupStack({ replies: [{ text: 'slow reply', chunkSize: 1, delayMs: 20 }] });
    const conversation = await client.createConversation({ name: 'x', botId, documentIds: [] });
    const controller = new AbortController();
    const run = (async () => {
      for await (const event of client.streamReply({ conversation, content: 'q' }, controller.signal)) {
        if (event.type === 'chunk') controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('takes a reply stream only: a send answered with JSON (even a stream_url) is a stream error, not followed', async () => {
    const seen: string[] = [];
    const client = createChatClient({
      proxyUrl: 'https://chat.test/askbox/',
      fetch: async (input) => {
        seen.push(String(input));
        return Response.json({ data: { stream_url: 'https://elsewhere.test/stream/t' } });
      },
    });
    const run = (async () => {
      for await (const event of client.streamReply(
        { conversation: { id: 'c', grant: 'g1.c' }, content: 'q' },
        new AbortController().signal,
      ))
        void event;
    })();
    await expect(run).rejects.toMatchObject({ kind: 'stream' });
    expect(seen).toEqual(['https://chat.test/askbox/messages/stream']);
  });

  it('calls a proxy URL with a query (WordPress\u2019s "Plain" permalinks) with the route inside the query', async () => {
    const seen: string[] = [];
    const client = createChatClient({
      proxyUrl: 'https://blog.test/index.php?rest_route=/askbox/v1',
      fetch: async (input) => {
        seen.push(String(input));
        throw new TypeError('offline');
      },
    });
    const conversation = { id: 'c1', grant: 'g1.c1' };
    await expect(client.createConversation({ name: 'V', botId: 'b', documentIds: [] })).rejects.toThrow();
    await expect(client.recentMessages(conversation)).rejects.toThrow();
    expect(seen).toEqual([
      'https://blog.test/index.php?rest_route=/askbox/v1/conversations',
      'https://blog.test/index.php?rest_route=/askbox/v1/messages&conversation_id=c1&includes=sources&page=1&per_page=50',
    ]);
  });

  it('sends the grant on every call about a conversation, and the previous one when creating', async () => {
    const { client, botId } = setupStack();
    const seen: string[] = [];
    const spy = createChatClient({
      proxyUrl: '/askbox',
      fetch: async (input, init) => {
        seen.push(
          `${init?.method ?? 'GET'} ${String(input).split('?')[0]} ${new Headers(init?.headers).get('x-askbox-grant') ?? '-'}`,
        );
        return new Response('{"message":"nope"}', { status: 404, headers: { 'content-type': 'application/json' } });
      },
    });
    const conversation = await client.createConversation({ name: 'x', botId, documentIds: [] });
    await spy.listAllMessages(conversation).catch(() => undefined);
    await spy.recentMessages(conversation).catch(() => undefined);
    await ask(spy, conversation, 'q').catch(() => undefined);
    await spy
      .createConversation({ name: 'x', botId, documentIds: [], grant: conversation.grant })
      .catch(() => undefined);
    expect(seen).toEqual([
      `GET /askbox/messages ${conversation.grant}`,
      `GET /askbox/messages ${conversation.grant}`,
      `POST /askbox/messages/stream ${conversation.grant}`,
      `POST /askbox/conversations ${conversation.grant}`,
    ]);
  });

  it('refuses a created conversation that comes without a grant', async () => {
    for (const body of [
      { data: { id: 'abcdefabcdef' } },
      { data: { id: 'abcdefabcdef' }, meta: { grant: '' } },
      { data: {}, meta: { grant: 'g' } },
      null,
    ]) {
      const client = createChatClient({ proxyUrl: '/askbox', fetch: async () => Response.json(body) });
      await expect(client.createConversation({ name: 'x', botId: 'b', documentIds: [] })).rejects.toMatchObject({
        kind: 'http',
      });
    }
  });

  it('reads Retry-After as seconds or an HTTP date', async () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 22 Nov 2026 12:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Sun, 22 Nov 2026 11:00:00 GMT', now)).toBe(0);
    for (const bad of [null, '', 'soon', '-5', '1.5']) expect(parseRetryAfter(bad, now)).toBeUndefined();
    const client = createChatClient({
      proxyUrl: '/askbox',
      fetch: async () =>
        new Response('{"message":"Too many messages."}', {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '12' },
        }),
    });
    await expect(client.createConversation({ name: 'x', botId: 'b', documentIds: [] })).rejects.toMatchObject({
      kind: 'rate_limit',
      retryAfter: 12,
    });
  });
});

const m = (id: string, created_at: number): ApiMessage => ({
  id,
  content: id,
  machine: false,
  failed_responding: false,
  flagged: false,
  created_at,
  sources: [],
});

describe('toChronological', () => {
  it('sorts by created_at and keeps same-second ties in conversation order either way round', () => {
    const ascending = [m('q1', 1), m('a1', 1), m('q2', 2), m('a2', 2)];
    expect(toChronological(ascending).map((x) => x.id)).toEqual(['q1', 'a1', 'q2', 'a2']);
    expect(toChronological([...ascending].reverse()).map((x) => x.id)).toEqual(['q1', 'a1', 'q2', 'a2']);
  });

  it.each([
    ['out of order', [m('c', 3), m('a', 1), m('d', 4), m('b', 2)]],
    ['newest first, out of order', [m('d', 4), m('b', 2), m('c', 3), m('a', 1)]],
  ])('sorts a list that arrives %s', (_, messages) => {
    expect(toChronological(messages).map((x) => x.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('chat client without streaming (data-stream="false")', () => {
  it('asks POST /messages and yields the whole reply as the one chunk of a stream', async () => {
    const { client, botId, requests } = setupStack({ replies: [{ text: 'All at once.' }] }, {}, { stream: false });
    const conversation = await client.createConversation({ name: 'Visitor', botId, documentIds: [] });
    expect(await ask(client, conversation, 'Hello?')).toEqual([
      { type: 'start' },
      { type: 'chunk', text: 'All at once.' },
      { type: 'end' },
    ]);
    expect(requests).toEqual(['POST /askbox/conversations', 'POST /askbox/messages']);
  });

  it('refuses a 200 that carries no message, as a ChatError', async () => {
    const client = createChatClient({
      proxyUrl: '/askbox',
      stream: false,
      fetch: async () => Response.json({ data: { content: 'no id, no author' } }),
    });
    await expect(ask(client, { id: 'c1', grant: 'g' }, 'Hello?')).rejects.toMatchObject({ kind: 'http' });
  });
});

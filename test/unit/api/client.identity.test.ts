import { describe, expect, it } from 'vitest';
import { createChatClient, type ChatClientOptions } from '../../../src/api/client';
import { isChatError } from '../../../src/api/errors';
import { parseConversationList } from '../../../src/api/parse';
import { IDENTITY } from '../../../src/protocol/contract';

const ALICE = { id: 'alice', hash: 'a'.repeat(64) };
const conversation = { id: 'conv00000001', grant: 'g.rant' };

/** A client over a fetch that answers each request by its path, recording each request's identity headers. */
function setup(user?: ChatClientOptions['user']) {
  const seen: { path: string; user: string | null; hash: string | null }[] = [];
  const client = createChatClient({
    proxyUrl: '/askbox',
    user,
    fetch: async (url, init) => {
      const headers = new Headers(init?.headers);
      const path = String(url).replace(/\?.*/, '');
      seen.push({ path, user: headers.get(IDENTITY.userHeader), hash: headers.get(IDENTITY.hashHeader) });
      if (path.endsWith('/messages/stream'))
        return new Response('data: [START]\n\ndata: [END]\n\n', { headers: { 'content-type': 'text/event-stream' } });
      if (path.endsWith('/challenge')) return new Response(null, { status: 204 });
      const bodies: Record<string, unknown> = {
        '/askbox/conversations':
          init?.method === 'POST' ? { data: { id: 'conv00000002' }, meta: { grant: 'g2' } } : { data: [] },
        '/askbox/messages': { data: [] },
        '/askbox/conversations/conv00000001': { data: true },
        '/askbox/feedback': { data: { message_id: 'm1' } },
      };
      return Response.json(bodies[path]);
    },
  });
  return { client, seen };
}

/** One of every request the widget makes. */
async function everyRequest(client: ReturnType<typeof createChatClient>) {
  await client.prove();
  await client.createConversation({ name: 'Visitor', botId: 'bot000000001', documentIds: [] });
  await client.listAllMessages(conversation);
  for await (const event of client.streamReply({ conversation, content: 'hi' }, new AbortController().signal))
    void event;
  await client.sendFeedback(conversation, { messageId: 'm1', rating: 'up' });
  await client.deleteConversation(conversation);
  await client.listConversations();
}

describe('the client for a signed-in visitor', () => {
  it('sends both identity headers on every request', async () => {
    const { client, seen } = setup(ALICE);
    await everyRequest(client);
    expect(seen.map((request) => request.path)).toEqual([
      '/askbox/challenge',
      '/askbox/conversations',
      '/askbox/messages',
      '/askbox/messages/stream',
      '/askbox/feedback',
      '/askbox/conversations/conv00000001',
      '/askbox/conversations',
    ]);
    for (const request of seen) expect(request).toMatchObject({ user: 'alice', hash: ALICE.hash });
  });

  it('sends neither for an anonymous visitor', async () => {
    const { client, seen } = setup();
    await everyRequest(client);
    for (const request of seen) expect(request).toMatchObject({ user: null, hash: null });
  });
});

describe('GET /conversations: a person’s list, checked at the boundary', () => {
  const entry = (extra: Record<string, unknown> = {}) => ({
    id: 'conv00000001',
    name: 'Website visitor',
    bot_id: 'bot000000001',
    created_at: '2026-11-29T12:00:00.000Z',
    grant: 'g.rant',
    ...extra,
  });

  it('reads each entry with its grant and its time in ms', () => {
    expect(parseConversationList({ data: [entry()], meta: {} })).toEqual([
      { id: 'conv00000001', grant: 'g.rant', name: 'Website visitor', createdAt: Date.UTC(2026, 10, 29, 12) },
    ]);
  });

  it.each([
    ['no grant', { grant: undefined }],
    ['a grant with a space', { grant: 'g rant' }],
    ['an id that is no id', { id: '../x' }],
    ['no time', { created_at: undefined }],
    ['a time that is no time', { created_at: 'yesterday' }],
    ['a time as a number', { created_at: 1_700_000_000 }],
  ])('drops an entry with %s, keeping the rest', (_, extra) => {
    expect(parseConversationList({ data: [entry(extra), entry({ id: 'conv00000002' })] }).map((c) => c.id)).toEqual([
      'conv00000002',
    ]);
  });

  it('reads a name that is not a string as empty, and cuts a runaway one', () => {
    const [odd, long] = parseConversationList({ data: [entry({ name: 7 }), entry({ name: 'n'.repeat(500) })] });
    expect(odd?.name).toBe('');
    expect(long?.name).toHaveLength(200);
  });

  it('refuses a body without a list', async () => {
    for (const body of [{}, { data: {} }, [], 'x']) expect(() => parseConversationList(body)).toThrow(/list/);
    const client = createChatClient({ proxyUrl: '/askbox', fetch: async () => Response.json({ data: null }) });
    const kind = await client.listConversations().catch((error: unknown) => isChatError(error) && error.kind);
    expect(kind).toBe('http');
  });
});

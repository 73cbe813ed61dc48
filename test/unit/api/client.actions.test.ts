import { describe, expect, it } from 'vitest';
import { createChatClient } from '../../../src/api/client';
import { isChatError } from '../../../src/api/errors';

const conversation = { id: 'conv00000001', grant: 'g.rant' };

/** A client over a fetch that answers `status` and `body`, recording each request. */
function clientAnswering(status: number, body: unknown) {
  const calls: { url: string; method: string; grant: string | null; body: unknown }[] = [];
  const client = createChatClient({
    proxyUrl: '/askbox/',
    fetch: async (url, init) => {
      const headers = new Headers(init?.headers);
      calls.push({
        url: String(url),
        method: init?.method ?? 'GET',
        grant: headers.get('x-askbox-grant'),
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      return Response.json(body, { status });
    },
  });
  return { client, calls };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (isChatError(error) ? error.kind : 'not a ChatError'),
  );

describe('deleting a conversation through the proxy', () => {
  it('sends DELETE with the grant and takes {data: true} as done', async () => {
    const { client, calls } = clientAnswering(200, { data: true });
    await client.deleteConversation(conversation);
    expect(calls).toEqual([
      { url: '/askbox/conversations/conv00000001', method: 'DELETE', grant: 'g.rant', body: undefined },
    ]);
  });

  it.each([
    ['anything but data: true', 200, { data: false }, 'http'],
    ['a body that is not the envelope', 200, 'true', 'http'],
    ['someone else’s grant', 404, { message: 'Conversation not found.' }, 'not_found'],
    ['the action limit', 429, { message: 'Too many requests. Please try again in 6 seconds.' }, 'rate_limit'],
  ])('refuses %s', async (_, status, body, kind) => {
    expect(await failure(clientAnswering(status, body).client.deleteConversation(conversation))).toBe(kind);
  });
});

describe('sending feedback through the proxy', () => {
  it('posts the rating and comment with the grant, and checks the receipt names the reply', async () => {
    const receipt = { data: { conversation_id: 'conv00000001', message_id: 'reply0000001', rating: 'down' } };
    const { client, calls } = clientAnswering(200, receipt);
    await client.sendFeedback(conversation, { messageId: 'reply0000001', rating: 'down', comment: 'Wrong' });
    expect(calls).toEqual([
      {
        url: '/askbox/feedback',
        method: 'POST',
        grant: 'g.rant',
        body: { conversation_id: 'conv00000001', message_id: 'reply0000001', rating: 'down', comment: 'Wrong' },
      },
    ]);
    const plain = clientAnswering(200, receipt);
    await plain.client.sendFeedback(conversation, { messageId: 'reply0000001', rating: 'up' });
    expect(plain.calls[0]?.body).toEqual({ conversation_id: 'conv00000001', message_id: 'reply0000001', rating: 'up' });
  });

  it('sends it with `keepalive` only when asked: a rating sent as the visitor leaves outlives the page', async () => {
    const kept: (boolean | undefined)[] = [];
    const client = createChatClient({
      proxyUrl: '/askbox',
      fetch: async (_url, init) => {
        kept.push(init?.keepalive);
        return Response.json({ data: { message_id: 'reply0000001' } });
      },
    });
    await client.sendFeedback(conversation, { messageId: 'reply0000001', rating: 'down' }, { keepalive: true });
    await client.sendFeedback(conversation, { messageId: 'reply0000001', rating: 'up' });
    expect(kept).toEqual([true, false]);
  });

  it.each([
    ['a receipt for another reply', 200, { data: { message_id: 'reply0000002' } }, 'http'],
    ['no receipt', 200, {}, 'http'],
    ['a 422', 422, { message: 'The selected rating is invalid.' }, 'http'],
  ])('refuses %s', async (_, status, body, kind) => {
    const { client } = clientAnswering(status, body);
    expect(await failure(client.sendFeedback(conversation, { messageId: 'reply0000001', rating: 'up' }))).toBe(kind);
  });
});

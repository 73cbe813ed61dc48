import { describe, expect, it } from 'vitest';
import { createChatClient } from '../../../src/api/client';

const conversation = { id: 'conv00000001', grant: 'g.rant' };
const newConversation = { name: 'Visitor', botId: 'yiu456ytyUjk', documentIds: [] };

/** A client whose every request is answered with `body`, `status` and `type` (no content type when undefined). */
function clientAnswering(status: number, body: string | null, type?: string) {
  return createChatClient({
    proxyUrl: 'https://shop.example/askbox',
    fetch: async () => new Response(body, { status, headers: type ? { 'content-type': type } : {} }),
  });
}

/** What the client throws for `client`'s new conversation. */
async function failureOf(client: ReturnType<typeof createChatClient>) {
  return client.createConversation(newConversation).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('an answer that is not the Askbox proxy', () => {
  it.each([
    [404, '<!doctype html><title>Not Found</title>', 'text/html; charset=utf-8', 'answered 404 text/html'],
    [501, '<html>Unsupported method</html>', 'text/html', 'answered 501 text/html'],
    [405, 'Method Not Allowed', 'text/plain', 'answered 405 text/plain'],
    [404, '{"detail":"Not Found"}', 'application/json', 'answered 404 application/json'],
    [500, '{"message":"x"}', 'text/html', 'answered 500 text/html'],
    [502, null, undefined, 'answered 502 without a content type'],
    [200, '<!doctype html><p>Our shop</p>', 'text/html', 'answered 200 text/html'],
    // A string body without a content type reads as text/plain (as a bare server's answer would).
    [200, '{"data":{}}', undefined, 'answered 200 text/plain'],
  ])('is named for the owner: a %i with %s as %s', async (status, body, type, said) => {
    expect(await failureOf(clientAnswering(status, body, type))).toMatchObject({
      name: 'ChatError',
      kind: 'http',
      status,
      notProxy: true,
      message: `${said}, not the Askbox proxy`,
    });
  });

  it('is named on every route: history, deletion, feedback and the reply stream', async () => {
    const client = clientAnswering(404, '<html></html>', 'text/html');
    const signal = new AbortController().signal;
    const stream = async () => {
      for await (const _ of client.streamReply({ conversation, content: 'Hi' }, signal));
    };
    for (const attempt of [
      () => client.listAllMessages(conversation),
      () => client.deleteConversation(conversation),
      () => client.sendFeedback(conversation, { messageId: 'm1', rating: 'up' }),
      stream,
    ])
      await expect(attempt()).rejects.toMatchObject({ notProxy: true, status: 404 });
  });
});

describe('the Askbox proxy is not taken for a stranger', () => {
  it('its 404 for a conversation it does not know is the service’s envelope in JSON', async () => {
    const client = clientAnswering(404, '{"message":"Conversation not found."}', 'application/json');
    await expect(client.listAllMessages(conversation)).rejects.toMatchObject({
      kind: 'not_found',
      notProxy: false,
      detail: 'Conversation not found.',
    });
  });

  it.each([
    [422, '{"message":"The selected bot id is invalid.","errors":{"bot_id":["x"]}}', 'application/json', 'http'],
    [429, '{"message":"Too many messages."}', 'application/json; charset=utf-8', 'rate_limit'],
    [503, '{"message":"Busy."}', 'application/problem+json', 'http'],
  ])('nor its %i refusal', async (status, body, type, kind) => {
    expect(await failureOf(clientAnswering(status, body, type))).toMatchObject({ kind, status, notProxy: false });
  });

  it('its answers in JSON, its reply stream, and its 204 without a challenge pass', async () => {
    const created = '{"data":{"id":"conv00000001"},"meta":{"grant":"g.rant"}}';
    await expect(
      clientAnswering(200, created, 'application/json').createConversation(newConversation),
    ).resolves.toEqual(conversation);
    await expect(clientAnswering(204, null).prove()).resolves.toBeUndefined();
    const stream = clientAnswering(
      200,
      'data: [START]\n\ndata: {"chunk":"Hi"}\n\ndata: [END]\n\n',
      'text/event-stream; charset=utf-8',
    );
    const events: unknown[] = [];
    for await (const event of stream.streamReply({ conversation, content: 'Hi' }, new AbortController().signal))
      events.push(event);
    expect(events).toContainEqual({ type: 'chunk', text: 'Hi' });
  });
});

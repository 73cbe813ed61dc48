import { pbkdf2Sync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Client from '../../../src/api/client';
import type { StreamEvent } from '../../../src/api/types';

/**
 * The module afresh for each test: the grant header's name and the history query are constants set as it loads, and
 * Stryker counts a mutant of them only against the tests that load it.
 */
let createChatClient: typeof Client.createChatClient;
beforeEach(async () => {
  vi.resetModules();
  ({ createChatClient } = await import('../../../src/api/client'));
});

afterEach(() => {
  vi.restoreAllMocks();
});

const conversation = { id: 'conv00000001', grant: 'g.rant' };

/** What a request carried: its method, path and query, headers, JSON body and signal. */
interface Sent {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | null | undefined;
}

/** A client over a fetch that answers each request with `answer(sent)`, recording what was sent. */
function clientWith(answer: (sent: Sent) => Response | Promise<Response>, options: { stream?: boolean } = {}) {
  const sent: Sent[] = [];
  const client = createChatClient({
    proxyUrl: '/askbox',
    ...options,
    fetch: async (input, init) => {
      const url = new URL(String(input), 'https://shop.test');
      const request: Sent = {
        method: init?.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: Object.fromEntries(new Headers(init?.headers)),
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
        signal: init?.signal,
      };
      sent.push(request);
      return answer(request);
    },
  });
  return { client, sent };
}

const message = (id: string, created_at = 1) => ({ id, content: id, machine: false, created_at });

/** A page of history with `messages`, and the pagination the service names (none when undefined). */
const page = (messages: unknown[], pagination?: Record<string, unknown>) =>
  Response.json({ data: messages, ...(pagination && { meta: { pagination } }) });

async function read(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const all: StreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('what the client sends', () => {
  it('asks for JSON on every route, names the JSON it sends, and carries the conversation’s grant', async () => {
    const { client, sent } = clientWith(({ path, method }) => {
      if (path === '/askbox/messages/stream')
        return new Response('data: [START]\n\ndata: [END]\n\n', { headers: { 'content-type': 'text/event-stream' } });
      if (path === '/askbox/conversations' && method === 'POST')
        return Response.json({ data: { id: 'conv00000002' }, meta: { grant: 'g2' } });
      return Response.json({ data: path === '/askbox/conversations/conv00000001' ? true : [] });
    });
    await client.createConversation({ name: 'Visitor', botId: 'bot000000001', documentIds: [], grant: 'g.old' });
    await client.listAllMessages(conversation);
    await read(client.streamReply({ conversation, content: 'Hi' }, new AbortController().signal));
    await client.deleteConversation(conversation);
    await client.listConversations();
    const json = { accept: 'application/json', 'content-type': 'application/json' };
    expect(sent.map(({ method, path, headers }) => [method, path, headers])).toEqual([
      ['POST', '/askbox/conversations', { ...json, 'x-askbox-grant': 'g.old' }],
      ['GET', '/askbox/messages', { accept: 'application/json', 'x-askbox-grant': 'g.rant' }],
      ['POST', '/askbox/messages/stream', { ...json, 'x-askbox-grant': 'g.rant' }],
      ['DELETE', '/askbox/conversations/conv00000001', { accept: 'application/json', 'x-askbox-grant': 'g.rant' }],
      ['GET', '/askbox/conversations', { accept: 'application/json' }],
    ]);
  });

  it('asks for history a page of 50 at a time, with its sources', async () => {
    const { client, sent } = clientWith(() => page([message('m1')]));
    await client.listAllMessages(conversation);
    expect(sent.map((request) => request.query)).toEqual([
      { conversation_id: 'conv00000001', includes: 'sources', page: '1', per_page: '50' },
    ]);
  });

  it.each([
    ['no documents', [], { name: 'Visitor', bot_id: 'bot000000001' }],
    ['its documents', ['doc1', 'doc2'], { name: 'Visitor', bot_id: 'bot000000001', document_ids: ['doc1', 'doc2'] }],
  ])('creates a conversation with %s', async (_, documentIds, body) => {
    const { client, sent } = clientWith(() => Response.json({ data: { id: 'conv00000002' }, meta: { grant: 'g2' } }));
    await client.createConversation({ name: 'Visitor', botId: 'bot000000001', documentIds });
    expect(sent[0]?.body).toEqual(body);
  });

  it.each([
    ['all history', (client: Client.ChatClient, signal: AbortSignal) => client.listAllMessages(conversation, signal)],
    ['recent history', (client: Client.ChatClient, signal: AbortSignal) => client.recentMessages(conversation, signal)],
    ['the conversation list', (client: Client.ChatClient, signal: AbortSignal) => client.listConversations(signal)],
  ])('stops reading %s when its signal aborts', async (_, readWith) => {
    // A fetch that honours the signal it is given, as a browser's does.
    const { client } = clientWith(({ signal }) => {
      if (signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
      return page([]);
    });
    const controller = new AbortController();
    controller.abort();
    expect(await failureOf(readWith(client, controller.signal))).toMatchObject({ kind: 'aborted' });
  });
});

describe('reading a history of several pages', () => {
  it.each([
    ['the total when no next page is named', () => ({ total_pages: 3 }), 3],
    ['the next page past the total', (p: number) => ({ total_pages: 1, next_page: p < 3 ? p + 1 : null }), 3],
    ['at most 200 pages of a runaway paginator', (p: number) => ({ total_pages: 10_000, next_page: p + 1 }), 200],
  ])('follows %s', async (_, pagination, pages) => {
    const { client, sent } = clientWith(({ query }) => {
      const number = Number(query.page);
      return page([message(`m${number}`, number)], pagination(number));
    });
    const all = await client.listAllMessages(conversation);
    expect(sent.map(({ query }) => Number(query.page))).toEqual(Array.from({ length: pages }, (_item, i) => i + 1));
    expect(all).toHaveLength(pages);
  });

  it('reads a one-page history once, and a longer one’s first and last pages', async () => {
    const one = clientWith(() => page([message('m1')], { total_pages: 1 }));
    expect((await one.client.recentMessages(conversation)).map((m) => m.id)).toEqual(['m1']);
    expect(one.sent).toHaveLength(1);
    const long = clientWith(({ query }) => page([message(`m${query.page}`, Number(query.page))], { total_pages: 4 }));
    expect((await long.client.recentMessages(conversation)).map((m) => m.id)).toEqual(['m1', 'm4']);
    expect(long.sent.map(({ query }) => query.page)).toEqual(['1', '4']);
  });

  it('warns the site owner once per widget of malformed records, and not at all when there are none', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const clean = clientWith(() => page([message('m1')], { total_pages: 2 }));
    await clean.client.listAllMessages(conversation);
    expect(warn).not.toHaveBeenCalled();
    const broken = clientWith(({ query }) => page([message(`m${query.page}`), { id: 'x' }], { total_pages: 2 }));
    const all = await broken.client.listAllMessages(conversation);
    await broken.client.recentMessages(conversation);
    expect(all.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(warn.mock.calls).toEqual([['[askbox] Ignored 1 malformed message(s) from the chat service']]);
  });
});

describe('what the client takes from the proxy', () => {
  it.each([
    [
      'JSON that does not parse',
      () => new Response('{"data":', { headers: { 'content-type': 'application/json' } }),
      200,
    ],
    ['a 204 where JSON was asked for', () => new Response(null, { status: 204 }), 204],
  ])('refuses %s as the proxy’s own failure', async (_, answer, status) => {
    const { client } = clientWith(answer);
    expect(await failureOf(client.listConversations())).toMatchObject({
      name: 'ChatError',
      kind: 'http',
      status,
      notProxy: false,
      message: 'The response was not JSON',
      cause: expect.any(SyntaxError),
    });
  });

  it.each([
    [402, 'quota'],
    [429, 'rate_limit'],
    [500, 'http'],
  ])('names a refusal by its status: %i', async (status, kind) => {
    const { client } = clientWith(() => Response.json({ message: 'No.' }, { status }));
    expect(await failureOf(client.listConversations())).toMatchObject({ kind, status, message: `HTTP ${status}` });
  });

  it.each([
    [
      'an answer in JSON, even one that reads as a stream',
      () => new Response('data: [START]\n\ndata: [END]\n\n', { headers: { 'content-type': 'application/json' } }),
      'The proxy did not answer with a reply stream',
    ],
    [
      'a reply stream without a body',
      () => new Response(null, { headers: { 'content-type': 'text/event-stream' } }),
      'The reply stream has no body',
    ],
  ])('refuses %s to a message sent', async (_, answer, said) => {
    const { client } = clientWith(answer);
    const events: StreamEvent[] = [];
    const reading = (async () => {
      for await (const event of client.streamReply({ conversation, content: 'Hi' }, new AbortController().signal))
        events.push(event);
    })();
    expect(await failureOf(reading)).toMatchObject({ kind: 'stream', notProxy: false, message: said });
    expect(events).toEqual([]);
  });

  it('refuses a whole reply that is not a message (data-stream="false")', async () => {
    const { client } = clientWith(() => Response.json({ data: { content: 'no id' } }), { stream: false });
    const reading = read(client.streamReply({ conversation, content: 'Hi' }, new AbortController().signal));
    expect(await failureOf(reading)).toMatchObject({ kind: 'http', message: 'The proxy sent no reply' });
  });
});

describe('the proof of work', () => {
  it('solves the proxy’s challenge: a derived key that starts with its prefix', async () => {
    const parameters = { nonce: '0a'.repeat(16), salt: '0b'.repeat(16), cost: 1, keyPrefix: '0' };
    const challenge = { parameters, signature: 's' };
    const { client, sent } = clientWith(() => Response.json({ data: challenge }));
    const proof = await client.prove('g.rant');
    expect(sent.map(({ path, headers }) => [path, headers['x-askbox-grant']])).toEqual([
      ['/askbox/challenge', 'g.rant'],
    ]);
    expect(proof?.challenge).toEqual(challenge);
    const counter = proof?.solution.counter ?? -1;
    const password = Buffer.concat([Buffer.from(parameters.nonce, 'hex'), Buffer.alloc(4)]);
    password.writeUInt32BE(counter, 16);
    const key = pbkdf2Sync(password, Buffer.from(parameters.salt, 'hex'), 1, 32, 'sha256').toString('hex');
    expect(proof?.solution.derivedKey).toBe(key);
    expect(key.startsWith('0')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { QUOTA_MESSAGE } from '../../../../demo/simulator/http';
import { createSimulator, DEMO_BOT_ID } from '../../../../demo/simulator/index';
import { FAILED_REPLY_TEXT } from '../../../../demo/simulator/messages';
import { FIELDS } from '../../../../src/protocol/contract';
import { fieldMessage } from '../../../helpers/messages';
import { chunksOf, SIM_KEY, SIM_ORIGIN, setupSimulator } from '../../../helpers/simulator';

const ID = /^[A-Za-z0-9]{12}$/;

describe('simulator: envelopes and resources', () => {
  it('requires the Bearer key (401 "Unauthenticated.")', async () => {
    const { api } = setupSimulator();
    for (const key of [null, 'wrong']) {
      const res = await api('GET', '/bots', undefined, key);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it('lists bots in the list envelope with full pagination meta', async () => {
    const { api } = setupSimulator();
    const res = await api('GET', '/bots');
    expect(res.status).toBe(200);
    expect(res.body?.data[0]).toEqual({
      id: DEMO_BOT_ID,
      name: 'Askbox Demo Bot',
      model: expect.any(String),
      created_at: expect.any(Number),
    });
    expect(res.body?.meta.pagination).toEqual({
      count: 2,
      total: 2,
      per_page: 15,
      total_pages: 1,
      next_page: null,
      previous_page: null,
    });
    expect((await api('GET', '/bots?keyword=demo')).body?.data).toHaveLength(1);
  });

  it('creates, reads, updates and deletes a conversation', async () => {
    const { api, sim } = setupSimulator();
    const docId = sim.documents[0]?.id;
    const created = await api('POST', '/conversations', {
      name: 'Visitor',
      bot_id: DEMO_BOT_ID,
      document_ids: [docId],
    });
    expect(created.status).toBe(200);
    expect(created.body?.data).toEqual({
      id: expect.stringMatching(ID),
      name: 'Visitor',
      bot_id: DEMO_BOT_ID,
      created_at: expect.any(Number),
    });
    const id = created.body?.data.id;
    expect((await api('GET', `/conversations/${id}`)).body?.data.document_ids).toBeUndefined();
    expect((await api('GET', `/conversations/${id}?includes=document_ids`)).body?.data.document_ids).toEqual([docId]);
    expect((await api('POST', `/conversations/${id}`, { name: 'Renamed', bot_id: DEMO_BOT_ID })).body?.data.name).toBe(
      'Renamed',
    );
    expect((await api('GET', `/conversations?bot_id=${DEMO_BOT_ID}&keyword=renam`)).body?.data).toHaveLength(1);
    expect((await api('DELETE', `/conversations/${id}`)).status).toBe(200);
    expect(await api('GET', `/conversations/${id}`)).toMatchObject({
      status: 404,
      body: { message: expect.any(String) },
    });
  });

  it('answers 422 in Laravel wording, first error plus "(and N more errors)"', async () => {
    const { api } = setupSimulator();
    expect((await api('POST', '/conversations', { name: 'x', bot_id: 'nope' })).body).toEqual({
      message: fieldMessage('invalid', 'bot_id'),
      errors: { bot_id: [fieldMessage('invalid', 'bot_id')] },
    });
    expect((await api('POST', '/messages', {})).body).toEqual({
      message: `${fieldMessage('required', 'content')} (and 1 more error)`,
      errors: {
        content: [fieldMessage('required', 'content')],
        conversation_id: [fieldMessage('required', 'conversation_id')],
      },
    });
    const res = await api('POST', '/conversations', { bot_id: 'nope', document_ids: ['x', 'y'] });
    expect(res.body?.message).toBe(`${fieldMessage('required', 'name')} (and 3 more errors)`);
    expect(res.body?.errors['document_ids.1']).toEqual(['The selected document_ids.1 is invalid.']);
    const conversation = (await api('POST', '/conversations', { name: 'x', bot_id: DEMO_BOT_ID })).body?.data.id;
    expect(
      (await api('POST', '/messages', { content: 'x'.repeat(FIELDS.contentMax + 1), conversation_id: conversation }))
        .body?.errors.content,
    ).toEqual([fieldMessage('max', 'content', FIELDS.contentMax)]);
    expect(
      (await api('POST', '/messages', { content: '   ', conversation_id: conversation })).body?.errors.content,
    ).toEqual([fieldMessage('required', 'content')]);
  });

  it('never crashes: bad JSON, huge bodies, unknown paths and methods', async () => {
    const { api } = setupSimulator();
    expect((await api('POST', '/conversations', '{not json')).status).toBe(422);
    expect((await api('POST', '/conversations', '[1,2]')).status).toBe(422);
    expect((await api('POST', '/messages', JSON.stringify({ content: 'x'.repeat(1_100_000) }))).status).toBe(413);
    expect((await api('GET', '/nope')).status).toBe(404);
    expect((await api('GET', '/conversations/a/b/c')).status).toBe(404);
    const wrong = await api('PUT', '/bots');
    expect(wrong.status).toBe(405);
    expect(wrong.body?.message).toBe('The PUT method is not supported for route api/v1/bots. Supported methods: GET.');
  });
});

describe('simulator: messages', () => {
  it('stores the question and the machine reply; POST /messages returns the reply', async () => {
    const { api, conversation } = setupSimulator();
    const id = await conversation();
    const res = await api('POST', '/messages', { content: 'How much does shipping cost?', conversation_id: id });
    expect(res.status).toBe(200);
    expect(res.body?.data).toEqual({
      id: expect.stringMatching(ID),
      content: expect.stringContaining('€4.90'),
      conversation_id: id,
      machine: true,
      failed_responding: false,
      flagged: false,
      created_at: expect.any(Number),
    });
    const list = await api('GET', `/messages?conversation_id=${id}&includes=sources,usage`);
    expect(list.body?.data.map((m: { machine: boolean }) => m.machine)).toEqual([false, true]);
    const reply = list.body?.data[1];
    expect(reply.sources.data[0]).toEqual({
      type: 'written',
      document_id: expect.stringMatching(ID),
      document_name: 'Shipping and returns',
      document_url: expect.stringMatching(/^http:\/\/sim\.test\/documents\//),
      created_at: expect.any(Number),
    });
    expect(reply.usage).toEqual({ tokens: expect.any(Number), credits: expect.any(Number) });
    const single = await api('GET', `/messages/${reply.id}?includes=sources`);
    expect(single.body?.data.sources.data).toHaveLength(reply.sources.data.length);
    expect((await api('GET', '/messages/zzzzzzzzzzzz')).status).toBe(404);
  });

  it('answers POST /messages once the reply is generated: until then only the question is stored', async () => {
    const { api, conversation } = setupSimulator({ replies: [{ text: 'Done thinking.', firstByteDelayMs: 200 }] });
    const id = await conversation();
    const started = Date.now();
    const answer = api('POST', '/messages', { content: 'Take your time', conversation_id: id });
    // The question is stored as soon as the send is taken; the reply comes 200 ms later.
    await expect
      .poll(async () =>
        (await api('GET', `/messages?conversation_id=${id}`)).body?.data.map((m: { content: string }) => m.content),
      )
      .toEqual(['Take your time']);
    expect((await answer).body?.data.content).toBe('Done thinking.');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect((await api('GET', `/messages?conversation_id=${id}`)).body?.data).toHaveLength(2);
  });

  it('pages messages with page and per_page', async () => {
    const { api, conversation } = setupSimulator();
    const id = await conversation();
    for (let i = 0; i < 3; i++) await api('POST', '/messages', { content: `question ${i}`, conversation_id: id });
    const page2 = await api('GET', `/messages?conversation_id=${id}&per_page=4&page=2`);
    expect(page2.body?.meta.pagination).toEqual({
      count: 2,
      total: 6,
      per_page: 4,
      total_pages: 2,
      next_page: null,
      previous_page: 1,
    });
    const empty = await api('GET', `/messages?conversation_id=zzz`);
    expect(empty.body?.meta.pagination).toMatchObject({ count: 0, total: 0, total_pages: 1 });
  });

  it('returns the exact 402 body once the 30-day limit is reached, and stores nothing', async () => {
    const { api, conversation } = setupSimulator({ messageLimit: 1 });
    const id = await conversation();
    expect((await api('POST', '/messages', { content: 'one', conversation_id: id })).status).toBe(200);
    for (const path of ['/messages', '/messages/stream']) {
      const res = await api('POST', path, { content: 'two', conversation_id: id });
      expect(res.status).toBe(402);
      expect(res.body).toEqual({ message: QUOTA_MESSAGE });
    }
    expect((await api('GET', `/messages?conversation_id=${id}`)).body?.meta.pagination.total).toBe(2);
  });

  it('scripts failed_responding, flagged and the 500 path', async () => {
    const { api, conversation } = setupSimulator({
      replies: [{ failedResponding: true }, { flagged: true, text: 'careful' }, { status: 500 }],
    });
    const id = await conversation();
    const failed = await api('POST', '/messages', { content: 'a', conversation_id: id });
    expect(failed.body?.data).toMatchObject({ failed_responding: true, content: FAILED_REPLY_TEXT });
    expect((await api('POST', '/messages', { content: 'b', conversation_id: id })).body?.data).toMatchObject({
      flagged: true,
      content: 'careful',
    });
    const error = await api('POST', '/messages', { content: 'c', conversation_id: id });
    expect(error.status).toBe(500);
    expect(error.body).toEqual({ message: expect.any(String) });
    const stored = (await api('GET', `/messages?conversation_id=${id}`)).body?.data.at(-1);
    expect(stored).toMatchObject({ machine: true, failed_responding: true, content: FAILED_REPLY_TEXT });
  });
});

describe('simulator: streaming', () => {
  it('302s to an opaque stream URL by default and serves [START] / chunks / [END] once', async () => {
    const { api, conversation, readStream } = setupSimulator({ defaults: { delayMs: 0 } });
    const id = await conversation();
    const res = await api('POST', '/messages/stream', { content: 'What are the delivery times?', conversation_id: id });
    expect(res.status).toBe(302);
    const location = res.headers.get('location') ?? '';
    expect(location).toMatch(/^http:\/\/sim\.test\/stream\/[A-Za-z0-9]{48}$/);
    const streamed = await readStream(location);
    expect(streamed.startsWith('data: [START]\n\n')).toBe(true);
    expect(streamed.endsWith('data: [END]\n\n')).toBe(true);
    const reply = (await api('GET', `/messages?conversation_id=${id}`)).body?.data.at(-1);
    expect(chunksOf(streamed)).toBe(reply.content);
    expect(reply.content).toContain('business day');
    expect(await readStream(location)).toContain('already been read');
  });

  it('serves streams only on its stream host, and its API only elsewhere, as the service does', async () => {
    const sim = createSimulator({ apiKey: SIM_KEY, streamOrigin: 'http://streams.test' });
    const call = (url: string, init: RequestInit = {}) =>
      sim.handle(
        new Request(url, {
          ...init,
          headers: { authorization: `Bearer ${SIM_KEY}`, 'content-type': 'application/json' },
          redirect: 'manual',
        }),
      );
    const post = (origin: string, path: string, body: unknown) =>
      call(`${origin}/api/v1${path}`, { method: 'POST', body: JSON.stringify(body) });
    const created = (await (await post(SIM_ORIGIN, '/conversations', { name: 'x', bot_id: DEMO_BOT_ID })).json()) as {
      data: { id: string };
    };
    expect((await post('http://streams.test', '/conversations', { name: 'x', bot_id: DEMO_BOT_ID })).status).toBe(404);
    const started = await post(SIM_ORIGIN, '/messages/stream', { content: 'hi', conversation_id: created.data.id });
    const location = started.headers.get('location') ?? '';
    expect(location).toMatch(/^http:\/\/streams\.test\/stream\/\w{48}$/);
    // The same path on the API's host is not a stream.
    expect((await call(location.replace('http://streams.test', SIM_ORIGIN))).status).toBe(404);
    const streamed = await call(location);
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    expect(await streamed.text()).toContain('data: [END]');
  });

  it('counts content in characters: 2000 emoji pass, 2001 do not', async () => {
    const { api, conversation } = setupSimulator({ defaults: { delayMs: 0 } });
    const id = await conversation();
    expect(
      (await api('POST', '/messages', { content: '😀'.repeat(FIELDS.contentMax), conversation_id: id })).status,
    ).toBe(200);
    const over = await api('POST', '/messages', { content: '😀'.repeat(FIELDS.contentMax + 1), conversation_id: id });
    expect(over.body).toEqual({
      message: fieldMessage('max', 'content', FIELDS.contentMax),
      errors: { content: [fieldMessage('max', 'content', FIELDS.contentMax)] },
    });
  });

  it('answers {data: {stream_url}} with redirect:false', async () => {
    const { api, conversation } = setupSimulator();
    const res = await api('POST', '/messages/stream', {
      content: 'hi',
      conversation_id: await conversation(),
      redirect: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { stream_url: expect.stringMatching(/^http:\/\/sim\.test\/stream\//) } });
  });

  it('cuts a stream after N chunks without [END], and may leave the reply unstored', async () => {
    const { api, conversation, readStream } = setupSimulator({
      replies: [{ text: 'abcdefghij', chunkSize: 2, delayMs: 0, cutAfter: 2, stored: false }],
    });
    const id = await conversation();
    const res = await api('POST', '/messages/stream', { content: 'q', conversation_id: id });
    const body = await readStream(res.headers.get('location') ?? '');
    expect(chunksOf(body)).toBe('abcd');
    expect(body).not.toContain('[END]');
    expect((await api('GET', `/messages?conversation_id=${id}`)).body?.data).toHaveLength(1);
  });

  it('matches scripted replies by text and consumes the others in order', async () => {
    const { api, conversation, readStream } = setupSimulator({
      replies: [
        { match: 'ping', text: 'PONG!', once: true },
        { match: 'PING', text: 'pong' },
        { text: 'first' },
        { text: 'second' },
      ],
      defaults: { delayMs: 0 },
    });
    const id = await conversation();
    const reply = async (content: string) =>
      chunksOf(
        await readStream(
          (await api('POST', '/messages/stream', { content, conversation_id: id })).headers.get('location') ?? '',
        ),
      );
    expect([
      await reply('a'),
      await reply('say ping'),
      await reply('b'),
      await reply('ping again'),
      await reply('ping'),
    ]).toEqual(['first', 'PONG!', 'second', 'pong', 'pong']);
    expect(await reply('Tell me about pricing plans')).toContain('Starter');
  });
});

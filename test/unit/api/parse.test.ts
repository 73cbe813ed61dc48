import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Parse from '../../../src/api/parse';

/**
 * The module afresh for each test: its id and grant patterns are built as it loads, and Stryker counts a mutant of
 * them only against the tests that load it.
 */
let parse: typeof Parse;
beforeEach(async () => {
  vi.resetModules();
  parse = await import('../../../src/api/parse');
});

const message = {
  id: 'msg000000001',
  content: 'Hello',
  conversation_id: 'conv00000001',
  machine: true,
  failed_responding: false,
  flagged: false,
  created_at: 1693013531,
};

/** A message the parser must keep. */
const kept = (value: unknown) => {
  const parsed = parse.parseMessage(value);
  if (!parsed) throw new Error('dropped');
  return parsed;
};

describe('parseMessage', () => {
  it('keeps what the widget reads, with flags defaulting to false and sources to an empty list', () => {
    expect(parse.parseMessage({ ...message, extra: { any: 'thing' } })).toEqual({
      id: 'msg000000001',
      content: 'Hello',
      machine: true,
      failed_responding: false,
      flagged: false,
      created_at: 1693013531,
      sources: [],
    });
    const bare = kept({ id: 'x', machine: false, created_at: 1 });
    expect([bare.content, bare.failed_responding, bare.flagged, bare.sources]).toEqual(['', false, false, []]);
  });

  it.each([
    ['a string', 'msg'],
    ['null', null],
    ['an array', [message]],
    ['no id', { ...message, id: undefined }],
    ['an empty id', { ...message, id: '' }],
    ['no author', { ...message, machine: undefined }],
    ['an author as text', { ...message, machine: 'true' }],
    ['no time', { ...message, created_at: undefined }],
    ['a time as text', { ...message, created_at: '1693013531' }],
    ['an infinite time', { ...message, created_at: Number.POSITIVE_INFINITY }],
    ['a NaN time', { ...message, created_at: Number.NaN }],
    ['an id object whose toString is null', { ...message, id: { toString: null } }],
    ['an id object that looks like a string', { ...message, id: { valueOf: () => 'x', toString: () => 'x' } }],
    ['an id array', { ...message, id: ['msg000000001'] }],
    ['an id of 65 characters', { ...message, id: 'x'.repeat(65) }],
    ['an id with a space', { ...message, id: 'msg 1' }],
    ['an id with a line break', { ...message, id: 'msg\n1' }],
    ['a fractional id', { ...message, id: 1.5 }],
    ['an unsafe integer id', { ...message, id: 2 ** 60 }],
    ['an author object', { ...message, machine: { valueOf: () => true } }],
    ['a time object', { ...message, created_at: { valueOf: () => 1 } }],
    ['a null-prototype record without fields', Object.create(null)],
    ['a Symbol', Symbol('m')],
    ['a function', () => message],
  ])('drops a message with %s', (_, value) => {
    expect(parse.parseMessage(value)).toBeUndefined();
  });

  it.each([
    ['a safe integer id', { ...message, id: 42 }, '42'],
    ['a 64-character id', { ...message, id: 'x'.repeat(64) }, 'x'.repeat(64)],
    ['a null-prototype record', Object.assign(Object.create(null), message), 'msg000000001'],
  ])('keeps a message with %s, its id a string', (_, value, id) => {
    expect(kept(value).id).toBe(id);
  });

  it.each([
    ['a number', 42, ''],
    ['null', null, ''],
    ['an object', { text: 'x' }, ''],
    ['an object whose toString is null', { toString: null }, ''],
    ['a list', ['x'], ''],
    ['true', true, ''],
  ])('reads content that is %s as empty', (_, content, expected) => {
    expect(kept({ ...message, content }).content).toBe(expected);
  });

  it('reads the flags given as true', () => {
    const parsed = kept({ ...message, failed_responding: true, flagged: true });
    expect([parsed.failed_responding, parsed.flagged]).toEqual([true, true]);
    expect(kept({ ...message, flagged: true }).failed_responding).toBe(false);
  });

  it.each([
    ['"true"', 'true'],
    ['1', 1],
    ['an object', {}],
    ['an object whose toString is null', { toString: null }],
  ])('reads a flag given as %s as false: only true is true', (_, flag) => {
    const parsed = kept({ ...message, failed_responding: flag, flagged: flag });
    expect([parsed.failed_responding, parsed.flagged]).toEqual([false, false]);
  });

  it('reads sources given as a list, as one object, or not at all; drops entries that are not objects', () => {
    const source = {
      type: 'written',
      document_id: 'Jw31Pv6PMmro',
      document_name: 'Cake',
      document_url: 'https://d.test/1',
    };
    const expected = { document_id: 'Jw31Pv6PMmro', document_name: 'Cake', document_url: 'https://d.test/1' };
    expect(kept({ ...message, sources: { data: [source] } }).sources).toEqual([expected]);
    expect(kept({ ...message, sources: { data: source } }).sources).toEqual([expected]);
    for (const sources of [null, undefined, 'x', [source], { data: null }, { data: 'x' }])
      expect(kept({ ...message, sources }).sources).toEqual([]);
    expect(kept({ ...message, sources: { data: [null, 'x', 3, [source], source] } }).sources).toEqual([expected]);
  });

  it('keeps only string fields of a source', () => {
    const sources = {
      data: [
        { document_id: 7, document_name: { x: 1 }, document_url: ['https://d.test'] },
        { document_id: { toString: null }, document_name: null, document_url: { href: 'https://d.test' } },
      ],
    };
    expect(kept({ ...message, sources }).sources).toEqual([
      { document_id: undefined, document_name: undefined, document_url: undefined },
      { document_id: undefined, document_name: undefined, document_url: undefined },
    ]);
  });

  it('reads own fields only: a polluted Object.prototype cannot supply a missing one', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.machine = true;
    proto.created_at = 1;
    proto.chunk = 'injected';
    try {
      expect(parse.parseMessage({ id: 'x' })).toBeUndefined();
      expect(parse.parseChunk({})).toBeUndefined();
    } finally {
      delete proto.machine;
      delete proto.created_at;
      delete proto.chunk;
    }
    expect(parse.parseMessage(JSON.parse('{"__proto__":{"machine":true},"id":"x","created_at":1}'))).toBeUndefined();
  });
});

describe('parseMessagePage', () => {
  it('reads the messages and the pagination', () => {
    const page = parse.parseMessagePage({
      data: [message],
      meta: { pagination: { count: 1, total: 60, per_page: 50, total_pages: 2, next_page: 2 } },
    });
    expect(page).toEqual({
      messages: [expect.objectContaining({ id: 'msg000000001' })],
      dropped: 0,
      totalPages: 2,
      nextPage: 2,
    });
  });

  it.each([
    ['no meta', {}],
    ['no pagination', { meta: {} }],
    ['pages as text', { meta: { pagination: { total_pages: '3', next_page: '2' } } }],
    ['zero and negative pages', { meta: { pagination: { total_pages: 0, next_page: -1 } } }],
    ['fractional pages', { meta: { pagination: { total_pages: 2.5, next_page: 1.5 } } }],
    ['huge pages', { meta: { pagination: { total_pages: 2 ** 60, next_page: Number.MAX_VALUE } } }],
    ['a null next page', { meta: { pagination: { total_pages: 1, next_page: null } } }],
  ])('reads %s as one page with no next', (_, extra) => {
    expect(parse.parseMessagePage({ data: [], ...extra })).toEqual({
      messages: [],
      dropped: 0,
      totalPages: 1,
      nextPage: undefined,
    });
  });

  it.each([
    ['null', null],
    ['a list', [message]],
    ['no data', { meta: {} }],
    ['data as an object', { data: message }],
    ['data as text', { data: '[]' }],
    ['data whose toString is null', { data: { toString: null } }],
    ['a null-prototype body', Object.create(null)],
  ])('refuses %s', (_, body) => {
    expect(() => parse.parseMessagePage(body)).toThrow(
      expect.objectContaining({ kind: 'http', message: 'The proxy sent a message list without its data' }),
    );
  });

  it('drops the malformed records among good ones, counting them, and keeps the rest in order', () => {
    const second = { ...message, id: 'msg000000002', content: 'Second' };
    const hostile = [
      null,
      'msg',
      42,
      [message],
      { id: 'y' },
      { ...message, id: { toString: null } },
      { ...message, machine: 'false' },
      { ...message, created_at: null },
    ];
    const page = parse.parseMessagePage({ data: [message, ...hostile, second] });
    expect(page.messages.map((m) => m.content)).toEqual(['Hello', 'Second']);
    expect(page.dropped).toBe(hostile.length);
  });
});

describe('parseCreatedConversation', () => {
  it('reads the id and the grant', () => {
    expect(parse.parseCreatedConversation({ data: { id: 'c1', name: 'x' }, meta: { grant: 'g1.c1' } })).toEqual({
      id: 'c1',
      grant: 'g1.c1',
    });
  });

  it.each([
    ['no grant', { data: { id: 'c1' } }],
    ['an empty grant', { data: { id: 'c1' }, meta: { grant: '' } }],
    ['a numeric grant', { data: { id: 'c1' }, meta: { grant: 1 } }],
    ['no id', { data: {}, meta: { grant: 'g' } }],
    ['an empty id', { data: { id: '' }, meta: { grant: 'g' } }],
    ['null', null],
    ['an id whose toString is null', { data: { id: { toString: null } }, meta: { grant: 'g' } }],
    ['a grant whose toString is null', { data: { id: 'c1' }, meta: { grant: { toString: null } } }],
    ['an id that leaves its path', { data: { id: '../x' }, meta: { grant: 'g' } }],
    ['an id of 65 characters', { data: { id: 'c'.repeat(65) }, meta: { grant: 'g' } }],
    ['a grant with a line break (an invalid header)', { data: { id: 'c1' }, meta: { grant: 'g1\r\nx: y' } }],
    ['a grant with a space', { data: { id: 'c1' }, meta: { grant: 'g1 x' } }],
    ['a grant of 4,097 characters', { data: { id: 'c1' }, meta: { grant: 'g'.repeat(4097) } }],
    ['data as a list', { data: [{ id: 'c1' }], meta: { grant: 'g' } }],
  ])('refuses an answer with %s', (_, body) => {
    expect(() => parse.parseCreatedConversation(body)).toThrow(
      expect.objectContaining({ kind: 'http', message: 'The proxy sent no grant for the new conversation' }),
    );
  });
});

describe('parseConversationRef', () => {
  it('reads a stored {id, grant}', () => {
    expect(parse.parseConversationRef({ id: 'conv0000000a', grant: 'g1.x' })).toEqual({
      id: 'conv0000000a',
      grant: 'g1.x',
    });
  });

  it.each([
    ['null', null],
    ['a bare id', 'conv0000000a'],
    ['a list', [{ id: 'c1', grant: 'g' }]],
    ['an id whose toString is null', { id: { toString: null }, grant: 'g' }],
    ['a grant whose toString is null', { id: 'c1', grant: { toString: null } }],
    ['a numeric id', { id: 1, grant: 'g' }],
    ['an id with a slash', { id: 'a/b', grant: 'g' }],
    ['a grant with a control character', { id: 'c1', grant: 'g\u0000' }],
    ['a grant with a non-ASCII character', { id: 'c1', grant: 'gé' }],
    ['a null-prototype record', Object.create(null)],
  ])('refuses %s', (_, value) => {
    expect(parse.parseConversationRef(value)).toBeUndefined();
  });
});

describe('parseConversationList', () => {
  const entry = {
    id: 'conv0000000a',
    grant: 'g1.a',
    name: 'Delivery',
    bot_id: 'b',
    created_at: '2026-11-22T12:00:00Z',
  };

  it('reads each conversation with its grant, name and time, dropping the unusable ones', () => {
    const list = parse.parseConversationList({
      data: [
        entry,
        { ...entry, id: 'conv0000000b', name: 42 },
        { ...entry, id: 'conv0000000c', name: 'n'.repeat(300) },
        { ...entry, grant: '' },
        { ...entry, created_at: 'yesterday' },
        { ...entry, created_at: undefined },
        null,
      ],
    });
    expect(list).toEqual([
      { id: 'conv0000000a', grant: 'g1.a', name: 'Delivery', createdAt: Date.parse('2026-11-22T12:00:00Z') },
      { id: 'conv0000000b', grant: 'g1.a', name: '', createdAt: Date.parse('2026-11-22T12:00:00Z') },
      { id: 'conv0000000c', grant: 'g1.a', name: 'n'.repeat(200), createdAt: Date.parse('2026-11-22T12:00:00Z') },
    ]);
  });

  it.each([null, {}, { data: entry }, [entry]])('refuses %j', (body) => {
    expect(() => parse.parseConversationList(body)).toThrow(
      expect.objectContaining({ kind: 'http', message: 'The proxy sent a conversation list without its data' }),
    );
  });
});

describe('the receipts of a deletion and of feedback', () => {
  it('takes {data: true} as a deletion, and nothing else', () => {
    expect(() => parse.parseDeleted({ data: true })).not.toThrow();
    for (const body of [{ data: 'true' }, { data: 1 }, {}, null, true])
      expect(() => parse.parseDeleted(body)).toThrow(
        expect.objectContaining({ kind: 'http', message: 'The proxy sent no confirmation of the deletion' }),
      );
  });

  it('takes feedback as received only when the receipt names the rated reply', () => {
    expect(() => parse.parseFeedbackTaken({ data: { message_id: 'm1', rating: 'up' } }, 'm1')).not.toThrow();
    for (const body of [{ data: { message_id: 'm2' } }, { data: {} }, { message_id: 'm1' }, null])
      expect(() => parse.parseFeedbackTaken(body, 'm1')).toThrow(
        expect.objectContaining({ kind: 'http', message: 'The proxy sent no receipt for the feedback' }),
      );
  });
});

describe('parseErrorBody', () => {
  it('reads the message and the fields a 422 names', () => {
    expect(
      parse.parseErrorBody({ message: 'Invalid', errors: { content: ['Too long'], conversation_id: ['x'] } }),
    ).toEqual({
      detail: 'Invalid',
      fields: ['content', 'conversation_id'],
    });
  });

  it.each([
    undefined,
    null,
    'text',
    [],
    42,
    { message: 42, errors: ['content'] },
    { errors: 'content' },
    { message: { toString: null }, errors: null },
    { message: ['Invalid'], errors: [['content']] },
    Object.create(null),
  ])('reads %j as nothing', (body) => {
    expect(parse.parseErrorBody(body)).toEqual({ detail: undefined, fields: [] });
  });

  it('cuts a runaway message to 500 characters', () => {
    expect(parse.parseErrorBody({ message: 'x'.repeat(100_000) }).detail).toHaveLength(500);
  });
});

describe('parseChunk', () => {
  it('reads a chunk string and nothing else', () => {
    expect(parse.parseChunk({ chunk: 'Hi' })).toBe('Hi');
    expect(parse.parseChunk({ chunk: '' })).toBe('');
    for (const value of [
      null,
      'x',
      1,
      { chunk: 1 },
      { chunk: null },
      { other: 'x' },
      ['x'],
      { chunk: { toString: null } },
      { chunk: ['x'] },
      Object.create(null),
    ])
      expect(parse.parseChunk(value)).toBeUndefined();
  });
});

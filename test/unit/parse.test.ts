import { describe, expect, it } from 'vitest';
import {
  parseChunk,
  parseCreatedConversation,
  parseErrorBody,
  parseMessage,
  parseMessagePage,
} from '../../src/api/parse';

const message = {
  id: 'msg000000001',
  content: 'Hello',
  conversation_id: 'conv00000001',
  machine: true,
  failed_responding: false,
  flagged: false,
  created_at: 1693013531,
};

describe('parseMessage', () => {
  it('keeps what the widget reads, with flags defaulting to false and sources to an empty list', () => {
    expect(parseMessage({ ...message, extra: { any: 'thing' } })).toEqual({
      id: 'msg000000001',
      content: 'Hello',
      machine: true,
      failed_responding: false,
      flagged: false,
      created_at: 1693013531,
      sources: [],
    });
    const bare = parseMessage({ id: 'x', machine: false, created_at: 1 });
    expect([bare.content, bare.failed_responding, bare.flagged, bare.sources]).toEqual(['', false, false, []]);
  });

  it.each([
    ['a string', 'msg'],
    ['null', null],
    ['an array', [message]],
    ['no id', { ...message, id: undefined }],
    ['an empty id', { ...message, id: '' }],
    ['a numeric id', { ...message, id: 42 }],
    ['no author', { ...message, machine: undefined }],
    ['an author as text', { ...message, machine: 'true' }],
    ['no time', { ...message, created_at: undefined }],
    ['a time as text', { ...message, created_at: '1693013531' }],
    ['an infinite time', { ...message, created_at: Number.POSITIVE_INFINITY }],
    ['a NaN time', { ...message, created_at: Number.NaN }],
  ])('refuses a message with %s', (_, value) => {
    expect(() => parseMessage(value)).toThrow(expect.objectContaining({ kind: 'http' }));
  });

  it.each([
    ['a number', 42, ''],
    ['null', null, ''],
    ['an object', { text: 'x' }, ''],
  ])('reads content that is %s as empty', (_, content, expected) => {
    expect(parseMessage({ ...message, content }).content).toBe(expected);
  });

  it.each([
    ['"true"', 'true'],
    ['1', 1],
    ['an object', {}],
  ])('reads a flag given as %s as false: only true is true', (_, flag) => {
    const parsed = parseMessage({ ...message, failed_responding: flag, flagged: flag });
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
    expect(parseMessage({ ...message, sources: { data: [source] } }).sources).toEqual([expected]);
    expect(parseMessage({ ...message, sources: { data: source } }).sources).toEqual([expected]);
    for (const sources of [null, undefined, 'x', [source], { data: null }, { data: 'x' }])
      expect(parseMessage({ ...message, sources }).sources).toEqual([]);
    expect(parseMessage({ ...message, sources: { data: [null, 'x', 3, [source], source] } }).sources).toEqual([
      expected,
    ]);
  });

  it('keeps only string fields of a source', () => {
    const sources = { data: [{ document_id: 7, document_name: { x: 1 }, document_url: ['https://d.test'] }] };
    expect(parseMessage({ ...message, sources }).sources).toEqual([
      { document_id: undefined, document_name: undefined, document_url: undefined },
    ]);
  });

  it('reads own fields only: a polluted Object.prototype cannot supply a missing one', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.machine = true;
    proto.created_at = 1;
    proto.chunk = 'injected';
    try {
      expect(() => parseMessage({ id: 'x' })).toThrow(expect.objectContaining({ kind: 'http' }));
      expect(parseChunk({})).toBeUndefined();
    } finally {
      delete proto.machine;
      delete proto.created_at;
      delete proto.chunk;
    }
    expect(() => parseMessage(JSON.parse('{"__proto__":{"machine":true},"id":"x","created_at":1}'))).toThrow();
  });
});

describe('parseMessagePage', () => {
  it('reads the messages and the pagination', () => {
    const page = parseMessagePage({
      data: [message],
      meta: { pagination: { count: 1, total: 60, per_page: 50, total_pages: 2, next_page: 2 } },
    });
    expect(page).toEqual({ messages: [expect.objectContaining({ id: 'msg000000001' })], totalPages: 2, nextPage: 2 });
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
    expect(parseMessagePage({ data: [], ...extra })).toEqual({ messages: [], totalPages: 1, nextPage: undefined });
  });

  it.each([
    ['null', null],
    ['a list', [message]],
    ['no data', { meta: {} }],
    ['data as an object', { data: message }],
    ['one bad message among good ones', { data: [message, { id: 'y' }] }],
  ])('refuses %s', (_, body) => {
    expect(() => parseMessagePage(body)).toThrow(expect.objectContaining({ kind: 'http' }));
  });
});

describe('parseCreatedConversation', () => {
  it('reads the id and the grant', () => {
    expect(parseCreatedConversation({ data: { id: 'c1', name: 'x' }, meta: { grant: 'g1.c1' } })).toEqual({
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
  ])('refuses an answer with %s', (_, body) => {
    expect(() => parseCreatedConversation(body)).toThrow(expect.objectContaining({ kind: 'http' }));
  });
});

describe('parseErrorBody', () => {
  it('reads the message and the fields a 422 names', () => {
    expect(parseErrorBody({ message: 'Invalid', errors: { content: ['Too long'], conversation_id: ['x'] } })).toEqual({
      detail: 'Invalid',
      fields: ['content', 'conversation_id'],
    });
  });

  it.each([undefined, null, 'text', [], { message: 42, errors: ['content'] }, { errors: 'content' }])(
    'reads %j as nothing',
    (body) => {
      expect(parseErrorBody(body)).toEqual({ detail: undefined, fields: [] });
    },
  );
});

describe('parseChunk', () => {
  it('reads a chunk string and nothing else', () => {
    expect(parseChunk({ chunk: 'Hi' })).toBe('Hi');
    expect(parseChunk({ chunk: '' })).toBe('');
    for (const value of [null, 'x', { chunk: 1 }, { chunk: null }, { other: 'x' }, ['x']])
      expect(parseChunk(value)).toBeUndefined();
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Identity from '../../../src/config/identity';
import type * as Parse from '../../../src/config/parse';
import { IDENTITY } from '../../../src/protocol/contract';

// Imported afresh for each test: the patterns are built when the modules load, and a runner that keeps modules
// loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once per file,
// so that Stryker counts the load towards the test that checks it.
let identity: typeof Identity;
let parse: typeof Parse;
beforeEach(async () => {
  vi.resetModules();
  identity = await import('../../../src/config/identity');
  parse = await import('../../../src/config/parse');
});

const HASH = 'a'.repeat(64);
const minimal = { botId: 'bot000000001', proxyUrl: '/askbox' };

/** Pairs the widget refuses, each one step from a valid one. */
const REFUSED: [title: string, value: unknown][] = [
  ['no hash (half a pair)', { id: 'alice' }],
  ['no id (half a pair)', { hash: HASH }],
  ['an empty id', { id: '', hash: HASH }],
  ['an id with a space', { id: 'ali ce', hash: HASH }],
  ['an id with a bad character before valid ones', { id: '<alice', hash: HASH }],
  ['an id with a bad character after valid ones', { id: 'alice>', hash: HASH }],
  ['an id of bad characters only', { id: '<>', hash: HASH }],
  ['an id with a line break (header injection)', { id: 'alice\r\nx-evil: 1', hash: HASH }],
  ['an id of 129 characters', { id: 'a'.repeat(129), hash: HASH }],
  ['an id that is a number', { id: 42, hash: HASH }],
  ['a hash of 63 digits', { id: 'alice', hash: 'a'.repeat(63) }],
  ['a hash of 65 digits', { id: 'alice', hash: 'a'.repeat(65) }],
  ['an uppercase hash', { id: 'alice', hash: 'A'.repeat(64) }],
  ['a hash that is not hex', { id: 'alice', hash: 'g'.repeat(64) }],
  ['a hash with junk before it', { id: 'alice', hash: `x${HASH}` }],
  ['a hash with junk after it', { id: 'alice', hash: `${HASH}x` }],
  ['a hash of one digit', { id: 'alice', hash: 'a' }],
  ['a function carrying both', Object.assign(() => undefined, { id: 'alice', hash: HASH })],
  ['nothing', undefined],
  ['a string', 'alice'],
];

describe('parseIdentity: the contract’s patterns', () => {
  it('takes a valid pair, the id at its bounds and with every allowed punctuation', () => {
    for (const id of ['a', 'a'.repeat(128), 'Jane.Doe_1@example.com:+=-'])
      expect(identity.parseIdentity({ id, hash: HASH })).toEqual({ id, hash: HASH });
    const hash = '0123456789abcdef'.repeat(4);
    expect(identity.parseIdentity({ id: 'a', hash })).toEqual({ id: 'a', hash });
  });

  it.each(REFUSED)('refuses %s', (_, value) => {
    expect(identity.parseIdentity(value)).toBeUndefined();
  });

  it('reads own keys only: a polluted Object.prototype signs no one in', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.id = 'mallory';
    proto.hash = HASH;
    try {
      expect(identity.parseIdentity({})).toBeUndefined();
    } finally {
      delete proto.id;
      delete proto.hash;
    }
  });

  it('holds the contract’s patterns, to the letter', () => {
    const { USER_HASH, USER_ID } = identity;
    expect([USER_ID.source, USER_ID.flags]).toEqual([IDENTITY.userIdPattern, '']);
    expect([USER_HASH.source, USER_HASH.flags]).toEqual([IDENTITY.hashPattern, '']);
  });

  it('tells the site owner, in the console error, what each half must be: the contract’s patterns in words', () => {
    const [, chars, max] = /^\^\[(.+)\]\{1,(\d+)\}\$$/.exec(IDENTITY.userIdPattern) ?? [];
    const [, digits] = /^\^\[0-9a-f\]\{(\d+)\}\$$/.exec(IDENTITY.hashPattern) ?? [];
    expect(identity.IDENTITY_RULE).toBe(
      `must both be given: the id as 1 to ${max} letters, digits or "${chars?.replace('A-Za-z0-9', '')}", ` +
        `the hash as ${digits} lowercase hex digits`,
    );
  });

  it('tells the same person, signed alike, from another', () => {
    expect(identity.sameIdentity(undefined, undefined)).toBe(true);
    expect(identity.sameIdentity({ id: 'a', hash: HASH }, { id: 'a', hash: HASH })).toBe(true);
    expect(identity.sameIdentity({ id: 'a', hash: HASH }, { id: 'b', hash: HASH })).toBe(false);
    expect(identity.sameIdentity({ id: 'a', hash: HASH }, { id: 'a', hash: 'b'.repeat(64) })).toBe(false);
    expect(identity.sameIdentity({ id: 'a', hash: HASH }, undefined)).toBe(false);
  });
});

describe('config: the signed-in visitor', () => {
  it.each(['parseConfig', 'parseLauncherConfig'] as const)('reads data-user-id and data-user-hash (%s)', (name) => {
    const parsed = parse[name]({ ...minimal, userId: 'alice', userHash: HASH });
    expect(parsed.config?.user).toEqual({ id: 'alice', hash: HASH });
    expect(parsed.userRefused).toBeUndefined();
    // The two attributes are settings, not typos.
    expect(parsed.unknown).toEqual([]);
  });

  it('reads mount()’s user: {id, hash}', () => {
    expect(parse.parseConfig({ ...minimal, user: { id: 'bob', hash: HASH } }).config?.user).toEqual({
      id: 'bob',
      hash: HASH,
    });
  });

  it('is anonymous without either', () => {
    const parsed = parse.parseConfig(minimal);
    expect(parsed.config?.user).toBeUndefined();
    expect(parsed.userRefused).toBeUndefined();
  });

  it.each([
    ['half a pair', { userId: 'alice' }],
    ['the other half', { userHash: HASH }],
    ['a malformed hash', { userId: 'alice', userHash: 'nope' }],
    ['a malformed id', { userId: 'al ice', userHash: HASH }],
    ['a malformed user', { user: { id: 'alice' } }],
  ])('mounts anonymous, the pair refused, with %s', (_, input) => {
    const parsed = parse.parseLauncherConfig({ ...minimal, ...input });
    expect(parsed.issues).toBeUndefined();
    expect(parsed.config?.user).toBeUndefined();
    expect(parsed.userRefused).toBe(true);
  });
});

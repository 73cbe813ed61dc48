import { describe, expect, it } from 'vitest';
import { createSession } from '../../../src/state/session';
import { createMemoryStorage } from '../../helpers/memory-storage';

const KEY = 'conversation:bot@/askbox';
const ref = { id: 'conv0000000a', grant: 'grant-a' };

function setup(stored?: string) {
  const memory = createMemoryStorage();
  if (stored !== undefined) memory.set(KEY, stored);
  const reads: string[] = [];
  const storage = { ...memory, get: (key: string) => (reads.push(key), memory.get(key)) };
  return { session: createSession(storage, KEY), memory, reads };
}

describe('session', () => {
  it('reads the stored conversation once, and keeps a valid one in storage', () => {
    const { session, memory, reads } = setup(JSON.stringify(ref));
    expect(session.current()).toEqual(ref);
    expect(memory.get(KEY)).toBe(JSON.stringify(ref));
    memory.set(KEY, JSON.stringify({ id: 'conv0000000b', grant: 'grant-b' }));
    expect(session.current()).toEqual(ref);
    expect(reads).toEqual([KEY]);
    expect(session.lastGrant()).toBe('grant-a');
  });

  it.each([
    ['a bare id', 'conv0000000a'],
    ['no grant', JSON.stringify({ id: 'conv0000000a' })],
    ['an empty grant', JSON.stringify({ id: 'conv0000000a', grant: '' })],
    ['a path in the id', JSON.stringify({ id: 'conv0000000a/../bots', grant: 'g' })],
    ['an id too long', JSON.stringify({ id: 'a'.repeat(65), grant: 'g' })],
    ['a number', '42'],
    ['null', 'null'],
    ['broken JSON', '{oops'],
  ])('drops %s, from memory and from storage', (_, stored) => {
    const { session, memory } = setup(stored);
    expect(session.current()).toBeUndefined();
    expect(memory.get(KEY)).toBeUndefined();
    expect(session.lastGrant()).toBeUndefined();
  });

  it('saves a created conversation without reading storage, and forgets it without reading another tab’s', () => {
    const { session, memory, reads } = setup();
    session.save(ref);
    expect([session.current(), memory.get(KEY), reads]).toEqual([ref, JSON.stringify(ref), []]);
    session.forget();
    memory.set(KEY, JSON.stringify({ id: 'conv0000000b', grant: 'grant-b' }));
    expect([session.current(), reads]).toEqual([undefined, []]);
    expect(session.lastGrant()).toBe('grant-a');
  });

  it('forgets without reading storage first, and removes what was there', () => {
    const { session, memory, reads } = setup(JSON.stringify(ref));
    session.forget();
    expect([session.current(), memory.get(KEY), reads]).toEqual([undefined, undefined, []]);
  });
});

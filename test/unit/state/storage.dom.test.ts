import { describe, expect, it } from 'vitest';
import { createStorage } from '../../../src/state/storage';

describe('createStorage', () => {
  it('namespaces keys in the given Storage', () => {
    const store = createStorage(() => localStorage, 'askbox:v1:');
    store.set('a', '1');
    expect(localStorage.getItem('askbox:v1:a')).toBe('1');
    expect(store.get('a')).toBe('1');
    store.remove('a');
    expect(store.get('a')).toBeUndefined();
  });

  it('reads as empty and never throws when storage is blocked, missing or full', () => {
    const throwing = {
      getItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('nope');
      },
    } as unknown as Storage;
    for (const getStorage of [
      () => throwing,
      () => undefined,
      () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    ]) {
      const store = createStorage(getStorage, 'x:');
      expect(() => store.set('k', 'v')).not.toThrow();
      expect(store.get('k')).toBeUndefined();
      expect(() => store.remove('k')).not.toThrow();
    }
  });
});

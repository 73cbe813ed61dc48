import type { KeyValueStore } from '../../src/state/storage';

/** A store held in memory for the life of a test: what the widget reads and writes, without a browser. */
export function createMemoryStorage(): KeyValueStore {
  const map = new Map<string, string>();
  return {
    get: (key) => map.get(key),
    set: (key, value) => void map.set(key, value),
    remove: (key) => void map.delete(key),
  };
}

/** A tiny key/value store that never throws: private mode, blocked storage and full quotas all read as "nothing". */
export interface KeyValueStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  remove(key: string): void;
}

/**
 * Wraps a Web Storage behind a namespace. `getStorage` is called lazily, on each access, because merely touching
 * `window.localStorage` throws a SecurityError where storage is blocked — and the widget must not touch storage
 * before the visitor engages.
 */
export function createStorage(getStorage: () => Storage | undefined, namespace: string): KeyValueStore {
  const attempt = <T>(fn: (storage: Storage) => T): T | undefined => {
    try {
      const storage = getStorage();
      return storage ? fn(storage) : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    get: (key) => attempt((s) => s.getItem(namespace + key)) ?? undefined,
    set: (key, value) => void attempt((s) => s.setItem(namespace + key, value)),
    remove: (key) => void attempt((s) => s.removeItem(namespace + key)),
  };
}

/** A stored value read as JSON; undefined for none, or for what is not JSON (another script garbled it). */
export function parseJson(raw: string | undefined): unknown {
  try {
    return JSON.parse(raw ?? '');
  } catch {
    return undefined;
  }
}

/**
 * Stores `value` as JSON under `key`. A page's patched `toJSON` (Prototype.js puts one on every array, and a broken
 * one recurses until the stack overflows) makes it nothing stored, never a send that throws.
 */
export function storeJson(storage: KeyValueStore, key: string, value: unknown): void {
  try {
    storage.set(key, JSON.stringify(value));
  } catch {
    // Not stored: the page's JSON is not ours to fix, and the value stays in memory.
  }
}

/**
 * A store held in memory for the life of one chat: a signed-in person's conversation and ratings go here, so that
 * nothing about them is written to the browser's storage (their list lives at the proxy).
 */
export function createMemoryStore(): KeyValueStore {
  const values = new Map<string, string>();
  return {
    get: (key) => values.get(key),
    set: (key, value) => void values.set(key, value),
    remove: (key) => void values.delete(key),
  };
}

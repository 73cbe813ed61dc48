import type { DurableObjectNamespaceLike, DurableObjectStateLike } from '../../src/proxy/stores/durable-object';

/**
 * A namespace binding whose every object is `object`, as the Workers runtime would route to it; `names` lists the
 * names it was asked for.
 */
export function namespaceOf(object: { fetch(request: Request): Promise<Response> }) {
  const names: unknown[] = [];
  const namespace: DurableObjectNamespaceLike = {
    idFromName: (name) => (names.push(name), `id:${name}`),
    get: () => ({ fetch: (input, init) => object.fetch(new Request(input, init)) }),
  };
  return { namespace, names };
}

/** The most keys one `delete` of a Durable Object's storage takes. */
const DELETE_MAX = 128;

/**
 * A Durable Object's storage as the runtime keeps it: values copied in and out (structured clone), keys listed in
 * order (the calls counted), deletes of at most 128 keys, one alarm; `ring` runs the object's alarm as the runtime
 * does (cleared first).
 */
export function durableState() {
  const map = new Map<string, unknown>();
  let alarm: number | null = null;
  let lists = 0;
  const drop = async (keys: string | string[]) => {
    if (typeof keys === 'string') return map.delete(keys);
    if (keys.length > DELETE_MAX) throw new Error(`delete takes at most ${DELETE_MAX} keys`);
    return keys.filter((key) => map.delete(key)).length;
  };
  const storage: DurableObjectStateLike['storage'] = {
    get: async (key) => structuredClone(map.get(key)),
    put: async (key, value) => void map.set(key, structuredClone(value)),
    delete: drop as DurableObjectStateLike['storage']['delete'],
    list: async ({ prefix, limit, startAfter }) => {
      lists++;
      return new Map(
        [...map]
          .filter(([key]) => key.startsWith(prefix) && (startAfter === undefined || key > startAfter))
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .slice(0, limit)
          .map(([key, value]) => [key, structuredClone(value)]),
      );
    },
    getAlarm: async () => alarm,
    async setAlarm(time) {
      alarm = time;
    },
  };
  return {
    storage,
    keys: () => [...map.keys()].sort(),
    alarm: () => alarm,
    /** How many times `list` was called. */
    lists: () => lists,
    async ring(object: { alarm(): Promise<void> }) {
      alarm = null;
      await object.alarm();
    },
  };
}

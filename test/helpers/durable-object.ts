import type { DurableObjectNamespaceLike } from '../../src/proxy/stores/durable-object';

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

import type { BucketCheck, LimitStore } from '../core/limits.js';
import { createMemoryStore } from './memory.js';

/**
 * Limits in a Cloudflare Durable Object: the store the Worker entry uses when `ASKBOX_LIMITS` is bound, so every
 * isolate, in every location, takes from the same buckets.
 */

/** The little of a Durable Object stub the store uses (no dependency on Cloudflare's type package). */
export interface DurableObjectStubLike {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

/** The little of a Durable Object namespace binding the store uses. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: unknown): DurableObjectStubLike;
}

/**
 * The name of the one object that holds every bucket. A take is all-or-nothing across its buckets (a request's IP
 * and visitor buckets), which only one object can guarantee; sharding by key would split those. One object serves
 * on the order of a thousand takes a second, far beyond a chat widget's traffic.
 */
export const LIMITS_OBJECT_NAME = 'askbox-limits';

/** Whether a binding looks like a Durable Object namespace (and not, say, a KV namespace bound by mistake). */
export function isDurableObjectNamespace(value: unknown): value is DurableObjectNamespaceLike {
  const binding = value as Partial<DurableObjectNamespaceLike> | null | undefined;
  return typeof binding?.idFromName === 'function' && typeof binding.get === 'function';
}

/** One question to the limits object: the path and body of the request, and the field of the answer wanted. */
interface Question {
  path: string;
  body: unknown;
  field: string;
  valid: (value: unknown) => boolean;
}

/**
 * A `LimitStore` kept in the `AskboxLimits` Durable Object of `namespace`, shared by every isolate of the Worker.
 * A failing object fails the take, so the proxy refuses the request rather than letting it through unlimited.
 * Every key is prefixed with `siteId`, so two Workers (two sites) bound to one namespace never share a bucket.
 *
 * @example
 * createProxy({ apiKey: env.CODY_API_KEY, botIds: ['yiu456ytyUjk'], store: createDurableObjectStore(env.ASKBOX_LIMITS, 'shop.example') });
 */
export function createDurableObjectStore(namespace: DurableObjectNamespaceLike, siteId = 'askbox'): LimitStore {
  const prefix = `${siteId}:`;
  /** One call to the object at `path`; its answer's `field`, which `valid` must accept. */
  async function ask({ path, body, field, valid }: Question) {
    // A stub belongs to the request that made it (Workers forbid I/O across requests): one per call.
    const stub = namespace.get(namespace.idFromName(LIMITS_OBJECT_NAME));
    const response = await stub.fetch(`https://askbox-limits/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = ((await response.json().catch(() => null)) ?? {}) as Record<string, unknown>;
    if (!response.ok || !valid(answer[field]))
      throw new Error(`Durable Object limit store: unexpected answer (${response.status})`);
    return answer[field];
  }
  return {
    async take(checks, now) {
      const keyed = checks.map((check) => ({ ...check, key: prefix + check.key }));
      return (await ask({ path: 'take', body: { checks: keyed, now }, field: 'wait', valid: isWait })) as number;
    },
    async claim(key, ttlMs, now) {
      const body = { key: prefix + key, ttlMs, now };
      return (await ask({ path: 'claim', body, field: 'claimed', valid: isBoolean })) as boolean;
    },
  };
}

const isWait = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isBoolean = (value: unknown) => typeof value === 'boolean';

/**
 * The Durable Object class behind `createDurableObjectStore`; bind it as `ASKBOX_LIMITS`. An object handles one
 * event at a time and a take does no I/O between reading and writing its buckets, so every take is atomic.
 * Buckets live in the object's memory, bounded as in `createMemoryStore`: when Cloudflare evicts an idle object
 * they start full again, which errs only on the lenient side and is fine for rate limits (no storage is written,
 * so the object costs no storage operations).
 */
export class AskboxLimits {
  private readonly store = createMemoryStore();

  /**
   * Answers `{"wait": ms}` to a POST to `/take` of `{"checks": BucketCheck[], "now": ms}`, and `{"claimed": bool}`
   * to a POST to `/claim` of `{"key", "ttlMs", "now"}`; 400 to anything else.
   */
  async fetch(request: Request): Promise<Response> {
    const body = (await request.json().catch(() => null)) as Record<string, unknown> | null;
    const { pathname } = new URL(request.url);
    const now = body?.now;
    if (request.method === 'POST' && typeof now === 'number' && Number.isFinite(now)) {
      const { checks, key, ttlMs } = body ?? {};
      if (pathname === '/take' && Array.isArray(checks) && checks.every(isCheck))
        return Response.json({ wait: await this.store.take(checks, now) });
      if (pathname === '/claim' && typeof key === 'string' && isWait(ttlMs))
        return Response.json({ claimed: await this.store.claim(key, ttlMs as number, now) });
    }
    return Response.json({ message: 'Bad take.' }, { status: 400 });
  }
}

function isCheck(value: unknown): value is BucketCheck {
  const check = value as Partial<BucketCheck> | null;
  return (
    typeof check?.key === 'string' &&
    typeof check.capacity === 'number' &&
    check.capacity > 0 &&
    typeof check.refillPerSecond === 'number' &&
    check.refillPerSecond > 0 &&
    Number.isFinite(check.capacity) &&
    Number.isFinite(check.refillPerSecond)
  );
}

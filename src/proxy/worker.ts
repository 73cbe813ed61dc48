import { createProxy, type ProxyHandler } from './handler';
import { createMemoryStore, takeFrom, type BucketCheck, type BucketState, type LimitStore } from './limits';
import type { ProxyOptions } from './options';

/**
 * The token proxy as a Cloudflare Worker (`askbox/proxy/worker`), configured from the Worker's environment, with
 * its limits in a Durable Object so that every isolate, everywhere, enforces one limit.
 */

/** The little of a Durable Object namespace the store uses (no dependency on Cloudflare's type package). */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/** The Worker's bindings: secrets and vars (`wrangler secret put`, `[vars]`) and the limits object. */
export interface AskboxWorkerEnv {
  CODY_API_KEY?: string;
  /** Comma-separated bot ids. */
  ASKBOX_BOT_IDS?: string;
  /** Comma-separated secrets: the first signs, all verify. */
  ASKBOX_SECRET?: string;
  ASKBOX_ALLOWED_ORIGINS?: string;
  ASKBOX_PUBLIC_URL?: string;
  ASKBOX_BASE_PATH?: string;
  ASKBOX_DOCUMENT_IDS?: string;
  CODY_API_URL?: string;
  /** JSON: any of `limits`, `timeouts`, `grantTtlSeconds`, `streamTtlSeconds`, `clientIp`. */
  ASKBOX_OPTIONS?: string;
  ASKBOX_LIMITS?: DurableObjectNamespaceLike;
}

/** The options a Worker may set through `ASKBOX_OPTIONS`. */
const JSON_OPTIONS = ['limits', 'timeouts', 'grantTtlSeconds', 'streamTtlSeconds', 'clientIp'] as const;
/** The one object that holds every bucket: all-or-nothing takes need all of a request's buckets in one place. */
const LIMITS_OBJECT = 'askbox-limits';

const list = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);

/** The proxy options from a Worker's environment; throws one clear Error when they are wrong. */
export function optionsFromEnv(env: AskboxWorkerEnv): ProxyOptions {
  let extra: Record<string, unknown> = {};
  if (env.ASKBOX_OPTIONS) {
    try {
      extra = JSON.parse(env.ASKBOX_OPTIONS) as Record<string, unknown>;
    } catch {
      throw new Error('ASKBOX_OPTIONS is not JSON');
    }
    const unknown = Object.keys(extra ?? {}).filter((key) => !(JSON_OPTIONS as readonly string[]).includes(key));
    if (!extra || typeof extra !== 'object' || Array.isArray(extra) || unknown.length) throw new Error(`ASKBOX_OPTIONS takes only ${JSON_OPTIONS.join(', ')}`);
  }
  const secret = list(env.ASKBOX_SECRET);
  return {
    apiKey: env.CODY_API_KEY ?? '',
    botIds: list(env.ASKBOX_BOT_IDS),
    ...(secret.length ? { secret } : {}),
    allowedOrigins: list(env.ASKBOX_ALLOWED_ORIGINS),
    documentIds: list(env.ASKBOX_DOCUMENT_IDS),
    ...(env.ASKBOX_PUBLIC_URL ? { publicUrl: env.ASKBOX_PUBLIC_URL } : {}),
    ...(env.ASKBOX_BASE_PATH ? { basePath: env.ASKBOX_BASE_PATH } : {}),
    ...(env.CODY_API_URL ? { upstream: env.CODY_API_URL } : {}),
    clientIp: { header: 'cf-connecting-ip' },
    store: env.ASKBOX_LIMITS ? createDurableObjectStore(env.ASKBOX_LIMITS) : createMemoryStore(),
    log: (entry) => entry.level !== 'info' && console.error(JSON.stringify(entry)),
    ...(extra as Partial<ProxyOptions>),
  };
}

/** A limit store in a Durable Object (the `AskboxLimits` class), shared by every isolate of the Worker. */
export function createDurableObjectStore(namespace: DurableObjectNamespaceLike): LimitStore {
  return {
    async take(checks, now) {
      // A stub belongs to the request that made it (Workers forbid I/O across requests): one per take.
      const stub = namespace.get(namespace.idFromName(LIMITS_OBJECT));
      const response = await stub.fetch('https://limits/take', { method: 'POST', body: JSON.stringify({ checks, now }) });
      const { wait } = ((await response.json().catch(() => null)) ?? {}) as { wait?: unknown };
      if (typeof wait !== 'number' || !Number.isFinite(wait) || wait < 0) throw new Error(`Durable Object limit store: unexpected answer (${response.status})`);
      return wait;
    },
  };
}

/** The most buckets one object keeps; beyond, the least recently used are forgotten (a forgotten bucket is full). */
const MAX_BUCKETS = 100_000;

/**
 * The Durable Object behind `createDurableObjectStore`. An object runs one request at a time, so a take over its
 * in-memory buckets is atomic. Buckets live in memory: when the object is evicted they start full again, which only
 * ever errs on the lenient side.
 */
export class AskboxLimits {
  private readonly states = new Map<string, BucketState>();

  async fetch(request: Request): Promise<Response> {
    const body = (await request.json().catch(() => null)) as { checks?: unknown; now?: unknown } | null;
    const checks = body?.checks;
    if (!Array.isArray(checks) || !checks.every(isCheck) || typeof body?.now !== 'number') return Response.json({ message: 'Bad take.' }, { status: 400 });
    const wait = takeFrom(this.states, checks, body.now);
    for (const key of this.states.keys()) {
      if (this.states.size <= MAX_BUCKETS) break;
      this.states.delete(key);
    }
    return Response.json({ wait });
  }
}

function isCheck(value: unknown): value is BucketCheck {
  const check = value as BucketCheck | null;
  return typeof check?.key === 'string' && typeof check.capacity === 'number' && check.capacity > 0 && typeof check.refillPerSecond === 'number' && check.refillPerSecond > 0;
}

let built: { handler: ProxyHandler } | { error: string } | undefined;

/** The proxy, built once per isolate (its environment does not change); a misconfiguration is kept, never thrown. */
function proxyFor(env: AskboxWorkerEnv) {
  if (!built) {
    try {
      built = { handler: createProxy(optionsFromEnv(env)) };
    } catch (error) {
      built = { error: error instanceof Error ? error.message : String(error) };
    }
  }
  return built;
}

/**
 * The Worker: `main` in wrangler.toml points here, and `AskboxLimits` is the Durable Object class to bind as
 * `ASKBOX_LIMITS`.
 */
// oxlint-disable-next-line import/no-default-export -- Cloudflare loads a module Worker from its default export
export default {
  async fetch(request: Request, env: AskboxWorkerEnv): Promise<Response> {
    const proxy = proxyFor(env);
    if ('handler' in proxy) return proxy.handler(request);
    // SECURITY: the reason goes to the Worker's log; the visitor learns only that the proxy is misconfigured.
    console.error(`[askbox] ${proxy.error}`);
    return Response.json({ message: 'The chat proxy is misconfigured.' }, { status: 503, headers: { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } });
  },
};

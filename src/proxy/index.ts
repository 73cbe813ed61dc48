/**
 * Askbox's token proxy: keeps the Cody API key on the server and exposes only what the widget needs.
 * Web standards only — runs on Node 20+, Cloudflare Workers, Deno and Bun. For `node:http`, see `./node`.
 */
export { createProxy, type ProxyHandler } from './handler.js';
export { createMemoryStore, type BucketCheck, type LimitStore } from './limits.js';
export {
  DEFAULT_LIMITS,
  DEFAULT_TIMEOUTS,
  type ClientIpSource,
  type LimitEvent,
  type Limits,
  type ProxyContext,
  type ProxyLogEntry,
  type ProxyOptions,
  type Rate,
  type Timeouts,
} from './options.js';
export { GRANT_HEADER } from './policy.js';
export type { ProofOfWorkOptions } from './proof.js';
export { createRedisStore, type RedisEval } from './redis-store.js';

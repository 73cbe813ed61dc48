/**
 * Askbox's token proxy: keeps the Cody API key on the server and exposes only what the widget needs.
 * Web standards only — runs on Node 20+, Cloudflare Workers, Deno and Bun. For `node:http`, see `./node`.
 */
export { createProxy, type ProxyHandler } from './core/proxy.js';
export { logToConsole } from './core/console-log.js';
export { identityHash } from './core/identity.js';
export type { BucketCheck, LimitStore } from './core/limits.js';
export { createMemoryPeopleStore, createMemoryStore } from './stores/memory.js';
export type { PeopleStore, PersonConversation, PersonEntry } from './core/people.js';
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
} from './core/options.js';
export { GRANT_HEADER } from './core/policy.js';
export type { ProofOfWorkOptions } from './core/proof.js';
export { createRedisPeopleStore, createRedisStore, type RedisEval } from './stores/redis.js';

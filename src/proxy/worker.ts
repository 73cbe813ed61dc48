/**
 * The proxy's Cloudflare Workers entry (`askbox/proxy/worker`): the Worker itself (the default export), the
 * `AskboxLimits` Durable Object its limits live in, and the pieces a site's own Worker entry may reuse. The adapter
 * lives in `adapters/workers/`; this file only names the public surface.
 */
// oxlint-disable-next-line import/no-default-export -- Cloudflare loads a module Worker from its default export
export { default } from './adapters/workers/worker.js';
export {
  AskboxLimits,
  createDurableObjectPeopleStore,
  createDurableObjectStore,
  type DurableObjectStateLike,
  type DurableObjectNamespaceLike,
  type DurableObjectStubLike,
} from './stores/durable-object.js';
export {
  optionsFromEnv,
  parseJsonOptions,
  siteIdFromEnv,
  type AskboxWorkerEnv,
  type JsonOptions,
} from './adapters/workers/worker-env.js';

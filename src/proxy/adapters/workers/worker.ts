import {
  createDurableObjectPeopleStore,
  createDurableObjectStore,
  isDurableObjectNamespace,
} from '../../stores/durable-object.js';
import { createProxy, type ProxyHandler } from '../../core/proxy.js';
import type { LimitStore } from '../../core/limits.js';
import type { PeopleStore } from '../../core/people.js';
import { createMemoryPeopleStore, createMemoryStore } from '../../stores/memory.js';
import { logToConsole } from '../../core/console-log.js';
import { optionsFromEnv, siteIdFromEnv, type AskboxWorkerEnv } from './worker-env.js';
import { BASE_HEADERS, REFUSALS } from '../../../protocol/contract.js';

/**
 * The token proxy as a Cloudflare Worker (`askbox/proxy/worker`): configured from the Worker's environment, its
 * limits in the `AskboxLimits` Durable Object so that every isolate, everywhere, enforces one limit.
 * `wrangler.toml` points `main` here (or at a file that re-exports `default` and `AskboxLimits`).
 */

/** The proxy of this isolate, or why it could not be built; kept, since a Worker's environment never changes. */
let built: { handler: ProxyHandler } | { error: string } | undefined;

function proxyFor(env: AskboxWorkerEnv): { handler: ProxyHandler } | { error: string } {
  if (!built) {
    try {
      // Warnings, errors and ratings to the Worker's log (`wrangler tail`, Workers Logs); Cloudflare logs requests.
      const stores = storesFor(env);
      built = { handler: createProxy({ ...optionsFromEnv(env), ...stores, log: logToConsole }) };
    } catch (error) {
      // SECURITY: the messages of optionsFromEnv and createProxy name settings, never the key or a secret.
      built = { error: error instanceof Error ? error.message : String(error) };
    }
  }
  return built;
}

/**
 * The Durable Object stores (limits, and signed-in people's lists) when `ASKBOX_LIMITS` is bound; else this
 * isolate's memory, said once in the log.
 */
function storesFor(env: AskboxWorkerEnv): { store: LimitStore; peopleStore: PeopleStore } {
  if (env.ASKBOX_LIMITS === undefined) {
    console.warn(
      '[askbox] ASKBOX_LIMITS is not bound: limits are kept per isolate, so each isolate grants the full limit. Bind the AskboxLimits Durable Object to share them.',
    );
    return { store: createMemoryStore(), peopleStore: createMemoryPeopleStore() };
  }
  if (!isDurableObjectNamespace(env.ASKBOX_LIMITS))
    throw new Error('ASKBOX_LIMITS must be a Durable Object binding of the AskboxLimits class');
  const siteId = siteIdFromEnv(env);
  return {
    store: createDurableObjectStore(env.ASKBOX_LIMITS, siteId),
    peopleStore: createDurableObjectPeopleStore(env.ASKBOX_LIMITS, siteId),
  };
}

/**
 * The Worker. Bind `AskboxLimits` as the Durable Object `ASKBOX_LIMITS`, set `CODY_API_KEY` and `ASKBOX_SECRET` with
 * `wrangler secret put`, and `ASKBOX_BOT_IDS` (plus optional settings) as vars.
 *
 * @example
 * // src/index.ts of a Worker that wants its own entry file:
 * export { default, AskboxLimits } from 'askbox/proxy/worker';
 */
// oxlint-disable-next-line import/no-default-export -- Cloudflare loads a module Worker from its default export
export default {
  async fetch(request: Request, env: AskboxWorkerEnv): Promise<Response> {
    const proxy = proxyFor(env);
    if ('handler' in proxy) return proxy.handler(request);
    // Logged on every request, not once: `wrangler tail` shows only the requests made while it runs.
    console.error(`[askbox] misconfigured: ${proxy.error}`);
    // What the visitor gets: the reason goes to the log, not to the page.
    return Response.json(
      { message: REFUSALS.misconfigured.message },
      {
        status: REFUSALS.misconfigured.status,
        headers: BASE_HEADERS,
      },
    );
  },
};

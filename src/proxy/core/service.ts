import type { Call } from './call.js';
import type { ProxyLogEntry, ResolvedOptions } from './options.js';
import { passThrough } from './respond.js';
import { fetchStream } from './stream-fetch.js';
import type { ProxyTelemetry } from './telemetry.js';
import { fetchWithin, watchBody } from './upstream.js';

/**
 * The Cody API as the routes see it: every call carries the key, keeps within its deadline, is timed by the
 * request's telemetry, and has its body watched, so a silent service cannot hold a visitor for ever.
 */

/** What the service client is made from. */
interface ServiceDeps {
  config: ResolvedOptions;
  fetch: typeof fetch;
  telemetry: ProxyTelemetry;
  log: (entry: ProxyLogEntry) => void;
}

/** One call to the service: the method (default GET), the JSON body, and whether the answer is a slow one. */
interface ServiceRequest {
  method?: string;
  body?: unknown;
  /** A synchronous reply, which the bot must think through first: it gets the first-byte deadline. */
  slow?: boolean;
}

/** The service, with the proxy's key and deadlines. */
export interface Service {
  /** One JSON call to `path` under the service's base URL, for `call`'s request. */
  call(call: Call, path: string, init?: ServiceRequest): Promise<Response>;
  /** The reply stream at `first`, following the service's redirects among the allowed stream hosts. */
  stream(call: Call, first: URL): Promise<Response>;
  /** An answer of the service passed on to the visitor (a JSON body, already read whole within its deadline). */
  relay(response: Response): Promise<Response>;
  /** A reply stream's body under the first-byte, idle and total deadlines; `onFirst` hears of its first byte. */
  watchStream(body: ReadableStream<Uint8Array>, onFirst: () => void): ReadableStream<Uint8Array>;
}

/** The service client of one proxy. */
export function createService({ config, fetch: doFetch, telemetry, log }: ServiceDeps): Service {
  const { timeouts } = config;
  const authorization = `Bearer ${config.apiKey}`;
  const deadlines = { firstMs: timeouts.firstByteMs, idleMs: timeouts.idleMs, totalMs: timeouts.maxStreamMs };
  const onTimeout = (what: string) => log({ level: 'warn', event: 'upstream', message: `Upstream ${what}.` });
  return {
    call: (call, path, init = {}) =>
      telemetry.upstream(call.seen.route, () =>
        fetchWithin({
          fetch: doFetch,
          url: config.upstream + path,
          init: {
            method: init.method ?? 'GET',
            headers: {
              authorization,
              accept: 'application/json',
              ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            // JSON.stringify(undefined) is undefined: no body.
            body: JSON.stringify(init.body),
            redirect: 'manual',
          },
          ms: init.slow ? timeouts.firstByteMs : timeouts.connectMs,
          signal: call.request.signal,
        }),
      ),
    // SECURITY: the key goes only to the service's own origin; a separate stream host gets the sealed URL alone.
    stream: (call, first) =>
      telemetry.upstream(call.seen.route, () =>
        fetchStream(first, config.streamHosts, (url, withKey) =>
          fetchWithin({
            fetch: doFetch,
            url,
            init: {
              headers: { accept: 'text/event-stream', ...(withKey ? { authorization } : {}) },
              redirect: 'manual',
            },
            ms: timeouts.connectMs,
            signal: call.request.signal,
          }),
        ),
      ),
    // A JSON answer reaches here read whole, within its call's deadline (`fetchWithin`): nothing left to watch.
    relay: (response) => passThrough(response),
    watchStream: (body, onFirst) => watchBody(body, deadlines, { onTimeout, onFirst }),
  };
}

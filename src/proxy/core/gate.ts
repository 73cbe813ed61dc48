import { asFetchRequest, type Call } from './call.js';
import type { ProxyDeps } from './deps.js';
import { noteRefusal } from './refusal.js';
import { BASE_HEADERS, refuse } from './respond.js';
import { CORS_ALLOW_HEADERS, CORS_MAX_AGE_SECONDS, ROUTE_METHODS } from '../../protocol/contract.js';
import { isServedHost, serializedOriginHost } from './hosts.js';
import { route } from './router.js';

/**
 * What every request passes before its route: the base path, a served host, an allowed origin, the site's
 * `authorize`; and what every answer carries: the base headers and, for a page on another origin, CORS.
 */

const ALLOW_HEADERS = CORS_ALLOW_HEADERS.join(', ');
/** What every answer carries, listed once rather than spread into a new object per request. */
const SHARED_HEADERS = Object.entries({ ...BASE_HEADERS, vary: 'Origin' });

/** Answers `call`: refused at the gate, a CORS preflight, or its route's answer; each with the shared headers. */
export async function gate(deps: ProxyDeps, call: Call): Promise<Response> {
  const { config } = deps;
  const { request, url } = call;
  if (!url.pathname.startsWith(`${config.base}/`)) return refuse('notFound');
  if (!isServedHost(url.host, config.hosts)) return refuse('wrongHost');
  // An empty Origin is no origin: no browser sends one, and workerd drops an empty header before the proxy runs,
  // so every runtime reads it as absent (a request without Origin is not a page's, and needs no CORS).
  const origin = request.headers.get('origin') || null;
  // Same host (and port) as the proxy's public address; an opaque origin ("null") is never same-host or listed.
  // SECURITY: only as a browser serializes it; `http://x@host`, `HTTP://HOST` or `http://host/` are no page's.
  const sameHost = origin !== null && serializedOriginHost(origin) === (config.publicHost ?? url.host);
  const crossSite = origin !== null && !sameHost;
  // SECURITY: a listed origin is matched as the exact string a browser sends; no scheme, port, case or suffix
  // variant of it is the same site.
  if (crossSite && !config.origins.has(origin)) return refuse('originRefused');
  const response = request.method === 'OPTIONS' ? preflight() : await authorized(deps, call);
  for (const [name, value] of SHARED_HEADERS) response.headers.set(name, value);
  if (crossSite) {
    // A page on another origin may read only the response headers listed here; the widget needs Retry-After.
    response.headers.set('access-control-allow-origin', origin);
    response.headers.set('access-control-expose-headers', 'retry-after');
  }
  return response;
}

/** The answer to a CORS preflight: the methods and headers the routes take, cached for the contract's while. */
function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-methods': ROUTE_METHODS.join(', '),
      'access-control-allow-headers': ALLOW_HEADERS,
      'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
    },
  });
}

/** The route's answer once the site's `authorize` lets the request through; else its refusal. */
async function authorized(deps: ProxyDeps, call: Call): Promise<Response> {
  const { authorize } = deps.hooks;
  // The health route answers load balancers, which carry no login or captcha.
  const open = call.url.pathname === `${deps.config.base}/health`;
  if (!authorize || open) return identified(deps, call);
  // The hook takes a fetch Request; the route then reads that same one, so a body the hook read is read once.
  const request = asFetchRequest(call.request);
  const verdict = await authorize(request);
  if (verdict instanceof Response) return noteRefusal(new Response(verdict.body, verdict), { reason: 'notAuthorized' });
  if (verdict !== true) return refuse('notAuthorized');
  return identified(deps, { ...call, request });
}

/** The route's answer for the person the identity headers name (none: anonymous); a 403 when they do not verify. */
async function identified(deps: ProxyDeps, call: Call): Promise<Response> {
  const identity = await deps.identify(call.request);
  if ('refused' in identity) return identity.refused;
  return route(deps, identity.person === null ? call : { ...call, person: identity.person });
}

import type { Call } from '../call.js';
import type { ProxyDeps } from '../deps.js';
import { allowedStreamUrl } from '../hosts.js';
import { refuse } from '../respond.js';
import { onBodyEnd } from '../upstream.js';

/**
 * `GET stream/{token}`: relays the reply stream a sealed token names, once, to the visitor who holds the grant for
 * its conversation; the body passes through untouched, under the stream's deadlines.
 */
export async function relayStream(deps: ProxyDeps, call: Call, token: string): Promise<Response> {
  const { config, policy, sealer, service, telemetry } = deps;
  const sealed = await sealer.open(token);
  // SECURITY: a stream URL alone is not enough; the visitor's grant for its conversation must come with it.
  // The token's IV (its first 16 characters) is random per token: it names the token in the store.
  if (!sealed || !(await policy.grantFor(call, sealed.conversationId)) || !(await policy.firstUse(token.slice(0, 16))))
    return refuse('streamGone');
  const first = allowedStreamUrl(sealed.url, config.upstream, config.streamHosts);
  if (!first) return refuse('noStream');
  const response = await service.stream(call, first);
  if (!response.ok || !response.body) return service.relay(response);
  const live = telemetry.stream(call.seen.started);
  const body = service.watchStream(response.body, live.first);
  onBodyEnd(body, live.end);
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'x-accel-buffering': 'no' },
  });
}

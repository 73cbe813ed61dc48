import type { IncomingRequest } from './call.js';
import type { ClientIpSource, ProxyContext } from './options.js';

/**
 * The client's IP address, for per-IP limits. By default the socket's (as the runtime adapter reports it);
 * a header only when the site owner says a proxy in front sets it, since anyone can send one.
 * `x-forwarded-for` grows by one address per hop: with N trusted hops, the client is the Nth from the right.
 */
export function clientIp(
  request: IncomingRequest,
  context: ProxyContext | undefined,
  source: ClientIpSource | undefined,
): string {
  const socket = typeof context?.clientIp === 'string' && context.clientIp ? context.clientIp : 'unknown';
  if (!source) return socket;
  // Stryker disable next-line MethodExpression: Headers strip surrounding whitespace already; trim() says so.
  const value = request.headers.get(source.header)?.trim();
  if (!value) return socket;
  if (source.header === 'cf-connecting-ip') return value;
  const hops = value.split(',').map((part) => part.trim());
  return hops[hops.length - Math.max(1, source.trustedHops)] || socket;
}

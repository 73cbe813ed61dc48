import type { ClientIpSource } from '../../core/options.js';

/**
 * Where a Worker finds the client's address. A Worker sees no socket: Cloudflare's edge sets CF-Connecting-IP on
 * every request, and a client cannot forge it, so the Worker reads that header unless `ASKBOX_OPTIONS` says
 * otherwise (a proxy of the site's own in front, setting X-Forwarded-For).
 */
export const WORKER_CLIENT_IP: ClientIpSource = Object.freeze({ header: 'cf-connecting-ip' });

/**
 * Whether an `ASKBOX_OPTIONS.clientIp` has the shape of a source, with nothing else in it. The range of
 * `trustedHops` is the core's to check (the contract's TRUSTED_HOPS), so every runtime refuses it alike.
 */
export function isClientIpSource(value: unknown): value is ClientIpSource {
  const source = value as { header?: unknown; trustedHops?: unknown } | null;
  if (typeof source !== 'object' || source === null) return false;
  const keys = Object.keys(source).sort().join(',');
  if (source.header === 'cf-connecting-ip') return keys === 'header';
  return source.header === 'x-forwarded-for' && keys === 'header,trustedHops' && typeof source.trustedHops === 'number';
}

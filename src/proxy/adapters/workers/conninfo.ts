import type { ClientIpSource } from '../../core/options.js';

/**
 * Where a Worker finds the client's address. A Worker sees no socket: Cloudflare's edge sets CF-Connecting-IP on
 * every request, and a client cannot forge it, so the Worker reads that header unless `ASKBOX_OPTIONS` says
 * otherwise (a proxy of the site's own in front, setting X-Forwarded-For).
 */
export const WORKER_CLIENT_IP: ClientIpSource = Object.freeze({ header: 'cf-connecting-ip' });

/** Whether an `ASKBOX_OPTIONS.clientIp` is a source the core understands, with nothing else in it. */
export function isClientIpSource(value: unknown): value is ClientIpSource {
  const source = value as { header?: unknown; trustedHops?: unknown } | null;
  if (typeof source !== 'object' || source === null) return false;
  const keys = Object.keys(source).sort().join(',');
  if (source.header === 'cf-connecting-ip') return keys === 'header';
  return (
    source.header === 'x-forwarded-for' &&
    keys === 'header,trustedHops' &&
    Number.isInteger(source.trustedHops) &&
    (source.trustedHops as number) >= 1
  );
}

import { describe, expect, it } from 'vitest';
import { isClientIpSource, WORKER_CLIENT_IP } from '../../../../../src/proxy/adapters/workers/conninfo';
import { clientIp } from '../../../../../src/proxy/core/client-ip';

describe('the client address on Workers', () => {
  it("reads CF-Connecting-IP, which Cloudflare's edge sets, and no forwarding header", () => {
    const request = new Request('https://w.test/', {
      headers: { 'cf-connecting-ip': '198.51.100.4', 'x-forwarded-for': '203.0.113.1' },
    });
    expect(clientIp(request, undefined, WORKER_CLIENT_IP)).toBe('198.51.100.4');
  });

  it.each<[unknown, boolean]>([
    [{ header: 'cf-connecting-ip' }, true],
    [{ header: 'x-forwarded-for', trustedHops: 1 }, true],
    [{ header: 'cf-connecting-ip', trustedHops: 1 }, false],
    // The range is the core's to refuse, with the contract's message on every runtime (options.test.ts).
    [{ header: 'x-forwarded-for', trustedHops: 0 }, true],
    [{ header: 'x-forwarded-for', trustedHops: '1' }, false],
    [{ header: 'x-real-ip' }, false],
    [null, false],
  ])('takes %j as an override: %s', (value, taken) => {
    expect(isClientIpSource(value)).toBe(taken);
  });
});

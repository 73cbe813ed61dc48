import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { refusalBody } from '../helpers/messages';
import { CONTRACT_KEY, CONTRACT_SCENARIO, PARTNER, contractConfig, type ContractConfig } from './config';
import { HOST_CASES, LISTED_ORIGIN_CASES, SELF_ORIGIN_CASES, SERVED_HOST } from './gate-cases';
import type { ProxyRuntime } from './proxy-contract';
import { startUpstream } from './upstream';

/** One exchange over node:http, which, unlike fetch, sets any Host and binds the client to a chosen address. */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.from,
        agent: false,
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text }));
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** An X-Forwarded-For the client wrote itself, different for each request `i`. */
const forgedAlone = (i: number) => ({ 'x-forwarded-for': `6.6.6.${i}` });

/**
 * The gate's rules on every runtime: which Origin and Host spellings pass, and from which hop of X-Forwarded-For
 * (or which socket) the client's address, and so its per-IP bucket, is taken. Each proxy here is started for the
 * rule under test, beside the main contract's.
 */
export function defineGateContract(runtime: ProxyRuntime): void {
  describe(`gate contract [${runtime.name}]`, () => {
    let upstream: Awaited<ReturnType<typeof startUpstream>>;
    let base: ContractConfig;
    const running: { close(): Promise<void> }[] = [];
    /** Starts a proxy on the contract configuration with `changes`; its base URL. */
    const start = async (changes: Partial<ContractConfig>) => {
      const proxy = await runtime.start({ ...base, ...changes });
      running.push(proxy);
      return proxy.url;
    };
    const t = (title: string) => `${title} [${runtime.name}]`;

    beforeAll(async () => {
      upstream = await startUpstream(CONTRACT_KEY, CONTRACT_SCENARIO);
      base = contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin);
    }, 60_000);

    afterAll(async () => {
      await Promise.all(running.map((proxy) => proxy.close()));
      await upstream?.close();
    });

    describe('origins and hosts', () => {
      let url: string;
      beforeAll(async () => {
        url = await start({ allowedHosts: [SERVED_HOST] });
      }, 60_000);
      const health = (headers: Record<string, string>, method = 'GET') =>
        send(`${url}/health`, { method, headers: { host: SERVED_HOST, ...headers } });

      it.each(LISTED_ORIGIN_CASES)(
        t('answers Origin $value ($why) as a listed origin: allowed $allowed'),
        async (c) => {
          for (const method of ['GET', 'OPTIONS']) {
            const response = await health({ origin: c.value, 'access-control-request-method': 'POST' }, method);
            expect(response.status, method).toBe(c.allowed ? (method === 'GET' ? 200 : 204) : 403);
            expect(response.headers['access-control-allow-origin'], method).toBe(
              c.allowed && c.value ? c.value : undefined,
            );
            if (!c.allowed) expect(JSON.parse(response.text)).toEqual(refusalBody('originRefused'));
          }
        },
      );

      it.each(SELF_ORIGIN_CASES)(t('answers Origin $value ($why) as the same host: allowed $allowed'), async (c) => {
        const response = await health({ origin: c.value });
        expect(response.status).toBe(c.allowed ? 200 : 403);
        // A same-host page needs no CORS header; a refused one gets none.
        expect(response.headers['access-control-allow-origin']).toBeUndefined();
      });

      it.each(HOST_CASES)(t('answers Host $value ($why): served $allowed'), async (c) => {
        const response = await send(`${url}/health`, { headers: { host: c.value } });
        expect(response.status).toBe(c.allowed ? 200 : 421);
        if (!c.allowed) expect(JSON.parse(response.text)).toEqual(refusalBody('wrongHost'));
      });

      it(t('lets a listed origin through on a served host only'), async () => {
        const response = await send(`${url}/health`, { headers: { host: `evil${SERVED_HOST}`, origin: PARTNER } });
        expect(response.status).toBe(421);
      });
    });

    describe('the client address behind 0, 1 and 2 trusted proxies', () => {
      /** Starts `count` conversations through `url`, the i-th with headers `headers(i)`, from `from`; statuses. */
      async function conversations(
        url: string,
        count: number,
        sender: { headers: (i: number) => Record<string, string>; from?: string },
      ): Promise<number[]> {
        const statuses: number[] = [];
        for (let i = 0; i < count; i++) {
          const response = await send(`${url}/conversations`, {
            method: 'POST',
            from: sender.from,
            headers: { 'content-type': 'application/json', ...sender.headers(i) },
            body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
          });
          statuses.push(response.status);
        }
        return statuses;
      }
      // The per-IP burst of new conversations: one more is refused.
      const burst = () => base.limits.ipConversations.burst;
      const refusedAfterBurst = () => [...Array.from({ length: burst() }, () => 200), 429];

      it(t('with none, takes the socket address and ignores X-Forwarded-For'), async () => {
        const url = await start({ clientIp: undefined });
        // Loopback addresses other than 127.0.0.1 are distinct clients of the same machine.
        expect(await conversations(url, burst() + 1, { headers: forgedAlone, from: '127.0.0.2' })).toEqual(
          refusedAfterBurst(),
        );
        expect(await conversations(url, 1, { headers: forgedAlone, from: '127.0.0.3' })).toEqual([200]);
      });

      it(t('with one, takes the rightmost X-Forwarded-For entry, whatever the client wrote before it'), async () => {
        const url = await start({ clientIp: { header: 'x-forwarded-for', trustedHops: 1 } });
        const real = '203.0.113.201';
        const forged = (i: number) => ({ 'x-forwarded-for': `6.6.6.${i}, ${real}` });
        expect(await conversations(url, burst(), { headers: forged })).toEqual(refusedAfterBurst().slice(0, -1));
        expect(await conversations(url, 1, { headers: () => ({ 'x-forwarded-for': real }) })).toEqual([429]);
        // The same forged entries from another real client: a bucket of its own.
        expect(
          await conversations(url, 1, { headers: () => ({ 'x-forwarded-for': `6.6.6.0, 203.0.113.202` }) }),
        ).toEqual([200]);
      });

      it(t('with two, takes the second entry from the right: the address the outer proxy saw'), async () => {
        const url = await start({ clientIp: { header: 'x-forwarded-for', trustedHops: 2 } });
        const [real, other, outer] = ['203.0.113.211', '203.0.113.212', '192.0.2.1'];
        const forged = (i: number) => ({ 'x-forwarded-for': `6.6.6.${i}, ${real}, ${outer}` });
        expect(await conversations(url, burst() + 1, { headers: forged })).toEqual(refusedAfterBurst());
        // Another real client behind the same outer proxy: a bucket of its own, not the outer proxy's.
        expect(await conversations(url, 1, { headers: () => ({ 'x-forwarded-for': `${other}, ${outer}` }) })).toEqual([
          200,
        ]);
      });
    });
  });
}

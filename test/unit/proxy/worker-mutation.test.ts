import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO_BOT_ID } from '../../../demo/simulator/index';
import { optionsFromEnv, parseJsonOptions, type AskboxWorkerEnv } from '../../../src/proxy/adapters/workers/worker-env';
import { CONTRACT_KEY, CONTRACT_SCENARIO } from '../../contract/config';
import { startUpstream } from '../../contract/upstream';

/**
 * The edges of the Worker's entry that its feature tests leave open (found by Stryker, issue 18), from source, in
 * front of the simulator on a loopback port (the Worker calls it with the runtime's own `fetch`): which log lines
 * reach the console, and at which level; and the settings of its environment that no feature test names.
 */
const SECRET = 'worker-mutation-secret-0123456789';

let upstream: Awaited<ReturnType<typeof startUpstream>>;
beforeAll(async () => {
  upstream = await startUpstream(CONTRACT_KEY, CONTRACT_SCENARIO);
});
afterAll(() => upstream?.close());

const logs: string[] = [];
beforeEach(() => {
  vi.resetModules();
  logs.length = 0;
  for (const level of ['warn', 'error', 'info', 'log', 'debug'] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logs.push(`${level}: ${args.join(' ')}`));
});
afterEach(() => vi.restoreAllMocks());

/** The entry of a fresh isolate, and a visitor asking it from `https://w.test` on one CF-Connecting-IP. */
async function worker(env: Partial<AskboxWorkerEnv> = {}) {
  const entry = (await import('../../../src/proxy/adapters/workers/worker')).default;
  const full: AskboxWorkerEnv = {
    CODY_API_KEY: CONTRACT_KEY,
    ASKBOX_BOT_IDS: DEMO_BOT_ID,
    ASKBOX_SECRET: SECRET,
    ASKBOX_PUBLIC_URL: 'https://w.test',
    CODY_API_URL: upstream.url,
    ASKBOX_STREAM_ORIGINS: upstream.streamOrigin,
    ...env,
  };
  let grant = '';
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await entry.fetch(
      new Request(`https://w.test/askbox${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          'cf-connecting-ip': '192.0.2.9',
          ...(grant ? { 'x-askbox-grant': grant } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      full,
    );
    return response;
  };
  const start = async () => {
    const created = await call('POST', '/conversations', { name: 'Rated', bot_id: DEMO_BOT_ID });
    expect(created.status).toBe(200);
    const body = (await created.json()) as { data: { id: string }; meta: { grant: string } };
    grant = body.meta.grant;
    return body.data.id;
  };
  return { call, start };
}

describe('the Worker entry’s log', () => {
  it('writes a visitor’s rating as one JSON line, and no line for a request answered well', async () => {
    const { call, start } = await worker();
    const id = await start();
    const rated = await call('POST', '/feedback', { conversation_id: id, message_id: 'Rep1y0000001', rating: 'up' });
    expect(rated.status).toBe(200);
    // The memory store's warning, then the rating; the two requests' own info lines stay out of the log.
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatch(/^warn: \[askbox\] ASKBOX_LIMITS is not bound/);
    expect(logs[1]).toMatch(/^log: \{"level":"info","event":"feedback",/);
    expect(JSON.parse(JSON.parse(logs[1]!.slice('log: '.length)).message as string)).toMatchObject({
      conversationId: id,
      rating: 'up',
    });
  });
});

describe('the Worker environment’s settings', () => {
  it('takes the limits of visitor actions (ratings, deletions) in ASKBOX_OPTIONS', () => {
    const limits = { visitorActions: { burst: 3, perMinute: 4 }, ipActions: { burst: 5, perMinute: 6 } };
    expect(parseJsonOptions(JSON.stringify({ limits }))).toEqual({ limits });
  });

  it('takes a forwarded-for client IP whatever the order of its keys, and trusts hops of no other header', () => {
    const clientIp = { trustedHops: 2, header: 'x-forwarded-for' };
    expect(parseJsonOptions(JSON.stringify({ clientIp }))).toEqual({ clientIp });
    // SECURITY: a header a client can set itself, with hops to trust, would let any visitor choose their IP.
    expect(() => parseJsonOptions('{"clientIp":{"header":"x-real-ip","trustedHops":1}}')).toThrow('clientIp must be');
  });

  it('takes every documented key of ASKBOX_PROOF_OF_WORK, and names each bad one', () => {
    const proofOfWork = { cost: 1, prefixLength: 2, raisedCost: 3, raisedPrefixLength: 4, ttlSeconds: 5 };
    const env = { ASKBOX_SECRET: SECRET, ASKBOX_PROOF_OF_WORK: JSON.stringify(proofOfWork) };
    expect(optionsFromEnv(env).proofOfWork).toEqual(proofOfWork);
    expect(() =>
      optionsFromEnv({ ASKBOX_SECRET: SECRET, ASKBOX_PROOF_OF_WORK: '{"prefixLength":0,"ttlSeconds":-1}' }),
    ).toThrow(
      new Error(
        'ASKBOX_PROOF_OF_WORK.prefixLength must be a positive number; ASKBOX_PROOF_OF_WORK.ttlSeconds must be a positive number',
      ),
    );
    expect(() => optionsFromEnv({ ASKBOX_SECRET: SECRET, ASKBOX_PROOF_OF_WORK: 'on' })).toThrow(
      new Error('ASKBOX_PROOF_OF_WORK (true, false or a JSON object) must be a JSON object'),
    );
  });
});

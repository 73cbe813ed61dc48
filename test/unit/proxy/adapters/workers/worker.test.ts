import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO_BOT_ID } from '../../../../../demo/simulator/index';
import {
  AskboxLimits,
  LIMITS_OBJECT_NAME,
  type DurableObjectNamespaceLike,
} from '../../../../../src/proxy/stores/durable-object';
import {
  optionsFromEnv,
  parseJsonOptions,
  type AskboxWorkerEnv,
} from '../../../../../src/proxy/adapters/workers/worker-env';
import { CONTRACT_KEY, CONTRACT_SCENARIO } from '../../../../contract/config';
import { startUpstream } from '../../../../contract/upstream';
import { namespaceOf } from '../../../../helpers/durable-object';

/** The Worker's entry from source (the workerd contract runs the built bundle): its answers and its log. */
const SECRET = 'worker-unit-secret-0123456789';
const LIMITED = JSON.stringify({ limits: { ipConversations: { burst: 1, perMinute: 1 } } });
const ENV: AskboxWorkerEnv = {
  CODY_API_KEY: 'worker-key-0123456789',
  ASKBOX_BOT_IDS: DEMO_BOT_ID,
  ASKBOX_SECRET: SECRET,
  ASKBOX_PUBLIC_URL: 'https://w.test',
};

/** The entry of a fresh isolate (the module keeps its proxy, as an isolate does). */
async function entry() {
  return (await import('../../../../../src/proxy/adapters/workers/worker')).default;
}

describe('the Worker entry', () => {
  const logs: string[] = [];
  beforeEach(() => {
    vi.resetModules();
    logs.length = 0;
    for (const level of ['warn', 'error', 'info', 'log'] as const)
      vi.spyOn(console, level).mockImplementation(
        (...args: unknown[]) => void logs.push(`${level}: ${args.join(' ')}`),
      );
  });
  afterEach(() => vi.restoreAllMocks());

  it('builds the proxy once per isolate, with limits in the bound object', async () => {
    const worker = await entry();
    const { namespace, names } = namespaceOf(new AskboxLimits());
    // The service is unreachable here; limits come first, so the second conversation from one IP is the object's 429.
    const env = {
      ...ENV,
      ASKBOX_LIMITS: namespace,
      CODY_API_URL: 'http://127.0.0.1:9/api/v1',
      ASKBOX_OPTIONS: LIMITED,
    };
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) {
      const created = await worker.fetch(
        new Request('https://w.test/askbox/conversations', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'cf-connecting-ip': '192.0.2.7' },
          body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
        }),
        env,
      );
      statuses.push(created.status);
    }
    expect(statuses).toEqual([502, 429]);
    expect(names).toEqual([LIMITS_OBJECT_NAME, LIMITS_OBJECT_NAME]);
    expect(logs.map((line) => line.replace(/,"method".*/, ''))).toEqual([
      'error: {"level":"error","event":"upstream"',
      'warn: {"level":"warn","event":"limit"',
    ]);
    // The environment is read once: a later, broken one changes nothing.
    const health = await worker.fetch(new Request('https://w.test/askbox/health'), { ...env, CODY_API_KEY: '' });
    expect(health.status).toBe(200);
  });

  it('keeps limits per isolate without the binding, and says so once', async () => {
    const worker = await entry();
    for (let i = 0; i < 2; i++)
      expect((await worker.fetch(new Request('https://w.test/askbox/health'), ENV)).status).toBe(200);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^warn: \[askbox\] ASKBOX_LIMITS is not bound/);
  });

  it.each([
    ['no key', { CODY_API_KEY: '' }, 'createProxy: apiKey is required'],
    ['no secret', { ASKBOX_SECRET: '' }, 'ASKBOX_SECRET is required: set it with `wrangler secret put ASKBOX_SECRET`'],
    [
      'limits bound to a var',
      { ASKBOX_LIMITS: 'kv' as never },
      'ASKBOX_LIMITS must be a Durable Object binding of the AskboxLimits class',
    ],
    ['bad options', { ASKBOX_OPTIONS: '{' }, 'ASKBOX_OPTIONS is not JSON'],
  ])('answers 503 when misconfigured (%s), and logs why on every request', async (_name, env, reason) => {
    const worker = await entry();
    for (let i = 0; i < 2; i++) {
      const response = await worker.fetch(new Request('https://w.test/askbox/health'), { ...ENV, ...env });
      expect(response.status).toBe(503);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.json()).toEqual({ message: 'The chat proxy is misconfigured.' });
    }
    expect(logs.filter((line) => line.startsWith('error: '))).toEqual([
      `error: [askbox] misconfigured: ${reason}`,
      `error: [askbox] misconfigured: ${reason}`,
    ]);
    expect(logs.join('\n')).not.toContain(ENV.CODY_API_KEY);
  });

  it('writes the proxy’s errors to the console as JSON', async () => {
    const worker = await entry();
    const failing: DurableObjectNamespaceLike = {
      idFromName: (name) => name,
      get: () => ({
        fetch: async () => {
          throw new Error('object gone');
        },
      }),
    };
    const response = await worker.fetch(
      new Request('https://w.test/askbox/conversations', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
      }),
      { ...ENV, ASKBOX_LIMITS: failing },
    );
    expect(response.status).toBe(503);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^error: \{"level":"error","event":"limits",/);
    expect(JSON.parse(logs[0]!.slice('error: '.length))).toMatchObject({
      message: expect.stringContaining('object gone'),
    });
  });
});

/**
 * From source, in front of the simulator on a loopback port (the Worker calls it with the runtime's own `fetch`):
 * which log lines reach the console, and at which level; and the settings of its environment that no other case names.
 */
describe("the Worker entry's log and its environment's settings", () => {
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
      vi.spyOn(console, level).mockImplementation(
        (...args: unknown[]) => void logs.push(`${level}: ${args.join(' ')}`),
      );
  });
  afterEach(() => vi.restoreAllMocks());

  /** The entry of a fresh isolate, and a visitor asking it from `https://w.test` on one CF-Connecting-IP. */
  async function worker(env: Partial<AskboxWorkerEnv> = {}) {
    const isolate = await entry();
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
      const response = await isolate.fetch(
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
});

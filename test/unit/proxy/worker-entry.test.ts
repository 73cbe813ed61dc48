import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO_BOT_ID } from '../../../demo/simulator/index';
import {
  AskboxLimits,
  createDurableObjectStore,
  isDurableObjectNamespace,
  LIMITS_OBJECT_NAME,
  type DurableObjectNamespaceLike,
} from '../../../src/proxy/stores/durable-object';
import type { BucketCheck } from '../../../src/proxy/core/limits';
import {
  optionsFromEnv,
  parseJsonOptions,
  siteIdFromEnv,
  type AskboxWorkerEnv,
} from '../../../src/proxy/adapters/workers/worker-env';

/**
 * The Worker's own code from source (the workerd contract runs the built bundle, which mutation testing cannot
 * see): the environment parser, the Durable Object and its store, and the entry's answers.
 */
const CHECK: BucketCheck = { key: 'msg:ip:192.0.2.1', capacity: 1, refillPerSecond: 1 / 60 };
const SECRET = 'worker-unit-secret-0123456789';
const LIMITED = JSON.stringify({ limits: { ipConversations: { burst: 1, perMinute: 1 } } });
const TAKE_URL = 'https://askbox-limits/take';
const ENV: AskboxWorkerEnv = {
  CODY_API_KEY: 'worker-key-0123456789',
  ASKBOX_BOT_IDS: DEMO_BOT_ID,
  ASKBOX_SECRET: SECRET,
  ASKBOX_PUBLIC_URL: 'https://w.test',
};

/** The `AskboxLimits` object behind a namespace binding, as the Workers runtime would route to it. */
function namespaceOf(object: { fetch(request: Request): Promise<Response> }) {
  const names: unknown[] = [];
  const namespace: DurableObjectNamespaceLike = {
    idFromName: (name) => (names.push(name), `id:${name}`),
    get: () => ({ fetch: (input, init) => object.fetch(new Request(input, init)) }),
  };
  return { namespace, names };
}

/** A take request to the object: a JSON body (or raw text) by POST, or a bare GET. */
function takeRequest(body: unknown, method: 'GET' | 'POST'): Request {
  if (method === 'GET') return new Request(TAKE_URL);
  return new Request(TAKE_URL, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** The entry of a fresh isolate (the module keeps its proxy, as an isolate does). */
async function entry() {
  return (await import('../../../src/proxy/adapters/workers/worker')).default;
}

describe('ASKBOX_OPTIONS', () => {
  it('takes every documented key as it is', () => {
    const options = {
      limits: {
        visitorMessages: { burst: 2, perMinute: 3 },
        ipMessages: { burst: 4, perMinute: 5 },
        visitorConversations: { burst: 1, perMinute: 1 },
        ipConversations: { burst: 6, perMinute: 7 },
        visitorMessagesPerDay: 80,
        ipMessagesPerDay: 400,
      },
      timeouts: { connectMs: 1, firstByteMs: 2, idleMs: 3, maxStreamMs: 4, storeMs: 5 },
      grantTtlSeconds: 3600,
      streamTtlSeconds: 30,
      clientIp: { header: 'x-forwarded-for', trustedHops: 2 },
    };
    expect(parseJsonOptions(JSON.stringify(options))).toEqual(options);
    expect(parseJsonOptions('{"limits":false,"clientIp":{"header":"cf-connecting-ip"}}')).toEqual({
      limits: false,
      clientIp: { header: 'cf-connecting-ip' },
    });
    expect(parseJsonOptions('{}')).toEqual({});
  });

  it.each([
    ['{limits:', 'ASKBOX_OPTIONS is not JSON'],
    ['[]', 'ASKBOX_OPTIONS must be a JSON object'],
    ['null', 'ASKBOX_OPTIONS must be a JSON object'],
    ['{"apiKey":"x","secret":"y"}', 'ASKBOX_OPTIONS has unknown keys apiKey, secret (it takes limits, timeouts,'],
    ['{"limits":[]}', 'limits must be a JSON object'],
    ['{"limits":{"ipMessage":{}}}', 'limits has unknown key ipMessage (it takes visitorMessages,'],
    ['{"limits":{"ipMessages":{"burst":5}}}', 'limits.ipMessages.perMinute must be a positive number'],
    ['{"limits":{"ipMessages":{"burst":"5","perMinute":5}}}', 'limits.ipMessages.burst must be a positive number'],
    ['{"limits":{"ipMessages":{"burst":5,"perMinute":5,"x":1}}}', 'limits.ipMessages has unknown key x'],
    ['{"limits":{"ipMessages":5}}', 'limits.ipMessages must be a JSON object'],
    ['{"limits":{"visitorMessagesPerDay":0}}', 'limits.visitorMessagesPerDay must be a positive number'],
    ['{"timeouts":{"idleMs":0}}', 'timeouts.idleMs must be a positive number of milliseconds'],
    ['{"timeouts":{"idle":1}}', 'timeouts has unknown key idle'],
    ['{"timeouts":5}', 'timeouts must be a JSON object'],
    ['{"grantTtlSeconds":"30d"}', 'grantTtlSeconds must be a positive number of seconds'],
    ['{"streamTtlSeconds":-1}', 'streamTtlSeconds must be a positive number of seconds'],
    ['{"clientIp":{"header":"x-real-ip"}}', 'clientIp must be'],
    ['{"clientIp":"cf-connecting-ip"}', 'clientIp must be'],
    ['{"clientIp":null}', 'clientIp must be'],
    ['{"clientIp":{"header":"cf-connecting-ip","trustedHops":1}}', 'clientIp must be'],
    ['{"clientIp":{"header":"x-forwarded-for"}}', 'clientIp must be'],
    ['{"clientIp":{"header":"x-forwarded-for","trustedHops":0}}', 'clientIp must be'],
    ['{"clientIp":{"header":"x-forwarded-for","trustedHops":1.5}}', 'clientIp must be'],
    ['{"clientIp":{"header":"x-forwarded-for","trustedHops":1,"x":1}}', 'clientIp must be'],
  ])('refuses %s', (text, message) => {
    expect(() => parseJsonOptions(text)).toThrow(message);
  });

  it('names every problem at once', () => {
    expect(() => parseJsonOptions('{"timeouts":{"idleMs":0},"streamTtlSeconds":0}')).toThrow(
      'timeouts.idleMs must be a positive number of milliseconds; streamTtlSeconds must be a positive number of seconds',
    );
  });
});

describe('the Worker environment', () => {
  it('becomes the proxy options: trimmed, comma lists without blanks, CF-Connecting-IP unless told otherwise', () => {
    const env: AskboxWorkerEnv = {
      CODY_API_KEY: ' key\n',
      ASKBOX_BOT_IDS: ' botOne01, ,botTwo02 ',
      ASKBOX_SECRET: `${SECRET}, old-${SECRET}`,
      ASKBOX_ALLOWED_ORIGINS: 'https://a.example,https://b.example',
      ASKBOX_DOCUMENT_IDS: 'doc1',
      ASKBOX_PUBLIC_URL: ' https://chat.example ',
      ASKBOX_ALLOWED_HOSTS: 'chat.example:8443, ,10.0.0.5',
      ASKBOX_STREAM_ORIGINS: ' https://stream.example ',
      ASKBOX_BASE_PATH: ' /chat ',
      CODY_API_URL: ' http://up.test/api/v1 ',
    };
    expect(optionsFromEnv(env)).toEqual({
      apiKey: 'key',
      botIds: ['botOne01', 'botTwo02'],
      secret: [SECRET, `old-${SECRET}`],
      allowedOrigins: ['https://a.example', 'https://b.example'],
      allowedHosts: ['chat.example:8443', '10.0.0.5'],
      streamOrigins: ['https://stream.example'],
      documentIds: ['doc1'],
      publicUrl: 'https://chat.example',
      basePath: '/chat',
      upstream: 'http://up.test/api/v1',
      clientIp: { header: 'cf-connecting-ip' },
    });
    expect(optionsFromEnv({ ASKBOX_SECRET: SECRET })).toEqual({
      apiKey: '',
      botIds: [],
      secret: [SECRET],
      allowedOrigins: [],
      allowedHosts: [],
      documentIds: [],
      clientIp: { header: 'cf-connecting-ip' },
    });
    for (const secret of [undefined, '', ' , '])
      expect(() => optionsFromEnv({ ASKBOX_SECRET: secret })).toThrow(/^ASKBOX_SECRET is required/);
    const trusted = optionsFromEnv({
      ASKBOX_SECRET: SECRET,
      ASKBOX_OPTIONS: '{"clientIp":{"header":"x-forwarded-for","trustedHops":1}}',
    });
    expect(trusted.clientIp).toEqual({ header: 'x-forwarded-for', trustedHops: 1 });
  });
});

describe('the site id', () => {
  it('is ASKBOX_SITE_ID, else the public host, else the first allowed host, else askbox', () => {
    const url = 'https://chat.example:8443/x';
    expect(siteIdFromEnv({ ASKBOX_SITE_ID: ' shop ', ASKBOX_PUBLIC_URL: url })).toBe('shop');
    expect(siteIdFromEnv({ ASKBOX_SITE_ID: ' ', ASKBOX_PUBLIC_URL: url })).toBe('chat.example:8443');
    expect(siteIdFromEnv({ ASKBOX_PUBLIC_URL: 'not a url', ASKBOX_ALLOWED_HOSTS: 'a.example,b.example' })).toBe(
      'a.example',
    );
    expect(siteIdFromEnv({})).toBe('askbox');
  });
});

describe('the AskboxLimits Durable Object', () => {
  it('claims a key once until its TTL has passed', async () => {
    const object = new AskboxLimits();
    const claim = async (now: number, key = 'stream:a') => {
      const response = await object.fetch(
        new Request('https://askbox-limits/claim', { method: 'POST', body: JSON.stringify({ key, ttlMs: 1000, now }) }),
      );
      return ((await response.json()) as { claimed: boolean }).claimed;
    };
    expect(await claim(0)).toBe(true);
    expect(await claim(999)).toBe(false);
    expect(await claim(999, 'stream:b')).toBe(true);
    expect(await claim(1000)).toBe(true);
    for (const body of [
      { key: 1, ttlMs: 1, now: 1 },
      { key: 'k', ttlMs: -1, now: 1 },
      { key: 'k', ttlMs: 1 },
    ]) {
      const response = await object.fetch(
        new Request('https://askbox-limits/claim', { method: 'POST', body: JSON.stringify(body) }),
      );
      expect(response.status).toBe(400);
    }
  });

  it('takes from its buckets and answers the wait', async () => {
    const object = new AskboxLimits();
    const first = await object.fetch(takeRequest({ checks: [CHECK], now: 1000 }, 'POST'));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ wait: 0 });
    const second = await object.fetch(takeRequest({ checks: [CHECK], now: 1000 }, 'POST'));
    expect(await second.json()).toEqual({ wait: 60_000 });
  });

  it.each([
    ['a GET', undefined, 'GET'],
    ['no JSON', 'not json', 'POST'],
    ['no checks', { now: 1 }, 'POST'],
    ['checks that are not a list', { checks: CHECK, now: 1 }, 'POST'],
    ['a check without a key', { checks: [{ ...CHECK, key: 1 }], now: 1 }, 'POST'],
    ['a check of no capacity', { checks: [{ ...CHECK, capacity: 0 }], now: 1 }, 'POST'],
    ['a check whose capacity is text', { checks: [{ ...CHECK, capacity: '1' }], now: 1 }, 'POST'],
    ['a check that never refills', { checks: [{ ...CHECK, refillPerSecond: 0 }], now: 1 }, 'POST'],
    ['a check whose refill is text', { checks: [{ ...CHECK, refillPerSecond: '1' }], now: 1 }, 'POST'],
    ['a check that is null', { checks: [null], now: 1 }, 'POST'],
    ['no time', { checks: [CHECK] }, 'POST'],
    ['a time as text', { checks: [CHECK], now: '1' }, 'POST'],
  ] as const)('refuses %s with a 400', async (_name, body, method) => {
    const response = await new AskboxLimits().fetch(takeRequest(body, method));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Bad take.' });
  });

  it('refuses checks of infinite size and a time that is not a number', async () => {
    const object = new AskboxLimits();
    for (const body of [
      { checks: [{ ...CHECK, capacity: Number.POSITIVE_INFINITY }], now: 1 },
      { checks: [{ ...CHECK, refillPerSecond: Number.POSITIVE_INFINITY }], now: 1 },
      { checks: [CHECK], now: Number.NaN },
    ]) {
      // JSON cannot carry Infinity or NaN, so the test hands the parsed body to the object itself.
      const request = takeRequest({}, 'POST');
      vi.spyOn(request, 'json').mockResolvedValue(body);
      expect((await object.fetch(request)).status).toBe(400);
    }
  });
});

describe('the Durable Object store', () => {
  it('asks the one named object, with a stub per take, and returns its wait', async () => {
    const { namespace, names } = namespaceOf(new AskboxLimits());
    const store = createDurableObjectStore(namespace);
    expect(await store.take([CHECK], 1000)).toBe(0);
    expect(await store.take([CHECK], 1000)).toBe(60_000);
    expect(names).toEqual([LIMITS_OBJECT_NAME, LIMITS_OBJECT_NAME]);
    expect(LIMITS_OBJECT_NAME).toBe('askbox-limits');
  });

  it('prefixes every key with the site id, so two sites on one object never share a bucket or a claim', async () => {
    const { namespace } = namespaceOf(new AskboxLimits());
    const [one, two] = [createDurableObjectStore(namespace, 'one'), createDurableObjectStore(namespace, 'two')];
    expect(await one.take([CHECK], 1000)).toBe(0);
    expect(await two.take([CHECK], 1000)).toBe(0);
    expect(await one.take([CHECK], 1000)).toBe(60_000);
    expect(await one.claim('stream:x', 1000, 0)).toBe(true);
    expect(await two.claim('stream:x', 1000, 0)).toBe(true);
    expect(await two.claim('stream:x', 1000, 0)).toBe(false);
    const seen: string[] = [];
    const spy = namespaceOf({
      fetch: async (request) => (seen.push(await request.text()), Response.json({ wait: 0, claimed: true })),
    });
    await createDurableObjectStore(spy.namespace, 'shop').take([CHECK], 1);
    await createDurableObjectStore(spy.namespace).claim('k', 5, 1);
    expect(seen.map((body) => JSON.parse(body) as unknown)).toEqual([
      { checks: [{ ...CHECK, key: `shop:${CHECK.key}` }], now: 1 },
      { key: 'askbox:k', ttlMs: 5, now: 1 },
    ]);
  });

  it.each([
    ['an error status', () => Response.json({ wait: 0 }, { status: 500 })],
    ['no JSON', () => new Response('oops')],
    ['no wait', () => Response.json({})],
    ['a wait as text', () => Response.json({ wait: '0' })],
    ['a negative wait', () => Response.json({ wait: -1 })],
    ['null', () => Response.json(null)],
  ])('fails the take and the claim on %s', async (_name, answer) => {
    const { namespace } = namespaceOf({ fetch: async () => answer() });
    await expect(createDurableObjectStore(namespace).take([CHECK], 1)).rejects.toThrow(
      /^Durable Object limit store: unexpected answer \(\d+\)$/,
    );
    await expect(createDurableObjectStore(namespace).claim('k', 1, 1)).rejects.toThrow(/unexpected answer/);
  });

  it('tells a namespace binding from anything else bound under its name', () => {
    expect(isDurableObjectNamespace(namespaceOf(new AskboxLimits()).namespace)).toBe(true);
    for (const value of [
      undefined,
      null,
      'kv',
      {},
      { idFromName: () => 1 },
      { get: () => 1 },
      { idFromName: 1, get: 1 },
    ])
      expect(isDurableObjectNamespace(value)).toBe(false);
  });
});

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

import { describe, expect, it } from 'vitest';
import {
  optionsFromEnv,
  parseJsonOptions,
  siteIdFromEnv,
  type AskboxWorkerEnv,
} from '../../../../../src/proxy/adapters/workers/worker-env';

/** A Worker's environment read into the proxy's options: `ASKBOX_OPTIONS`, the other variables, and the site id. */
const SECRET = 'worker-unit-secret-0123456789';

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
    ['{"clientIp":{"header":"x-forwarded-for","trustedHops":"1"}}', 'clientIp must be'],
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
    expect(optionsFromEnv({ ASKBOX_SECRET: SECRET, ASKBOX_IDENTITY_SECRET: ` id-${SECRET}\n` }).identitySecret).toBe(
      `id-${SECRET}`,
    );
    expect(optionsFromEnv({ ASKBOX_SECRET: SECRET, ASKBOX_IDENTITY_SECRET: '' })).not.toHaveProperty('identitySecret');
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

/** Numbers JSON can carry but no limit can be (1e999 parses to Infinity), and variables pasted with blanks. */
describe('the Worker environment at its edges', () => {
  it.each([
    ['{"limits":{"ipMessages":{"burst":1e999,"perMinute":1}}}', 'limits.ipMessages.burst must be a positive number'],
    ['{"limits":{"ipMessagesPerDay":1e999}}', 'limits.ipMessagesPerDay must be a positive number'],
    ['{"timeouts":{"idleMs":1e999}}', 'timeouts.idleMs must be a positive number of milliseconds'],
    ['{"grantTtlSeconds":1e999}', 'grantTtlSeconds must be a positive number of seconds'],
  ])('refuses an infinite number: %s', (text, message) => {
    expect(() => parseJsonOptions(text)).toThrow(message);
  });

  it('reads ASKBOX_PROOF_OF_WORK without the blanks around it, and refuses an infinite cost', () => {
    const env = { ASKBOX_SECRET: SECRET };
    expect(optionsFromEnv({ ...env, ASKBOX_PROOF_OF_WORK: ' true\n' }).proofOfWork).toBe(true);
    expect(optionsFromEnv({ ...env, ASKBOX_PROOF_OF_WORK: ' false ' }).proofOfWork).toBeUndefined();
    expect(optionsFromEnv({ ...env, ASKBOX_PROOF_OF_WORK: ' {"cost":5} ' }).proofOfWork).toEqual({ cost: 5 });
    expect(() => optionsFromEnv({ ...env, ASKBOX_PROOF_OF_WORK: '{"cost":1e999}' })).toThrow(
      'ASKBOX_PROOF_OF_WORK.cost must be a positive number',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { TRUSTED_HOPS } from '../../../../src/protocol/contract';
import { DEMO_BOT_ID } from '../../../../demo/simulator/index';
import {
  DEFAULT_LIMITS,
  DEFAULT_TIMEOUTS,
  resolveOptions,
  type ProxyOptions,
} from '../../../../src/proxy/core/options';
import { createMemoryPeopleStore, createMemoryStore } from '../../../../src/proxy/stores/memory';
import { SECRET } from '../../../helpers/proxy';

/**
 * `resolveOptions` read directly: each rule of option checking, and each default, fails here when it is weakened
 * (the proxy's own tests see only some of them from outside).
 */

/** The options resolved from a minimal valid set plus `extra`. */
const resolve = (extra: Partial<ProxyOptions> = {}) =>
  resolveOptions({ apiKey: 'k', botIds: [DEMO_BOT_ID], secret: SECRET, ...extra });
/** A thunk for toThrow. */
const resolving = (extra: Partial<ProxyOptions>) => () => resolve(extra);
/** A clock of the test's own. */
const now = () => 7;

describe('resolveOptions: what is refused', () => {
  it.each<[string, Partial<ProxyOptions>, string]>([
    ['a key that is not a string', { apiKey: 12345 as never }, 'createProxy: apiKey is required'],
    ['no key', { apiKey: undefined as never }, 'createProxy: apiKey is required'],
    ['no bot list', { botIds: undefined as never }, 'createProxy: botIds must list at least one valid bot id'],
    ['a bot id that is not one', { botIds: [DEMO_BOT_ID, 'no/such id'] }, 'botIds must list at least one valid'],
    ['a secret that is not a string', { secret: [{ length: 32 } as never] }, 'secret must be a string of at least'],
    ['a secret of 15 characters', { secret: 'x'.repeat(15) }, 'secret must be a string of at least 16 characters'],
    ['a list with one short secret', { secret: [SECRET, 'short'] }, 'secret must be a string'],
    [
      'an identity secret of 15 characters',
      { identitySecret: 'x'.repeat(15) },
      'createProxy: identitySecret must be a string of at least 16 characters',
    ],
    [
      'an identity secret that is not a string',
      { identitySecret: ['x'.repeat(32)] as never },
      'identitySecret must be',
    ],
    ['an empty identity secret', { identitySecret: '' }, 'identitySecret must be'],
    [
      'a people store without remove',
      { peopleStore: { list: async () => [], add: async () => undefined } as never },
      'createProxy: peopleStore must have list(person, now), add(entry) and remove(person, id)',
    ],
    [
      'an upstream that is not a URL',
      { upstream: 'getcody.ai/api' },
      'createProxy: upstream "getcody.ai/api" is not a URL',
    ],
    ['an allowed origin that is not a URL', { allowedOrigins: ['nonsense'] }, '"nonsense" is not an origin'],
    ['a stream origin with a path', { streamOrigins: ['https://s.example/x'] }, 'is not an origin (scheme://host'],
    ['"*" as a stream origin', { streamOrigins: ['*'] }, '"*" is not allowed in streamOrigins; list the hosts'],
    ['"*" as an allowed origin', { allowedOrigins: ['*'] }, '"*" is not allowed in allowedOrigins; list the sites'],
    ['a document id that is not one', { documentIds: ['abc', 'a b'] }, 'documentIds must be document ids'],
    ['perMinute 0', { limits: { ipActions: { burst: 1, perMinute: 0 } } }, 'limits need burst ≥ 1, perMinute > 0'],
    ['burst 0.5', { limits: { visitorActions: { burst: 0.5, perMinute: 1 } } }, 'limits need burst ≥ 1'],
    ['a store without claim', { store: { take: async () => 0 } as never }, 'store must have take(checks, now)'],
    ['a store without take', { store: { claim: async () => true } as never }, 'store must have take(checks, now)'],
    ['maxStreams 0', { maxStreams: 0 }, 'maxStreams must be a whole number ≥ 1'],
    ['maxStreams 1.5', { maxStreams: 1.5 }, 'maxStreams must be a whole number ≥ 1'],
    ['a negative timeout', { timeouts: { connectMs: -1 } }, 'timeouts must be positive numbers of milliseconds'],
    ['grantTtlSeconds 59', { grantTtlSeconds: 59 }, 'grantTtlSeconds must be a whole number of seconds from 60'],
    ['trustedHops 0', { clientIp: { header: 'x-forwarded-for', trustedHops: 0 } }, TRUSTED_HOPS.message],
    ['trustedHops 11', { clientIp: { header: 'x-forwarded-for', trustedHops: 11 } }, TRUSTED_HOPS.message],
    ['trustedHops 1.5', { clientIp: { header: 'x-forwarded-for', trustedHops: 1.5 } }, TRUSTED_HOPS.message],
  ])('%s', (_what, extra, message) => {
    expect(resolving(extra)).toThrow(message);
  });

  it('refuses malformed allowedHosts: ports past five digits, brackets half open, empty labels', () => {
    for (const bad of ['shop.example:123456', '[::1', '::1]', 'a..b', '.a', 'a.', 'a:b', '[::1]x'])
      expect(resolving({ allowedHosts: [bad] }), bad).toThrow(`allowedHosts: "${bad}" is not a host (name[:port])`);
  });

  it('takes the limits that are just allowed: burst 1, the smallest positive perMinute, a 16-character secret', () => {
    const limits = { ipActions: { burst: 1, perMinute: 0.001 }, visitorActions: { burst: 1, perMinute: 1 } };
    expect(resolving({ limits, secret: 'x'.repeat(16), maxStreams: 1 })).not.toThrow();
    expect(resolving({ timeouts: { connectMs: 1 } })).not.toThrow();
    for (const trustedHops of [TRUSTED_HOPS.min, TRUSTED_HOPS.max])
      expect(resolving({ clientIp: { header: 'x-forwarded-for', trustedHops } })).not.toThrow();
  });
});

describe('resolveOptions: what it makes of the options', () => {
  it('fills in every default', () => {
    const resolved = resolve();
    expect(resolved).toMatchObject({
      apiKey: 'k',
      upstream: 'https://getcody.ai/api/v1',
      upstreamOrigin: 'https://getcody.ai',
      base: '/askbox',
      publicHost: undefined,
      publicOrigin: undefined,
      grantTtlSeconds: 30 * 24 * 3600,
      streamTtlMs: 60_000,
      documentIds: [],
      limits: DEFAULT_LIMITS,
      timeouts: DEFAULT_TIMEOUTS,
      maxStreams: undefined,
      proofOfWork: undefined,
      now: Date.now,
    });
    expect([...resolved.bots]).toEqual([DEMO_BOT_ID]);
    expect([...resolved.origins]).toEqual([]);
    expect([...resolved.hosts]).toEqual([]);
    expect(resolved.secrets).toEqual([SECRET]);
    // The Cody service streams replies from a host of its own (cody-api.md, endpoint 21).
    expect(resolved.streamHosts).toEqual({
      upstreamOrigin: 'https://getcody.ai',
      streamOrigins: new Set(['https://stream.aimcaiface.com']),
      privateUpstream: false,
    });
  });

  it('keeps what is set: lifetimes, partial timeouts and limits, documents, the clock, the store', () => {
    const store = createMemoryStore();
    const resolved = resolve({
      grantTtlSeconds: 120,
      streamTtlSeconds: 5,
      timeouts: { idleMs: 5 },
      limits: { ipMessagesPerDay: 3 },
      documentIds: ['doc1'],
      now,
      store,
      maxStreams: 4,
      proofOfWork: true,
    });
    expect(resolved).toMatchObject({ grantTtlSeconds: 120, streamTtlMs: 5000, documentIds: ['doc1'], now, store });
    expect(resolved.timeouts).toEqual({ ...DEFAULT_TIMEOUTS, idleMs: 5 });
    expect(resolved.limits).toEqual({ ...DEFAULT_LIMITS, ipMessagesPerDay: 3 });
    expect(resolved.maxStreams).toBe(4);
    expect(resolved.proofOfWork).toBeDefined();
    expect(resolve({ limits: false }).limits).toBe(false);
  });

  it('takes an identity secret of 16 characters and a people store of the site’s; none by default', () => {
    const peopleStore = createMemoryPeopleStore();
    expect(resolve({ identitySecret: 'x'.repeat(16), peopleStore })).toMatchObject({
      identitySecret: 'x'.repeat(16),
      people: peopleStore,
    });
    const defaults = resolve({});
    expect(defaults.identitySecret).toBeUndefined();
    expect(typeof defaults.people.list).toBe('function');
  });

  it('gives a non-default upstream no stream host of its own, trims its slashes, and notes a private one', () => {
    const resolved = resolve({ upstream: 'http://127.0.0.1:4000/api/v1//' });
    expect(resolved.upstream).toBe('http://127.0.0.1:4000/api/v1');
    expect(resolved.streamHosts).toEqual({
      upstreamOrigin: 'http://127.0.0.1:4000',
      streamOrigins: new Set(),
      privateUpstream: true,
    });
    expect(resolve({ upstream: 'https://getcody.ai/api/v1/' }).streamHosts.streamOrigins).toEqual(
      new Set(['https://stream.aimcaiface.com']),
    );
    expect(resolve({ streamOrigins: ['https://s.example'] }).streamHosts.streamOrigins).toEqual(
      new Set(['https://s.example']),
    );
  });

  it.each([
    ['/askbox', '/askbox'],
    ['askbox', '/askbox'],
    ['//chat//', '/chat'],
    ['/a/b/', '/a/b'],
    ['/', ''],
    ['', ''],
  ])('mounts basePath %j at %j', (basePath, base) => {
    expect(resolve({ basePath }).base).toBe(base);
  });

  it("serves publicUrl's host with the listed ones, and makes stream URLs on its origin", () => {
    const resolved = resolve({ publicUrl: 'https://shop.example:8443/chat', allowedHosts: ['internal:3000'] });
    expect([...resolved.hosts]).toEqual(['internal:3000', 'shop.example:8443']);
    expect([resolved.publicHost, resolved.publicOrigin]).toEqual(['shop.example:8443', 'https://shop.example:8443']);
  });

  it('makes a random 64-hex-digit secret, a new one each time, when none is set', () => {
    const [one] = resolve({ secret: undefined }).secrets;
    const [two] = resolve({ secret: undefined }).secrets;
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(one).not.toBe(two);
    expect(resolve({ secret: [SECRET, 'y'.repeat(16)] }).secrets).toEqual([SECRET, 'y'.repeat(16)]);
  });
});

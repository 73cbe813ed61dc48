import { createHmac, randomBytes } from 'node:crypto';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROOF_OF_WORK, REFUSALS } from '../../../../src/protocol/contract';
import type { LimitStore } from '../../../../src/proxy/core/limits';
import { createMemoryStore } from '../../../../src/proxy/stores/memory';

type ProofModule = typeof import('../../../../src/proxy/core/proof');
// Loaded afresh per test, so the module's patterns (hex nonces, zero prefixes) count towards the tests that probe them.
let createProofOfWork: ProofModule['createProofOfWork'];
let resolveProofOfWork: ProofModule['resolveProofOfWork'];
let SETTINGS: NonNullable<ReturnType<ProofModule['resolveProofOfWork']>>;
beforeEach(async () => {
  vi.resetModules();
  ({ createProofOfWork, resolveProofOfWork } = await import('../../../../src/proxy/core/proof'));
  SETTINGS = resolveProofOfWork({ cost: 1, prefixLength: 1, ttlSeconds: 60 })!;
});

const SECRET = 'proof-unit-secret-0123456789';
/** The documented signing key: HMAC-SHA-256(secret, label) in hex, computed apart from the proxy. */
const signingKeyOf = (secret: string) => createHmac('sha256', secret).update(PROOF_OF_WORK.keyLabel).digest('hex');
const SIGNING_KEY = signingKeyOf(SECRET);
const REFUSED = REFUSALS.proofRequired.status;

/**
 * The proof of work of a fresh proxy over `store` (with `secrets`, the first signing), on a clock the test moves
 * (it starts at the real time).
 */
function setup({ store = createMemoryStore(), secrets = [SECRET] }: { store?: LimitStore; secrets?: string[] } = {}) {
  const clock = { now: Date.now() };
  const pow = createProofOfWork({ settings: SETTINGS, secrets, now: () => clock.now, store, guard: (c) => c });
  return { pow, clock };
}

/** HMAC-SHA-256 of the parameters as altcha-lib signs them: sorted keys, JSON, in hex. */
function signatureOf(parameters: Record<string, unknown>, key = SIGNING_KEY): string {
  const sorted = Object.fromEntries(
    Object.keys(parameters)
      .sort()
      .map((name) => [name, parameters[name]]),
  );
  return createHmac('sha256', key).update(JSON.stringify(sorted)).digest('hex');
}

/** Challenge parameters signed with the proxy's key as altcha-lib signs them: sorted keys, HMAC-SHA-256 in hex. */
function signed(changes: Record<string, unknown> = {}, key = SIGNING_KEY) {
  const all: Record<string, unknown> = {
    algorithm: PROOF_OF_WORK.algorithm,
    cost: 1,
    expiresAt: Math.floor(Date.now() / 1000) + 60,
    keyLength: PROOF_OF_WORK.keyLength,
    keyPrefix: '0',
    nonce: randomBytes(16).toString('hex'),
    salt: randomBytes(16).toString('hex'),
    ...changes,
  };
  const parameters = Object.fromEntries(
    Object.keys(all)
      .sort()
      .map((name) => [name, all[name]]),
  );
  return { parameters, signature: signatureOf(parameters, key) };
}

/** A proof of `challenge`, solved by altcha-lib. */
async function solved(challenge: ReturnType<typeof signed>) {
  const solution = await solveChallenge({ challenge: challenge as never, deriveKey });
  if (!solution) throw new Error('altcha-lib found no solution');
  return { challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('proof of work: the option', () => {
  it('refuses anything but true or an object, and takes the top of each range', () => {
    for (const bad of [null, 5, 'yes'])
      expect(() => resolveProofOfWork(bad as never)).toThrow('proofOfWork must be true or an object');
    const { costRange, prefixLengthRange, ttlSeconds } = PROOF_OF_WORK;
    const top = { cost: costRange.max, prefixLength: prefixLengthRange.max, ttlSeconds: ttlSeconds.max };
    expect(resolveProofOfWork(top)).toMatchObject({ normal: { cost: costRange.max }, ttlSeconds: ttlSeconds.max });
  });
});

describe('proof of work: checking a proof', () => {
  it('accepts a challenge signed with HMAC(secret, label), at the lowest cost and counter 0', async () => {
    const { pow } = setup();
    let proof = await solved(signed());
    // Counter 0 is a valid solution: draw challenges until one is solved by it (1 in 16 at prefix "0").
    while (proof.solution.counter !== 0) proof = await solved(signed());
    expect(await pow.check(proof)).toBeNull();
    expect((await pow.check(proof))?.status).toBe(REFUSED);
  });

  it('refuses at the expiry second by its own clock, and remembers the nonce only while it could be used', async () => {
    const memory = createMemoryStore();
    const claims: number[] = [];
    const store: LimitStore = {
      take: (checks, now) => memory.take(checks, now),
      claim: (key, ttlMs, now) => (claims.push(ttlMs), memory.claim(key, ttlMs, now)),
    };
    const { pow, clock } = setup({ store });
    const expiresAt = Math.floor(Date.now() / 1000) + 60;
    const proof = await solved(signed({ expiresAt }));
    const expiresMs = expiresAt * 1000;
    clock.now = expiresMs;
    expect((await pow.check(proof))?.status).toBe(REFUSED);
    clock.now = expiresMs - 1000;
    expect(await pow.check(proof)).toBeNull();
    expect(claims).toEqual([1000]);
  });

  it.each([
    ['a cost of 0', { cost: 0 }, {}],
    ['a cost over the range', { cost: PROOF_OF_WORK.costRange.max + 1 }, {}],
    ['a nonce with a character before its hex', { nonce: `g${'0'.repeat(32)}` }, {}],
    ['a nonce with a character after its hex', { nonce: `${'0'.repeat(32)}g` }, {}],
    ['a key prefix that is not zeros', { keyPrefix: '1' }, {}],
    ['a negative counter', {}, { counter: -1 }],
    ['a counter over 32 bits', {}, { counter: 0x1_0000_0000 }],
    ['a derived key with a character before its hex', {}, { derivedKey: `g${'0'.repeat(64)}` }],
    ['a derived key with a character after its hex', {}, { derivedKey: `${'0'.repeat(64)}g` }],
  ])('refuses %s, signed by the proxy all the same, before deriving any key', async (_name, changes, solution) => {
    const { pow } = setup();
    const derive = vi.spyOn(crypto.subtle, 'deriveBits');
    const proof = { challenge: signed(changes), solution: { counter: 0, derivedKey: '0'.repeat(64), ...solution } };
    expect((await pow.check(proof))?.status).toBe(REFUSED);
    expect(derive).not.toHaveBeenCalled();
  });

  it.each([
    ['the top cost', { cost: PROOF_OF_WORK.costRange.max }, {}],
    ['the top counter', {}, { counter: 0xffff_ffff }],
  ])('checks a proof at %s by deriving its key', async (_name, changes, solution) => {
    const { pow } = setup();
    const derive = vi.spyOn(crypto.subtle, 'deriveBits');
    const proof = { challenge: signed(changes), solution: { counter: 0, derivedKey: '0'.repeat(64), ...solution } };
    expect((await pow.check(proof))?.status).toBe(REFUSED);
    expect(derive).toHaveBeenCalledOnce();
  });
});

describe('proof of work: secrets', () => {
  it('accepts a proof signed with a retired secret, and refuses one of a secret it never had', async () => {
    const { pow } = setup({ secrets: ['proof-unit-new-secret-0123456', SECRET] });
    expect(await pow.check(await solved(signed()))).toBeNull();
    const stranger = await solved(signed({}, signingKeyOf('proof-unit-other-secret-01234')));
    expect((await pow.check(stranger))?.status).toBe(REFUSED);
  });
});

/** The challenge the proxy issues to `ip` (and `visitor`), read as the widget reads it. */
async function challengeOf(pow: ReturnType<typeof setup>['pow'], ip: string, visitor?: string) {
  const answer = await pow.challenge(ip, visitor);
  expect(answer.status).toBe(200);
  const { data } = (await answer.json()) as { data: { parameters: Record<string, unknown>; signature: string } };
  return data;
}

/** The level of each of `count` challenges in a row: its cost and key prefix. */
async function levels(pow: ReturnType<typeof setup>['pow'], count: number, visitor?: string) {
  const seen: string[] = [];
  for (let i = 0; i < count; i++) {
    const { parameters } = await challengeOf(pow, '203.0.113.7', visitor);
    seen.push(`${String(parameters.cost)}/${String(parameters.keyPrefix)}`);
  }
  return seen;
}

describe('proof of work: challenges', () => {
  const NORMAL = `1/0`;
  const RAISED = `${PROOF_OF_WORK.raised.cost}/${'0'.repeat(PROOF_OF_WORK.raised.prefixLength)}`;

  it('answers 204 with nothing to solve while proof of work is off', async () => {
    const pow = createProofOfWork({
      settings: undefined,
      secrets: [SECRET],
      now: Date.now,
      store: createMemoryStore(),
      guard: (c) => c,
    });
    const answer = await pow.challenge('203.0.113.7', 'visitor-1');
    expect(answer.status).toBe(204);
    expect(await answer.text()).toBe('');
  });

  it('issues a challenge signed with the derived key, expiring after its lifetime by the proxy clock', async () => {
    const { pow, clock } = setup();
    clock.now = 1_700_000_000_500;
    const { parameters, signature } = await challengeOf(pow, '203.0.113.7');
    expect(parameters).toMatchObject({
      algorithm: PROOF_OF_WORK.algorithm,
      cost: 1,
      keyLength: PROOF_OF_WORK.keyLength,
      keyPrefix: '0',
      expiresAt: 1_700_000_000 + 60,
    });
    expect(signature).toBe(signatureOf(parameters));
  });

  it('raises the level once an IP has asked for its burst, until the bucket refills at its rate', async () => {
    const { pow, clock } = setup();
    const { burst, perMinute } = PROOF_OF_WORK.ipChallenges;
    expect(await levels(pow, burst + 1)).toEqual([...Array<string>(burst).fill(NORMAL), RAISED]);
    // A second later the bucket has not refilled one challenge's worth.
    clock.now += 1000;
    expect(await levels(pow, 1)).toEqual([RAISED]);
    // One challenge's worth of time later, one more at the normal level.
    clock.now += 60_000 / perMinute;
    expect(await levels(pow, 2)).toEqual([NORMAL, RAISED]);
  });

  it('raises the level once a visitor has asked for their burst, and only theirs', async () => {
    const { pow } = setup();
    const { burst } = PROOF_OF_WORK.visitorChallenges;
    expect(await levels(pow, burst + 1, 'visitor-1')).toEqual([...Array<string>(burst).fill(NORMAL), RAISED]);
    // The same IP without the visitor is still within its own, larger burst.
    expect(await levels(pow, 1)).toEqual([NORMAL]);
  });
});

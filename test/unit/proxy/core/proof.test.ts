import { createHmac, randomBytes } from 'node:crypto';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROOF_OF_WORK, REFUSALS } from '../../../../src/protocol/contract';
import type { LimitStore } from '../../../../src/proxy/core/limits';
import { createMemoryStore } from '../../../../src/proxy/stores/memory';
import { createProofOfWork, resolveProofOfWork } from '../../../../src/proxy/core/proof';

const SECRET = 'proof-unit-secret-0123456789';
/** The documented signing key: HMAC-SHA-256(secret, label) in hex, computed apart from the proxy. */
const SIGNING_KEY = createHmac('sha256', SECRET).update(PROOF_OF_WORK.keyLabel).digest('hex');
const SETTINGS = resolveProofOfWork({ cost: 1, prefixLength: 1, ttlSeconds: 60 })!;
const REFUSED = REFUSALS.proofRequired.status;

/** The proof of work of a fresh proxy over `store`, on a clock the test moves (it starts at the real time). */
function setup(store: LimitStore = createMemoryStore()) {
  const clock = { now: Date.now() };
  const pow = createProofOfWork({
    settings: SETTINGS,
    secrets: [SECRET],
    now: () => clock.now,
    store,
    guard: (c) => c,
  });
  return { pow, clock };
}

/** Challenge parameters signed with the proxy's key as altcha-lib signs them: sorted keys, HMAC-SHA-256 in hex. */
function signed(changes: Record<string, unknown> = {}) {
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
      .map((key) => [key, all[key]]),
  );
  const signature = createHmac('sha256', SIGNING_KEY).update(JSON.stringify(parameters)).digest('hex');
  return { parameters, signature };
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
    const { pow, clock } = setup(store);
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

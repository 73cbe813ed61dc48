import { createChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import type { BucketCheck, LimitStore } from './limits.js';
import { json, refuse } from './respond.js';
import { BUCKET_KEYS, PROOF_OF_WORK } from '../../protocol/contract.js';

/**
 * Proof of work before a new conversation (issue 22, item 5): the proxy issues ALTCHA v2 challenges and checks their
 * solutions statelessly (HMAC-signed, with an expiry); only the replay check touches the limit store. WebCrypto only
 * (altcha-lib's web PBKDF2), so it runs wherever the proxy does.
 */

/** One level of work: `16^prefixLength` tries expected, of `cost` PBKDF2 iterations each. */
interface ProofOfWorkLevel {
  cost: number;
  prefixLength: number;
}

/** The `proofOfWork` option's object form; every field falls back to the contract's default. */
export interface ProofOfWorkOptions {
  /** PBKDF2 iterations per try for every visitor. */
  cost?: number;
  /** Zero hex digits the derived key must start with, for every visitor. */
  prefixLength?: number;
  /** Iterations per try once an IP or visitor has asked for many challenges. */
  raisedCost?: number;
  /** Zero hex digits at the raised level. */
  raisedPrefixLength?: number;
  /** How long a challenge may be solved and used, in whole seconds. */
  ttlSeconds?: number;
}

/** The option resolved: both levels and the lifetime. */
export interface ProofOfWorkSettings {
  normal: ProofOfWorkLevel;
  raised: ProofOfWorkLevel;
  ttlSeconds: number;
}

const HEX32 = /^[0-9a-f]{32}$/;
// Stryker disable next-line Regex: altcha-lib 2.8 refuses a key or signature that is not exactly hex all the same.
const HEX64 = /^[0-9a-f]{64}$/;
const ZEROS = new RegExp(`^0{1,${PROOF_OF_WORK.prefixLengthRange.max}}$`);

/** Checks the option; undefined when proof of work is off. Throws one Error naming the first problem. */
export function resolveProofOfWork(option: boolean | ProofOfWorkOptions | undefined): ProofOfWorkSettings | undefined {
  if (option === undefined || option === false) return undefined;
  const given: ProofOfWorkOptions = option === true ? {} : option;
  if (typeof given !== 'object' || given === null)
    throw new Error('createProxy: proofOfWork must be true or an object');
  const { costRange, prefixLengthRange, ttlSeconds: ttl } = PROOF_OF_WORK;
  const whole = (name: keyof ProofOfWorkOptions, fallback: number, { min, max }: { min: number; max: number }) => {
    const value = given[name] ?? fallback;
    if (!Number.isInteger(value) || value < min || value > max)
      throw new Error(`createProxy: proofOfWork.${name} must be a whole number from ${min} to ${max}`);
    return value;
  };
  return {
    normal: {
      cost: whole('cost', PROOF_OF_WORK.normal.cost, costRange),
      prefixLength: whole('prefixLength', PROOF_OF_WORK.normal.prefixLength, prefixLengthRange),
    },
    raised: {
      cost: whole('raisedCost', PROOF_OF_WORK.raised.cost, costRange),
      prefixLength: whole('raisedPrefixLength', PROOF_OF_WORK.raised.prefixLength, prefixLengthRange),
    },
    ttlSeconds: whole('ttlSeconds', ttl.default, ttl),
  };
}

/** What the proof needs of the proxy: its secrets, its clock, and the limit store behind its fail-closed deadline. */
interface ProofDeps {
  settings: ProofOfWorkSettings | undefined;
  secrets: readonly string[];
  now: () => number;
  store: LimitStore;
  /** The store call within the store deadline; a failure is a `StoreError` of the limit store (503, fail closed). */
  guard: <T>(call: Promise<T>) => Promise<T>;
}

/** The proof of work of one proxy: its challenges and its check of a new conversation's proof. */
export type ProofOfWork = ReturnType<typeof createProofOfWork>;

/** Issues challenges (`GET challenge`) and checks the `proof` of a new conversation. */
export function createProofOfWork({ settings, secrets, now, store, guard }: ProofDeps) {
  // SECURITY: a key derived for this one purpose, so a challenge's signature says nothing about the secret itself.
  let keys: Promise<string[]> | undefined;
  const signingKeys = () => (keys ??= Promise.all(secrets.map(signingKey)));

  /**
   * A new challenge; raised when this IP (or visitor) has emptied its soft bucket, never refused. While proof of work
   * is off, a 204: nothing to solve. Not a 404, which browsers print on the page's console as a failed load.
   */
  async function challenge(ip: string, visitorId: string | undefined): Promise<Response> {
    if (!settings) return new Response(null, { status: 204 });
    // Stryker disable next-line StringLiteral: replace('', ip) puts the IP first: the key stays one per IP.
    const checks = [soft(BUCKET_KEYS.challengeIp.replace('{ip}', ip), PROOF_OF_WORK.ipChallenges)];
    if (visitorId)
      // Stryker disable next-line StringLiteral: replace('', id) puts the id first: the key stays one per visitor.
      checks.push(soft(BUCKET_KEYS.challengeVisitor.replace('{visitor}', visitorId), PROOF_OF_WORK.visitorChallenges));
    const level = (await guard(store.take(checks, now()))) > 0 ? settings.raised : settings.normal;
    const issued = await createChallenge({
      algorithm: PROOF_OF_WORK.algorithm,
      cost: level.cost,
      keyLength: PROOF_OF_WORK.keyLength,
      keyPrefix: '0'.repeat(level.prefixLength),
      expiresAt: Math.floor(now() / 1000) + settings.ttlSeconds,
      deriveKey,
      hmacSignatureSecret: (await signingKeys())[0]!,
    });
    return json({ data: issued });
  }

  /**
   * Null when `proof` is a solved challenge of ours, unexpired and never used before (it is used now); else the
   * refusal. Called after the conversation limits, which bound how many key derivations a client can cause.
   */
  async function check(proof: unknown): Promise<Response | null> {
    if (!settings) return null;
    const parsed = parseProof(proof);
    const expiresMs = (parsed?.challenge.parameters.expiresAt ?? 0) * 1000;
    if (!parsed || expiresMs <= now()) return refuse('proofRequired');
    // A retired secret still verifies (the first signs): a rotation does not fail the challenges being solved.
    for (const key of await signingKeys()) {
      const result = await verifySolution({ ...parsed, deriveKey, hmacSignatureSecret: key });
      if (result.invalidSignature) continue;
      if (!result.verified) return refuse('proofRequired');
      // SECURITY: one solved challenge, one conversation; its nonce is remembered as long as it could be used.
      // Stryker disable next-line StringLiteral: replace('', nonce) puts the nonce first: the key stays one per nonce.
      const nonceKey = BUCKET_KEYS.proofClaim.replace('{id}', parsed.challenge.parameters.nonce);
      return (await guard(store.claim(nonceKey, Math.max(1, expiresMs - now()), now())))
        ? null
        : refuse('proofRequired');
    }
    return refuse('proofRequired');
  }

  return { challenge, check };
}

/** HMAC-SHA-256(secret, label) in hex: the key challenges are signed with. */
async function signingKey(secret: string): Promise<string> {
  const bytes = new TextEncoder();
  // Stryker disable next-line BooleanLiteral: nothing ever exports the key, so an extractable one acts the same.
  const key = await crypto.subtle.importKey('raw', bytes.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = await crypto.subtle.sign('HMAC', key, bytes.encode(PROOF_OF_WORK.keyLabel));
  return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A soft bucket: emptying it raises the cost, it never refuses. */
function soft(key: string, rate: { burst: number; perMinute: number }): BucketCheck {
  return { key, capacity: rate.burst, refillPerSecond: rate.perMinute / 60 };
}

/**
 * The visitor's `proof` ({challenge, solution}) rebuilt from checked fields only, or null. Nothing else the client
 * sent is kept, so an added field fails the signature rather than reaching altcha-lib.
 */
function parseProof(value: unknown): { challenge: Challenge; solution: Solution } | null {
  const proof = record(value);
  const challenge = record(proof?.challenge);
  const p = record(challenge?.parameters);
  const solution = record(proof?.solution);
  if (!p || !solution || typeof challenge?.signature !== 'string' || !HEX64.test(challenge.signature)) return null;
  const { algorithm, nonce, salt, cost, keyLength, keyPrefix, expiresAt } = p;
  const { counter, derivedKey } = solution;
  const valid =
    algorithm === PROOF_OF_WORK.algorithm &&
    keyLength === PROOF_OF_WORK.keyLength &&
    typeof nonce === 'string' &&
    HEX32.test(nonce) &&
    typeof salt === 'string' &&
    HEX32.test(salt) &&
    Number.isInteger(cost) &&
    (cost as number) >= PROOF_OF_WORK.costRange.min &&
    (cost as number) <= PROOF_OF_WORK.costRange.max &&
    typeof keyPrefix === 'string' &&
    ZEROS.test(keyPrefix) &&
    Number.isInteger(expiresAt) &&
    Number.isInteger(counter) &&
    // Stryker disable next-line ConditionalExpression: altcha-lib 2.8 refuses a counter outside uint32 itself.
    (counter as number) >= 0 &&
    // Stryker disable next-line ConditionalExpression: altcha-lib 2.8 refuses a counter outside uint32 itself.
    (counter as number) <= 0xffffffff &&
    typeof derivedKey === 'string' &&
    HEX64.test(derivedKey);
  if (!valid) return null;
  return {
    challenge: {
      parameters: {
        algorithm,
        nonce,
        salt,
        cost: cost as number,
        keyLength,
        keyPrefix,
        expiresAt: expiresAt as number,
      },
      signature: challenge.signature,
    },
    solution: { counter: counter as number, derivedKey },
  };
}

function record(value: unknown): Record<string, unknown> | undefined {
  // Every field read from the record is type-checked next, so a non-object let through is refused there.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: refused alike one step later (above).
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

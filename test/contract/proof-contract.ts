import { createHmac } from 'node:crypto';
import { createChallenge, solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { solveProof } from '../../src/api/proof';
import { PROOF_OF_WORK, REFUSALS } from '../../src/protocol/contract';
import {
  CONTRACT_KEY,
  CONTRACT_PROOF_OF_WORK,
  CONTRACT_SCENARIO,
  CURRENT_SECRET,
  OLD_SECRET,
  contractConfig,
} from './config';
import type { ProxyRuntime } from './proxy-contract';
import { startUpstream } from './upstream';

let ipCounter = 0;
const now = () => Math.floor(Date.now() / 1000);
const REFUSED = { message: REFUSALS.proofRequired.message };
/** The key a proxy signs challenges with: HMAC-SHA-256(secret, 'askbox-pow') in hex, the same on every runtime. */
const signingKey = (secret: string) => createHmac('sha256', secret).update(PROOF_OF_WORK.keyLabel).digest('hex');

/** A challenge made by altcha-lib itself with a proxy's signing key, as the proxy would make it (or not quite). */
async function forge(secret: string, expiresAt: number): Promise<Challenge> {
  return createChallenge({
    algorithm: PROOF_OF_WORK.algorithm,
    cost: CONTRACT_PROOF_OF_WORK.cost,
    keyPrefix: '0',
    expiresAt,
    deriveKey,
    hmacSignatureSecret: signingKey(secret),
  });
}

async function solve(challenge: Challenge) {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('altcha-lib found no solution');
  return { challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } };
}

/**
 * Proof of work before a new conversation, over HTTP only, against a proxy started with it on (at a test's tiny cost)
 * on every runtime. Solutions come from altcha-lib's own solver and from the widget's, so each runtime is held to
 * ALTCHA v2 as altcha-lib speaks it.
 */
export function defineProofContract(runtime: ProxyRuntime): void {
  describe(`proof of work [${runtime.name}]`, () => {
    let upstream: Awaited<ReturnType<typeof startUpstream>>;
    let proxy: { url: string; close(): Promise<void> };

    beforeAll(async () => {
      upstream = await startUpstream(CONTRACT_KEY, CONTRACT_SCENARIO);
      const config = contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin);
      proxy = await runtime.start({ ...config, proofOfWork: CONTRACT_PROOF_OF_WORK });
    }, 60_000);

    afterAll(async () => {
      await proxy?.close();
      await upstream?.close();
    });

    /** One client IP; `grant` makes it a returning visitor. */
    function visitor(ip = `198.51.100.${++ipCounter}`) {
      const headers = (grant?: string): Record<string, string> => ({
        'x-forwarded-for': ip,
        ...(grant && { 'x-askbox-grant': grant }),
      });
      return {
        async challenge(grant?: string): Promise<Challenge> {
          const response = await fetch(`${proxy.url}/challenge`, { headers: headers(grant) });
          expect(response.status).toBe(200);
          expect(response.headers.get('cache-control')).toBe('no-store');
          return ((await response.json()) as { data: Challenge }).data;
        },
        create: (proof?: unknown, grant?: string) =>
          fetch(`${proxy.url}/conversations`, {
            method: 'POST',
            headers: { ...headers(grant), 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'Proof', bot_id: DEMO_BOT_ID, ...(proof !== undefined && { proof }) }),
          }),
      };
    }
    const t = (title: string) => `${title} [${runtime.name}]`;

    it(t('issues a signed ALTCHA v2 PBKDF2 challenge at the normal cost, a few minutes long'), async () => {
      const challenge = await visitor().challenge();
      expect(challenge.parameters).toEqual({
        algorithm: 'PBKDF2/SHA-256',
        nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
        salt: expect.stringMatching(/^[0-9a-f]{32}$/),
        cost: CONTRACT_PROOF_OF_WORK.cost,
        keyLength: 32,
        keyPrefix: '0',
        expiresAt: expect.any(Number),
      });
      expect(challenge.parameters.expiresAt! - now()).toBeGreaterThan(PROOF_OF_WORK.ttlSeconds.default - 5);
      expect(challenge.parameters.expiresAt! - now()).toBeLessThanOrEqual(PROOF_OF_WORK.ttlSeconds.default + 1);
      expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    });

    it(t('refuses a new conversation without a proof, or with one that is no proof (428)'), async () => {
      const mark = upstream.records.length;
      // Each from its own IP: refused attempts count against the conversation limit, which runs first.
      for (const proof of [undefined, 'x', {}, { challenge: await visitor().challenge() }, [1]]) {
        const response = await visitor().create(proof);
        expect(response.status, JSON.stringify(proof)).toBe(428);
        expect(await response.json()).toEqual(REFUSED);
      }
      expect(upstream.records.slice(mark)).toHaveLength(0);
    });

    it(t('opens one conversation per solved challenge: a replay is refused'), async () => {
      const me = visitor();
      const proof = await solve(await me.challenge());
      const first = await me.create(proof);
      expect(first.status).toBe(200);
      expect(((await first.json()) as { meta: { grant: string } }).meta.grant).toMatch(/^g1\./);
      const mark = upstream.records.length;
      const again = await me.create(proof);
      expect(again.status).toBe(428);
      expect(await again.json()).toEqual(REFUSED);
      // The proof is the proxy's business: it never reaches the service.
      const other = await me.create(await solve(await me.challenge()));
      expect(other.status).toBe(200);
      expect(JSON.stringify(upstream.records.slice(mark))).not.toContain('proof');
    });

    it(t('accepts what the widget solves (WebCrypto PBKDF2)'), async () => {
      const me = visitor();
      const proof = await solveProof(await me.challenge());
      expect((await me.create(proof)).status).toBe(200);
    });

    it(t('refuses a tampered challenge, a wrong key and a wrong counter'), async () => {
      const me = visitor();
      const proof = await solve(await me.challenge());
      const cheaper = { ...proof.challenge, parameters: { ...proof.challenge.parameters, keyPrefix: '00' } };
      const resigned = { ...proof.challenge, signature: signingKey('not-the-proxy-secret-0123456789') };
      const forgedKey = { ...proof.solution, derivedKey: `0${'f'.repeat(63)}` };
      const otherCounter = { ...proof.solution, counter: proof.solution.counter + 1 };
      for (const bad of [
        { ...proof, challenge: cheaper },
        { ...proof, challenge: resigned },
        { ...proof, solution: forgedKey },
        { ...proof, solution: otherCounter },
      ]) {
        const response = await visitor().create(bad);
        expect(response.status, JSON.stringify(bad)).toBe(428);
      }
      // None of those used it up.
      expect((await me.create(proof)).status).toBe(200);
    });

    it(
      t('signs with HMAC(secret, "askbox-pow"), checks with every secret, and refuses an expired challenge'),
      async () => {
        const create = async (challenge: Challenge) => (await visitor().create(await solve(challenge))).status;
        expect(await create(await forge(CURRENT_SECRET, now() + 60))).toBe(200);
        expect(await create(await forge(OLD_SECRET, now() + 60))).toBe(200);
        const expired = await visitor().create(await solve(await forge(CURRENT_SECRET, now() - 1)));
        expect(expired.status).toBe(428);
        expect(await expired.json()).toEqual(REFUSED);
        // The raw secret is not the signing key.
        expect(await create(await forgeRaw(CURRENT_SECRET))).toBe(428);
      },
    );

    it(t('raises the cost past the soft threshold of an IP, without refusing'), async () => {
      const me = visitor();
      const levels: string[] = [];
      for (let i = 0; i <= PROOF_OF_WORK.ipChallenges.burst; i++) {
        const { parameters } = await me.challenge();
        levels.push(`${parameters.keyPrefix}/${parameters.cost}`);
      }
      const normal = `0/${CONTRACT_PROOF_OF_WORK.cost}`;
      const raised = `00/${CONTRACT_PROOF_OF_WORK.raisedCost}`;
      expect(levels).toEqual([...Array(PROOF_OF_WORK.ipChallenges.burst).fill(normal), raised]);
      const proof = await solve(await me.challenge());
      expect(proof.challenge.parameters.keyPrefix).toBe('00');
      expect((await me.create(proof)).status).toBe(200);
    });

    it(t('raises the cost past the soft threshold of a visitor, whatever its IP'), async () => {
      const first = visitor();
      const created = await first.create(await solve(await first.challenge()));
      const { grant } = ((await created.json()) as { meta: { grant: string } }).meta;
      const prefixes: string[] = [];
      for (let i = 0; i <= PROOF_OF_WORK.visitorChallenges.burst; i++)
        prefixes.push((await visitor().challenge(grant)).parameters.keyPrefix);
      expect(prefixes).toEqual([...Array(PROOF_OF_WORK.visitorChallenges.burst).fill('0'), '00']);
    });
  });
}

/** A challenge signed with the raw secret: what a proxy that skipped the key derivation would accept. */
async function forgeRaw(secret: string): Promise<Challenge> {
  return createChallenge({
    algorithm: PROOF_OF_WORK.algorithm,
    cost: CONTRACT_PROOF_OF_WORK.cost,
    keyPrefix: '0',
    expiresAt: Math.floor(Date.now() / 1000) + 60,
    deriveKey,
    hmacSignatureSecret: secret,
  });
}

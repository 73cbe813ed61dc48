import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { describe, expect, it } from 'vitest';
import { ChatError } from '../../../../src/api/errors';
import { solveProof } from '../../../../src/api/proof';
import { PROOF_OF_WORK } from '../../../../src/protocol/contract';
import { resolveProofOfWork } from '../../../../src/proxy/core/proof';
import { optionsFromEnv } from '../../../../src/proxy/adapters/workers/worker-env';
import { createTestModel } from '../../../helpers/model';
import { runPhp } from '../../../helpers/php';

/** Expected PBKDF2 iterations to solve a level: 16^prefixLength tries of `cost` iterations. */
const expected = ({ cost, prefixLength }: { cost: number; prefixLength: number }) => 16 ** prefixLength * cost;
/** Node's native PBKDF2-SHA-256 on the bench machine, rounded down (npm run bench:pow measures ~5 M/s). */
const ITERATIONS_PER_CPU_SECOND = 5_000_000;

describe('proof of work: the work asked', () => {
  it('costs a visitor at most 75 ms of native CPU (300 ms on a phone 4× slower), and a script ≥ 1 s raised', () => {
    expect(expected(PROOF_OF_WORK.normal)).toBeLessThanOrEqual(0.075 * ITERATIONS_PER_CPU_SECOND);
    expect(expected(PROOF_OF_WORK.raised)).toBeGreaterThanOrEqual(1 * ITERATIONS_PER_CPU_SECOND);
    // Checking a solution is one derivation of `cost`: a few milliseconds at most for the proxy.
    expect(PROOF_OF_WORK.raised.cost).toBeLessThanOrEqual(0.01 * ITERATIONS_PER_CPU_SECOND);
  });

  it('is off unless asked for, takes the contract levels for `true`, and refuses values out of range', () => {
    expect(resolveProofOfWork(undefined)).toBeUndefined();
    expect(resolveProofOfWork(false)).toBeUndefined();
    expect(resolveProofOfWork(true)).toEqual({
      normal: PROOF_OF_WORK.normal,
      raised: PROOF_OF_WORK.raised,
      ttlSeconds: PROOF_OF_WORK.ttlSeconds.default,
    });
    expect(resolveProofOfWork({ cost: 5, raisedPrefixLength: 3 })).toMatchObject({
      normal: { cost: 5, prefixLength: 1 },
      raised: { cost: PROOF_OF_WORK.raised.cost, prefixLength: 3 },
    });
    expect(() => resolveProofOfWork({ cost: 0 })).toThrow('proofOfWork.cost must be a whole number from 1 to');
    expect(() => resolveProofOfWork({ prefixLength: 7 })).toThrow('proofOfWork.prefixLength');
    expect(() => resolveProofOfWork({ ttlSeconds: 1.5 })).toThrow('proofOfWork.ttlSeconds');
  });

  it('is turned on in a Worker by ASKBOX_PROOF_OF_WORK: true or a JSON object', () => {
    const env = { CODY_API_KEY: 'k', ASKBOX_BOT_IDS: 'b', ASKBOX_SECRET: 's'.repeat(16) };
    expect(optionsFromEnv(env).proofOfWork).toBeUndefined();
    expect(optionsFromEnv({ ...env, ASKBOX_PROOF_OF_WORK: 'false' }).proofOfWork).toBeUndefined();
    expect(optionsFromEnv({ ...env, ASKBOX_PROOF_OF_WORK: 'true' }).proofOfWork).toBe(true);
    expect(optionsFromEnv({ ...env, ASKBOX_PROOF_OF_WORK: '{"raisedCost":50000}' }).proofOfWork).toEqual({
      raisedCost: 50000,
    });
    expect(() => optionsFromEnv({ ...env, ASKBOX_PROOF_OF_WORK: 'yes' })).toThrow('ASKBOX_PROOF_OF_WORK');
    expect(() => optionsFromEnv({ ...env, ASKBOX_PROOF_OF_WORK: '{"costs":1}' })).toThrow('unknown key costs');
    expect(() => optionsFromEnv({ ...env, ASKBOX_PROOF_OF_WORK: '{"cost":"1"}' })).toThrow('positive number');
  });
});

describe("proof of work: the widget's solver against altcha-lib and the PHP proxy", () => {
  const secret = 'a-signing-key-for-this-test';

  it('solves what altcha-lib makes, in a way altcha-lib and the PHP proxy both accept', async () => {
    for (const keyPrefix of ['0', '00']) {
      const challenge = await createChallenge({
        algorithm: PROOF_OF_WORK.algorithm,
        cost: 50,
        keyPrefix,
        expiresAt: Math.floor(Date.now() / 1000) + 60,
        deriveKey,
        hmacSignatureSecret: secret,
      });
      const proof = await solveProof(JSON.parse(JSON.stringify(challenge)));
      expect(proof?.solution.derivedKey).toMatch(new RegExp(`^${keyPrefix}[0-9a-f]{${64 - keyPrefix.length}}$`));
      const result = await verifySolution({
        challenge,
        solution: proof!.solution,
        deriveKey,
        hmacSignatureSecret: secret,
      });
      expect(result).toMatchObject({ verified: true });
      // The PHP proxy's own derivation and signature, on the same proof.
      const php = runPhp(
        `$p = json_decode(getenv('PROOF'), true); $g = $p['challenge']['parameters'];
        echo json_encode([
          'key' => bin2hex(hash_pbkdf2('sha256', hex2bin($g['nonce']) . pack('N', $p['solution']['counter']), hex2bin($g['salt']), $g['cost'], 32, true)),
          'signed' => hash_equals(hash_hmac('sha256', json_encode(array_merge($g, []), JSON_UNESCAPED_SLASHES), getenv('KEY')), $p['challenge']['signature']),
          'ours' => askbox_pow_signature($g, 'x') === hash_hmac('sha256', json_encode($g, JSON_UNESCAPED_SLASHES), askbox_pow_key('x')),
        ]);`,
        { PROOF: JSON.stringify(proof), KEY: secret },
      );
      expect(php).toEqual({ key: proof!.solution.derivedKey, signed: true, ours: true });
    }
  });

  it('gives up on a challenge whose prefix no key can match, or that it cannot read', async () => {
    const parameters = { algorithm: PROOF_OF_WORK.algorithm, nonce: 'ab', salt: 'cd', cost: 1, keyLength: 32 };
    expect(await solveProof({ parameters: { ...parameters, keyPrefix: 'ff' } })).toBeUndefined();
    expect(await solveProof({ parameters: { ...parameters, keyPrefix: '0'.repeat(7) } })).toBeUndefined();
    expect(await solveProof({ parameters })).toBeUndefined();
    expect(await solveProof(null)).toBeUndefined();
  });
});

/** The proxy's refusal of a stale proof, as the client throws it. */
const stale = () => new ChatError('http', 'HTTP 428', { status: 428 });

describe('proof of work: the chat model', () => {
  it('solves ahead when the panel opens without a conversation, and sends that proof with the first message', async () => {
    const { model, state, reply } = createTestModel();
    model.open();
    await Promise.resolve();
    expect(state.proofs).toBe(1);
    const sending = model.send('hello');
    reply('hi');
    await sending;
    expect(state.createdProof).toEqual([1]);
    model.newConversation();
    expect(state.proofs).toBe(2);
  });

  it('solves a fresh proof and retries once when the proxy refuses a stale one, keeping the text', async () => {
    const { model, state, reply } = createTestModel();
    state.createRefusals.push(stale());
    const sending = model.send('hello');
    reply('hi');
    await sending;
    expect(state.createdProof).toEqual([1, 2]);
    expect(model.messages.value.map((m) => m.text)).toEqual(['hello', 'hi']);

    model.newConversation();
    state.createRefusals.push(stale(), stale());
    await model.send('again');
    expect(model.status.value.type).toBe('failed');
    // Refused before the service saw it: the text goes back into the message box.
    expect([model.messages.value, model.draft.value]).toEqual([[], 'again']);
  });
});

import { own } from './parse.js';

/** A solved proof of work, sent with a new conversation: the proxy's challenge and the counter that solves it. */
export interface Proof {
  challenge: unknown;
  solution: { counter: number; derivedKey: string };
}

const hex = (text: string) => Uint8Array.from(text.match(/../g) ?? [], (byte) => parseInt(byte, 16));

/**
 * Solves the proxy's ALTCHA v2 PBKDF2 challenge (what altcha-lib's `solveChallenge` does, in a few lines): counters
 * from 0, as 4 big-endian bytes after the nonce, until the derived key starts with the key prefix. Each try is one
 * native, asynchronous `deriveBits`, so the page never sees a long task, and no worker or eval is needed (strict
 * CSP). Undefined for a challenge it cannot read; the proxy then refuses the conversation, and says why.
 */
export async function solveProof(challenge: unknown): Promise<Proof | undefined> {
  const parameters = own(challenge, 'parameters');
  const [nonce, salt, cost, prefix] = ['nonce', 'salt', 'cost', 'keyPrefix'].map((key) => String(own(parameters, key)));
  // Zeros only, so that a key can match: any other prefix would keep the visitor's CPU busy for nothing.
  if (!/^0{1,6}$/.test(prefix!)) return undefined;
  const password = new Uint8Array(nonce!.length / 2 + 4);
  password.set(hex(nonce!));
  for (let counter = 0; counter < 2 ** 28; counter++) {
    new DataView(password.buffer).setUint32(nonce!.length / 2, counter);
    const key = await crypto.subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits']);
    // The proxy's algorithm is PBKDF2/SHA-256 with 32-byte keys (the wire contract's PROOF_OF_WORK).
    const bits = await crypto.subtle.deriveBits(
      { name: 'PBKDF2', salt: hex(salt!), iterations: +cost!, hash: 'SHA-256' },
      key,
      256,
    );
    const derivedKey = Array.from(new Uint8Array(bits), (byte) => byte.toString(16).padStart(2, '0')).join('');
    if (derivedKey.startsWith(prefix!)) return { challenge, solution: { counter, derivedKey } };
  }
  return undefined;
}

import { fromBase64Url, toBase64Url } from './grant.js';

/**
 * Seals an upstream stream URL, with the conversation it belongs to, into an opaque token for the proxy's own
 * stream route, so the browser never sees (or can choose) the upstream URL. AES-GCM authenticates the token: a
 * forged or altered one does not open. The conversation binds the token to the visitor's grant.
 *
 * A token is base64url of `IV (12 random bytes) ‖ ciphertext ‖ GCM tag (16 bytes)`, AES-256-GCM under
 * SHA-256(`askbox:stream:` + secret), of the JSON `{"u": url, "c": conversation, "e": expiry in ms}`: the layout
 * the PHP proxy seals and opens too, so a token sealed by one runtime opens on any other.
 */
export interface Sealer {
  seal(stream: SealedStream, ttlMs: number): Promise<string>;
  /** The sealed stream, or null when the token is forged, altered or expired. */
  open(token: string): Promise<SealedStream | null>;
}

/** What a stream token carries. */
interface SealedStream {
  url: string;
  conversationId: string;
}

/**
 * AES-256-GCM under one key, with a 96-bit IV and a 128-bit tag: the primitive a runtime seals stream tokens with.
 * The sealer chooses the IVs (random, one per token); this only encrypts and decrypts.
 */
interface AesGcmKey {
  /** The ciphertext followed by its 16-byte tag. */
  encrypt(iv: Uint8Array, plain: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /**
   * The plaintext of `sealed` (ciphertext ‖ tag), or null when the tag does not check.
   * SECURITY: it must check the tag before it answers anything.
   */
  decrypt(iv: Uint8Array, sealed: Uint8Array): Uint8Array | null | Promise<Uint8Array | null>;
}

/**
 * Makes the AES-256-GCM key for 32 raw bytes: once per secret, so a key import (WebCrypto's) is paid once.
 * `createProxy`'s `aesGcm` option; the Node entry's `nodeAesGcm` runs on `node:crypto`, several times cheaper.
 */
export type AesGcm = (raw: Uint8Array) => AesGcmKey;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const IV_BYTES = 12;
/** The IV, the GCM tag and at least one byte of payload. */
// Stryker disable next-line ArithmeticOperator: a shorter token fails GCM's tag check anyway; this saves the work.
const MIN_TOKEN_BYTES = IV_BYTES + 16 + 1;

/** AES-256-GCM on Web Crypto (`crypto.subtle`): every runtime has it; the default. */
export const webAesGcm: AesGcm = (raw) => {
  // Stryker disable next-line BooleanLiteral: nothing ever exports the key, so an extractable one acts the same.
  const key = crypto.subtle.importKey('raw', raw.slice(), 'AES-GCM', false, ['encrypt', 'decrypt']);
  return {
    async encrypt(iv, plain) {
      return new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: iv.slice() }, await key, plain.slice()));
    },
    async decrypt(iv, sealed) {
      const plain = await crypto.subtle
        .decrypt({ name: 'AES-GCM', iv: iv.slice() }, await key, sealed.slice())
        // Stryker disable next-line ArrowFunction: undefined and null both mean the key did not open it.
        .catch(() => null);
      return plain && new Uint8Array(plain);
    },
  };
};

/** Creates a sealer keyed by `secrets` (the first seals, every one opens) with a clock in milliseconds. */
export function createSealer(secrets: readonly string[], now: () => number, aesGcm: AesGcm = webAesGcm): Sealer {
  // One key per secret, made once: a key of its own, derived apart from the grants' HMAC key.
  const keys = secrets.map(async (secret) =>
    aesGcm(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(`askbox:stream:${secret}`)))),
  );
  return {
    async seal({ url, conversationId }, ttlMs) {
      // SECURITY: a fresh random IV per token; GCM under one key must never see an IV twice.
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const payload = encoder.encode(JSON.stringify({ u: url, c: conversationId, e: now() + ttlMs }));
      const sealed = await (await keys[0]!).encrypt(iv, payload);
      const token = new Uint8Array(iv.length + sealed.length);
      token.set(iv);
      token.set(sealed, iv.length);
      return toBase64Url(token);
    },
    async open(token) {
      const bytes = fromBase64Url(token);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: as MIN_TOKEN_BYTES: decrypt refuses it too.
      if (!bytes || bytes.length < MIN_TOKEN_BYTES) return null;
      const iv = bytes.subarray(0, IV_BYTES);
      const sealed = bytes.subarray(IV_BYTES);
      for (const key of keys) {
        const plain = await (await key).decrypt(iv, sealed);
        if (plain) return parsePayload(decoder.decode(plain), now());
      }
      return null;
    },
  };
}

function parsePayload(text: string, now: number): SealedStream | null {
  try {
    const { u, c, e } = JSON.parse(text) as { u?: unknown; c?: unknown; e?: unknown };
    return typeof u === 'string' && typeof c === 'string' && typeof e === 'number' && e > now
      ? { url: u, conversationId: c }
      : null;
  } catch {
    return null;
  }
}

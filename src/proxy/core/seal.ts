import { fromBase64Url, toBase64Url } from './grant.js';

/**
 * Seals an upstream stream URL, with the conversation it belongs to, into an opaque token for the proxy's own
 * stream route, so the browser never sees (or can choose) the upstream URL. AES-GCM authenticates the token: a
 * forged or altered one does not open. The conversation binds the token to the visitor's grant.
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

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const IV_BYTES = 12;
/** The IV, the GCM tag and at least one byte of payload. */
// Stryker disable next-line ArithmeticOperator: a shorter token fails GCM's tag check anyway; this saves the work.
const MIN_TOKEN_BYTES = IV_BYTES + 16 + 1;

/** Creates a sealer keyed by `secrets` (the first seals, every one opens) with a clock in milliseconds. */
export function createSealer(secrets: readonly string[], now: () => number): Sealer {
  const keys = secrets.map(async (secret) => {
    // A key of its own, derived apart from the grants' HMAC key.
    const raw = await crypto.subtle.digest('SHA-256', encoder.encode(`askbox:stream:${secret}`));
    // Stryker disable next-line BooleanLiteral: nothing ever exports the key, so an extractable one acts the same.
    return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  });
  return {
    async seal({ url, conversationId }, ttlMs) {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const payload = encoder.encode(JSON.stringify({ u: url, c: conversationId, e: now() + ttlMs }));
      const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await keys[0]!, payload));
      const token = new Uint8Array(iv.length + sealed.length);
      token.set(iv);
      token.set(sealed, iv.length);
      return toBase64Url(token);
    },
    async open(token) {
      const bytes = fromBase64Url(token);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: as MIN_TOKEN_BYTES: decrypt refuses it too.
      if (!bytes || bytes.length < MIN_TOKEN_BYTES) return null;
      for (const key of keys) {
        const plain = await crypto.subtle
          .decrypt({ name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES) }, await key, bytes.slice(IV_BYTES))
          // Stryker disable next-line ArrowFunction: undefined and null both mean the key did not open it.
          .catch(() => null);
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

/**
 * Visitor grants: the stateless proof that a visitor created a conversation through this proxy.
 *
 * A grant reads `g1.<conversation>.<bot>.<visitor>.<expiry>.<signature>`: the expiry is in Unix seconds and the
 * signature is the base64url HMAC-SHA256 of everything before it, keyed by the proxy's secret as UTF-8. The format
 * is fixed (and byte-compatible across the Node, Workers and PHP proxies), so a site can switch runtimes without
 * breaking stored conversations.
 */

/** What a valid grant says. */
export interface Grant {
  conversationId: string;
  botId: string;
  /** A random id for the visitor, kept across their conversations: the key of per-visitor limits. */
  visitorId: string;
  /** Unix seconds. */
  expires: number;
}

/** Signs and checks grants with a list of secrets: the first signs, every one verifies (key rotation). */
export interface Grants {
  sign(grant: Grant): Promise<string>;
  /** The grant, or null when it is malformed, forged, altered or expired. */
  verify(token: string | null): Promise<Grant | null>;
}

import { ID_PATTERN, STORE_SIZES } from '../../protocol/contract.js';

const VERSION = 'g1';
/** How many verified grants are remembered: Web Crypto runs off the main thread, so a check costs a round trip. */
const VERIFIED_CACHE_SIZE = STORE_SIZES.verifiedGrants;
const PART = new RegExp(ID_PATTERN);
const encoder = new TextEncoder();

/** Creates the signer over `secrets` (at least one) with a clock in milliseconds. */
export function createGrants(secrets: readonly string[], now: () => number): Grants {
  const keys = secrets.map((secret) =>
    // Stryker disable next-line BooleanLiteral: nothing ever exports the key, so an extractable one acts the same.
    crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]),
  );
  // Valid grants only, keyed by their exact text: a hit still has its expiry checked.
  const verified = new Map<string, Grant>();
  const remember = (token: string, grant: Grant) => {
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
    verified.set(token, grant);
    return grant;
  };
  return {
    async sign(grant) {
      const payload = [VERSION, grant.conversationId, grant.botId, grant.visitorId, String(grant.expires)].join('.');
      const signature = await crypto.subtle.sign('HMAC', await keys[0]!, encoder.encode(payload));
      return `${payload}.${toBase64Url(new Uint8Array(signature))}`;
    },
    async verify(token) {
      if (token === null) return null;
      const known = verified.get(token);
      if (known) return known.expires * 1000 > now() ? known : null;
      const parts = token.split('.');
      // Stryker disable next-line MethodExpression: `g1` (already VERSION) passes PART too.
      if (parts.length !== 6 || parts[0] !== VERSION || !parts.slice(1).every((part) => PART.test(part))) return null;
      const [, conversationId, botId, visitorId, expiry, signature] = parts as [
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      const expires = Number(expiry);
      if (!/^\d{1,12}$/.test(expiry) || expires * 1000 <= now()) return null;
      const payload = encoder.encode(parts.slice(0, 5).join('.'));
      const mac = fromBase64Url(signature);
      if (!mac) return null;
      for (const key of keys) {
        // SECURITY: subtle.verify compares in constant time.
        if (await crypto.subtle.verify('HMAC', await key, mac, payload))
          return remember(token, { conversationId, botId, visitorId, expires });
      }
      return null;
    },
  };
}

/** A new random visitor id (128 bits). */
export function newVisitorId(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
}

/** Base64url without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  // Stryker disable next-line Regex: btoa pads only at the end, so an unanchored /=+/ strips the same.
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes base64url (no padding); null when `text` is not base64url. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]{1,4096}$/.test(text) || text.length % 4 === 1) return null;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  // A plain loop: `Uint8Array.from` with a mapping function calls it through the iterator protocol, byte by byte.
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Signed-in visitors (issue 35): the site's server signs the person's id with the proxy's `identitySecret`, as
 * Intercom's identity verification does, and the widget sends the id and its signature on every request
 * (`IDENTITY.userHeader`, `IDENTITY.hashHeader`). A verified person's conversations, grants and limits go by their
 * person key, derived from the id with the same secret, so the id itself is never stored.
 */
import type { IncomingRequest } from './call.js';
import type { ProxyLogEntry } from './options.js';
import { refuse } from './respond.js';
import { IDENTITY, STORE_SIZES } from '../../protocol/contract.js';

const USER_ID = new RegExp(IDENTITY.userIdPattern);
const HASH = new RegExp(IDENTITY.hashPattern);
const PERSON_KEY = new RegExp(IDENTITY.personKeyPattern);
/** The person key's hex digits: 40 of HMAC-SHA256's 64 (160 bits). */
const PERSON_KEY_DIGITS = 40;
const encoder = new TextEncoder();

/** Who a request speaks for: nobody in particular (no identity header), a verified person, or a refusal. */
type Identity = { person: null } | { person: string } | { refused: Response };

/** Checks identity headers; made once per proxy. */
export type IdentityCheck = (request: IncomingRequest) => Promise<Identity>;

const refused = (): Identity => ({ refused: refuse('identityRefused') });

/** Whether a visitor id is a person key (a signed-in person's), not an anonymous visitor's random id. */
export function isPersonKey(visitorId: string): boolean {
  return PERSON_KEY.test(visitorId);
}

/**
 * The identity check of a proxy with `secret` (its `identitySecret`; undefined when it has none). Without either
 * identity header a request is anonymous, as it always was. With either, both must be well formed and the hash must
 * be HMAC-SHA256(secret, id); anything else is a 403 `identityRefused`, and a proxy without the secret says so in
 * one log line per request, naming the setting.
 */
export function createIdentityCheck(secret: string | undefined, log: (entry: ProxyLogEntry) => void): IdentityCheck {
  const key =
    secret === undefined
      ? undefined
      : // Stryker disable next-line BooleanLiteral: nothing ever exports the key, so an extractable one acts the same.
        crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
          'sign',
          'verify',
        ]);
  // Verified pairs and their person keys, as grant.ts remembers verified grants: Web Crypto runs off the main thread,
  // so each check (a verify, then a sign for the key) costs two round trips, on every request a signed-in person makes.
  const verified = new Map<string, string>();
  const remember = (pair: string, person: string) => {
    if (verified.size >= STORE_SIZES.verifiedIdentities) verified.delete(verified.keys().next().value as string);
    verified.set(pair, person);
    return person;
  };
  return async (request) => {
    // An empty header is no header: workerd drops one before the proxy sees it, so every runtime does alike.
    const id = request.headers.get(IDENTITY.userHeader) || null;
    const hash = request.headers.get(IDENTITY.hashHeader) || null;
    if (id === null && hash === null) return { person: null };
    if (key === undefined) {
      log({
        level: 'error',
        event: 'config',
        message: 'A signed-in visitor was refused: set identitySecret (ASKBOX_IDENTITY_SECRET) to verify them.',
      });
      return refused();
    }
    if (id === null || hash === null || !USER_ID.test(id) || !HASH.test(hash)) return refused();
    // The hash has a fixed length, so `hash:id` names one pair: a hit is a pair verified before, to the letter.
    const pair = `${hash}:${id}`;
    const known = verified.get(pair);
    if (known !== undefined) return { person: known };
    // SECURITY: subtle.verify compares in constant time; the pattern above admits lowercase hex only.
    if (!(await crypto.subtle.verify('HMAC', await key, fromHex(hash), encoder.encode(id)))) return refused();
    return { person: remember(pair, await personKey(await key, id)) };
  };
}

/** `u-` + the first 40 hex digits of HMAC-SHA256(identitySecret, personLabel + id): the person's key. */
async function personKey(key: CryptoKey, id: string): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(IDENTITY.personLabel + id)));
  return `u-${toHex(mac).slice(0, PERSON_KEY_DIGITS)}`;
}

/**
 * HMAC-SHA256(secret, text) in lowercase hex: the `data-user-hash` a site's server computes for the person's id
 * `text` with the proxy's `identitySecret` (on any runtime with Web Crypto; `hash_hmac('sha256', …)` in PHP).
 *
 * @example
 * const hash = await identityHash(process.env.ASKBOX_IDENTITY_SECRET, user.id);
 */
export async function identityHash(secret: string, text: string): Promise<string> {
  // Stryker disable next-line BooleanLiteral: nothing ever exports the key, so an extractable one acts the same.
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(text))));
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Lowercase hex (already checked against IDENTITY.hashPattern) as bytes. */
function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  // Stryker disable next-line EqualityOperator: a typed array ignores a write past its end, so `<=` fills the same.
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/**
 * A signed-in visitor as the site's server vouches for them: the person's id, and `hash`, its HMAC-SHA256 with the
 * proxy's `identitySecret`, in lowercase hex. The widget sends both on every request; only the proxy can check them.
 */
export interface Identity {
  readonly id: string;
  readonly hash: string;
}

/**
 * The wire contract's `IDENTITY.userIdPattern` and `hashPattern`, kept here as literals for the launcher's sake
 * (importing them brings the whole `IDENTITY` object into every page view, +105 B gzipped), as `parse.ts` keeps the
 * colour pattern; test/unit/config/identity.test.ts holds them to the contract's text.
 */
export const USER_ID = /^[A-Za-z0-9._@:+=-]{1,128}$/;
export const USER_HASH = /^[0-9a-f]{64}$/;

/** Why a pair is refused, for the one console error: what each half must be (the contract's patterns, in words). */
export const IDENTITY_RULE =
  'must both be given: the id as 1 to 128 letters, digits or "._@:+=-", the hash as 64 lowercase hex digits';

/**
 * `{id, hash}` when `value` holds both and each matches the contract's pattern (header-safe, bounded); undefined
 * otherwise, half a pair included: a visitor the widget cannot vouch for is anonymous.
 */
export function parseIdentity(value: unknown): Identity | undefined {
  // SECURITY: own keys only, so a page that polluted `Object.prototype` cannot sign anyone in.
  const field = (key: string): unknown =>
    value && typeof value === 'object' && Object.hasOwn(value, key)
      ? (value as Record<string, unknown>)[key]
      : undefined;
  const id = field('id');
  const hash = field('hash');
  if (typeof id !== 'string' || !USER_ID.test(id)) return undefined;
  if (typeof hash !== 'string' || !USER_HASH.test(hash)) return undefined;
  return Object.freeze({ id, hash });
}

/** Whether two identities (or their absence) are the same person, signed alike. */
export const sameIdentity = (a: Identity | undefined, b: Identity | undefined): boolean =>
  a?.id === b?.id && a?.hash === b?.hash;

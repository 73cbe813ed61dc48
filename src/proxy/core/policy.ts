import type { Call } from './call.js';
import { createGrants, type Grant } from './grant.js';
import { isPersonKey } from './identity.js';
import type { BucketCheck } from './limits.js';
import type { LimitEvent, Rate, ResolvedOptions } from './options.js';
import { noteRefusal } from './refusal.js';
import { BASE_HEADERS } from './respond.js';
import {
  BUCKET_KEYS,
  GRANT_HEADER,
  LIMIT_BUCKETS,
  LIMIT_MESSAGE,
  LIMIT_NOUNS,
  STORE_FAILURES,
} from '../../protocol/contract.js';

export { GRANT_HEADER } from '../../protocol/contract.js';

const DAY_SECONDS = 24 * 3600;

/** A store the proxy cannot do without, named as its failure's log line names it (STORE_FAILURES). */
export type StoreName = keyof typeof STORE_FAILURES;

/**
 * A store failed (Redis down, say): the proxy cannot tell whether a request is within its limits (`limits`), or
 * what a signed-in person holds (`people`). The proxy answers 503 busy and logs one line, its event the store's name.
 */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly store: StoreName;
  constructor(store: StoreName, cause: unknown) {
    super(`${STORE_FAILURES[store]}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.store = store;
  }
}

/**
 * Who may do what: grants bind conversations to visitors, and token buckets bound how much each visitor and each
 * IP may ask. Everything here runs before any upstream call.
 */
export function createPolicy(options: ResolvedOptions, onLimit: ((event: LimitEvent) => void) | undefined) {
  const grants = createGrants(options.secrets, options.now);

  /**
   * The call's valid grant when it is the caller's: a signed-in person's grant (its visitor id a person key) only
   * with that very person's verified identity; an anonymous visitor's with or without one.
   * SECURITY: after logout, or under another person's identity, a person's grant is no grant at all (rule 5).
   */
  async function ownGrant(call: Caller): Promise<Grant | null> {
    const grant = await grants.verify(call.request.headers.get(GRANT_HEADER));
    return grant && (!isPersonKey(grant.visitorId) || grant.visitorId === call.person) ? grant : null;
  }

  /**
   * The call's grant when it is valid for `conversationId`, one of our bots, and the caller's own; else null.
   * SECURITY: without it, the conversation does not exist for this visitor (404, no existence oracle).
   */
  async function grantFor(call: Caller, conversationId: unknown): Promise<Grant | null> {
    const grant = await ownGrant(call);
    return grant && grant.conversationId === conversationId && options.bots.has(grant.botId) ? grant : null;
  }

  /**
   * Who the call's limits count: the signed-in person, else the visitor of any own grant it carries (their
   * identity when they start another conversation); undefined for a first-time anonymous visitor.
   */
  const visitorOf = async (call: Caller) => call.person ?? (await ownGrant(call))?.visitorId;

  const mint = (conversationId: string, botId: string, visitorId: string) =>
    grants.sign({
      conversationId,
      botId,
      visitorId,
      expires: Math.floor(options.now() / 1000) + options.grantTtlSeconds,
    });

  /** A 429 in the service's envelope when the action is over a limit; null when it may proceed. */
  async function limit(
    action: LimitEvent['action'],
    ip: string,
    visitorId: string | undefined,
  ): Promise<Response | null> {
    const limits = options.limits;
    if (!limits) return null;
    const checks = LIMIT_BUCKETS[action]
      .filter(({ subject }) => subject === 'ip' || visitorId !== undefined)
      .map(({ limit: name, subject, refill }) => {
        const key = BUCKET_KEYS[name].replace(`{${subject}}`, subject === 'ip' ? ip : visitorId!);
        return refill === 'day' ? daily(key, limits[name] as number) : bucket(key, limits[name] as Rate);
      });
    const waitMs = await guard.limits(options.store.take(checks, options.now()));
    if (waitMs <= 0) return null;
    const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
    onLimit?.({ action, ip, visitorId, retryAfterSeconds });
    const response = new Response(
      JSON.stringify({
        message: LIMIT_MESSAGE.replace('{noun}', LIMIT_NOUNS[action]).replace('{seconds}', String(retryAfterSeconds)),
      }),
      {
        status: 429,
        headers: { ...BASE_HEADERS, 'content-type': 'application/json', 'retry-after': String(retryAfterSeconds) },
      },
    );
    return noteRefusal(response, { reason: 'limit', action });
  }

  /** A call to `store` that fails closed: its error, or no answer within `storeMs`, is a `StoreError` of `store`. */
  function withinDeadline<T>(store: StoreName, call: Promise<T>): Promise<T> {
    const ms = options.timeouts.storeMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    });
    return Promise.race([call, deadline])
      .catch((error: unknown) => {
        throw new StoreError(store, error);
      })
      .finally(() => clearTimeout(timer));
  }

  /** Each store's calls behind the store deadline, failing closed in that store's name. */
  const guard = {
    limits: <T>(call: Promise<T>) => withinDeadline('limits', call),
    people: <T>(call: Promise<T>) => withinDeadline('people', call),
  };

  /**
   * Whether this is the first opening of the stream token `id` (kept for the token's whole lifetime).
   * SECURITY: a stream token is a bearer capability; once used, a copy of it (a log, a proxy's cache) is worthless.
   */
  const firstUse = (id: string) =>
    guard.limits(options.store.claim(BUCKET_KEYS.streamClaim.replace('{id}', id), options.streamTtlMs, options.now()));

  return { grantFor, visitorOf, countedAs, mint, limit, firstUse, guard };
}

/** What the policy reads of a call: its request, and the verified person it speaks for. */
type Caller = Pick<Call, 'request' | 'person'>;

/** The visitor a granted action counts against: the signed-in person, else the grant's visitor. */
function countedAs(call: Caller, grant: Grant): string {
  return call.person ?? grant.visitorId;
}

function bucket(key: string, rate: Rate): BucketCheck {
  return { key, capacity: rate.burst, refillPerSecond: rate.perMinute / 60 };
}

/** A daily cap: a bucket of `perDay` tokens refilled over 24 hours. */
function daily(key: string, perDay: number): BucketCheck {
  return { key, capacity: perDay, refillPerSecond: perDay / DAY_SECONDS };
}

/** The policy of one proxy: grants, limits and the stores' guards. */
export type Policy = ReturnType<typeof createPolicy>;

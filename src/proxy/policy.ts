import { createGrants, type Grant } from './grant.js';
import type { BucketCheck } from './limits.js';
import type { LimitEvent, Rate, ResolvedOptions } from './options.js';
import { BASE_HEADERS } from './respond.js';

/** The request header that carries a visitor's grant. */
export const GRANT_HEADER = 'x-askbox-grant';

const DAY_SECONDS = 24 * 3600;

/** The limit store failed (Redis down, say): the proxy cannot tell whether a request is within its limits. */
export class LimitStoreError extends Error {
  override readonly name = 'LimitStoreError';
  constructor(cause: unknown) {
    super(`The limit store failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * Who may do what: grants bind conversations to visitors, and token buckets bound how much each visitor and each
 * IP may ask. Everything here runs before any upstream call.
 */
export function createPolicy(options: ResolvedOptions, onLimit: ((event: LimitEvent) => void) | undefined) {
  const grants = createGrants(options.secrets, options.now);

  /**
   * The request's grant when it is valid for `conversationId` and one of our bots; else null.
   * SECURITY: without it, the conversation does not exist for this visitor (404, no existence oracle).
   */
  async function grantFor(request: Request, conversationId: unknown): Promise<Grant | null> {
    const grant = await grants.verify(request.headers.get(GRANT_HEADER));
    return grant && grant.conversationId === conversationId && options.bots.has(grant.botId) ? grant : null;
  }

  /** Any valid grant the request carries: the visitor's identity when they start another conversation. */
  const visitorOf = async (request: Request) => (await grants.verify(request.headers.get(GRANT_HEADER)))?.visitorId;

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
    const checks: BucketCheck[] = [];
    if (action === 'message') {
      checks.push(bucket(`msg:ip:${ip}`, limits.ipMessages), daily(`day:ip:${ip}`, limits.ipMessagesPerDay));
      if (visitorId)
        checks.push(
          bucket(`msg:v:${visitorId}`, limits.visitorMessages),
          daily(`day:v:${visitorId}`, limits.visitorMessagesPerDay),
        );
    } else {
      checks.push(bucket(`conv:ip:${ip}`, limits.ipConversations));
      if (visitorId) checks.push(bucket(`conv:v:${visitorId}`, limits.visitorConversations));
    }
    const waitMs = await withinDeadline(options.store.take(checks, options.now()));
    if (waitMs <= 0) return null;
    const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
    onLimit?.({ action, ip, visitorId, retryAfterSeconds });
    const noun = action === 'message' ? 'messages' : 'new conversations';
    return new Response(
      JSON.stringify({ message: `Too many ${noun}. Please try again in ${retryAfterSeconds} seconds.` }),
      {
        status: 429,
        headers: { ...BASE_HEADERS, 'content-type': 'application/json', 'retry-after': String(retryAfterSeconds) },
      },
    );
  }

  /** A store call that fails closed: its error, or no answer within `storeMs`, is a `LimitStoreError`. */
  function withinDeadline<T>(call: Promise<T>): Promise<T> {
    const ms = options.timeouts.storeMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    });
    return Promise.race([call, deadline])
      .catch((error: unknown) => {
        throw new LimitStoreError(error);
      })
      .finally(() => clearTimeout(timer));
  }

  /**
   * Whether this is the first opening of the stream token `id` (kept for the token's whole lifetime).
   * SECURITY: a stream token is a bearer capability; once used, a copy of it (a log, a proxy's cache) is worthless.
   */
  const firstUse = (id: string) =>
    withinDeadline(options.store.claim(`stream:${id}`, options.streamTtlMs, options.now()));

  return { grantFor, visitorOf, mint, limit, firstUse };
}

function bucket(key: string, rate: Rate): BucketCheck {
  return { key, capacity: rate.burst, refillPerSecond: rate.perMinute / 60 };
}

/** A daily cap: a bucket of `perDay` tokens refilled over 24 hours. */
function daily(key: string, perDay: number): BucketCheck {
  return { key, capacity: perDay, refillPerSecond: perDay / DAY_SECONDS };
}

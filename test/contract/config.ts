import { DEMO_BOT_ID } from '../../demo/simulator/index';
import type { Scenario } from '../../demo/simulator/scenario';

/**
 * The one configuration every proxy runtime is started with under the contract suite, as plain JSON so the
 * Workers and PHP proxies can be given it too. Limits and timeouts are small so the suite runs in seconds.
 */
export interface ContractConfig {
  apiKey: string;
  botIds: string[];
  upstream: string;
  basePath: string;
  /** Rotation: the first signs, both verify. */
  secret: string[];
  allowedOrigins: string[];
  /** The upstream's separate stream host (another loopback port), which must be listed to be fetched. */
  streamOrigins: string[];
  documentIds: string[];
  streamTtlSeconds: number;
  /** Absent: the socket's address (on Workers, CF-Connecting-IP). */
  clientIp?: { header: 'x-forwarded-for'; trustedHops: number };
  /** Hosts served besides none (absent: loopback hosts only). */
  allowedHosts?: string[];
  limits: {
    visitorMessages: { burst: number; perMinute: number };
    ipMessages: { burst: number; perMinute: number };
    visitorConversations: { burst: number; perMinute: number };
    ipConversations: { burst: number; perMinute: number };
    visitorActions: { burst: number; perMinute: number };
    ipActions: { burst: number; perMinute: number };
    visitorMessagesPerDay: number;
    ipMessagesPerDay: number;
  };
  timeouts: { connectMs: number; firstByteMs: number; idleMs: number; maxStreamMs: number };
  /** Verifies signed-in visitors (absent: identity headers are refused). */
  identitySecret?: string;
  /** Proof of work before each new conversation (off when absent). */
  proofOfWork?: { cost: number; prefixLength: number; raisedCost: number; raisedPrefixLength: number };
}

/** Proof of work at a test's cost: a few PBKDF2 iterations, so Node solves a challenge in milliseconds. */
export const CONTRACT_PROOF_OF_WORK = { cost: 2, prefixLength: 1, raisedCost: 3, raisedPrefixLength: 2 };

export const CONTRACT_KEY = 'contract-api-key-0123456789abcdefghijklmnopqrst';
export const CURRENT_SECRET = 'contract-secret-current-0123456789';
export const OLD_SECRET = 'contract-secret-previous-987654321';
export const PARTNER = 'https://partner.example';

/**
 * The contract configuration against an upstream URL, its focus documents and the origin it streams from (none:
 * streams elsewhere are refused).
 */
export function contractConfig(upstream: string, documentIds: string[], streamOrigin?: string): ContractConfig {
  return {
    apiKey: CONTRACT_KEY,
    botIds: [DEMO_BOT_ID],
    upstream,
    basePath: '/askbox',
    secret: [CURRENT_SECRET, OLD_SECRET],
    allowedOrigins: [PARTNER],
    streamOrigins: streamOrigin ? [streamOrigin] : [],
    documentIds: documentIds.slice(0, 2),
    streamTtlSeconds: 2,
    clientIp: { header: 'x-forwarded-for', trustedHops: 1 },
    limits: {
      visitorMessages: { burst: 3, perMinute: 6 },
      ipMessages: { burst: 5, perMinute: 6 },
      visitorConversations: { burst: 2, perMinute: 1 },
      ipConversations: { burst: 4, perMinute: 2 },
      visitorActions: { burst: 3, perMinute: 1 },
      ipActions: { burst: 5, perMinute: 1 },
      visitorMessagesPerDay: 50,
      ipMessagesPerDay: 200,
    },
    timeouts: { connectMs: 1500, firstByteMs: 1500, idleMs: 1000, maxStreamMs: 2500 },
  };
}

/** Scripted upstream behaviour the contract relies on, by the words of the message. */
export const CONTRACT_SCENARIO: Scenario = {
  defaults: { delayMs: 0, chunkSize: 40 },
  replies: [
    { match: 'drip', text: 'one two three four five six', chunkSize: 4, delayMs: 150 },
    { match: 'stall', text: 'This reply stops half way and never ends.', chunkSize: 5, stallAfter: 2, stored: false },
    { match: 'slowstart', firstByteDelayMs: 2500 },
    { match: 'endless', text: 'x'.repeat(400), chunkSize: 10, delayMs: 200 },
    { match: 'toomany', status: 429, message: 'Too many requests.', retryAfter: 7 },
    { match: 'overloaded', status: 503, message: 'Service Unavailable', retryAfter: 9 },
  ],
};

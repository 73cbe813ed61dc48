/**
 * Why the proxy refused a request, noted on the refusal's Response where it is made, so that the one place that
 * counts requests (telemetry) can read it back without every route reporting by hand. The reasons are the wire
 * contract's names: a key of `REFUSALS`, `limit` (a 429 of `LIMIT_MESSAGE`), `validation` (a 422 of `VALIDATION`),
 * or `upstreamFailed` for a service error passed through (its status, such as the 402 of an exhausted quota, goes
 * with it).
 */
import type { REFUSALS, VALIDATION } from '../../protocol/contract.js';

/** A refusal's reason and the facts that go with it, as OpenTelemetry attributes (bounded values only). */
export interface Refusal {
  reason: keyof typeof REFUSALS | 'limit' | 'validation';
  /** A limit's action. */
  action?: 'message' | 'conversation' | 'action';
  /** A validation's first failing field and rule. */
  field?: string;
  rule?: keyof typeof VALIDATION;
}

/** Keyed by the Response itself: it is dropped with it, and a Response is never shared between requests. */
const REFUSED = new WeakMap<Response, Refusal>();

/** Notes why `response` refuses; returns it. */
export function noteRefusal(response: Response, refusal: Refusal): Response {
  REFUSED.set(response, refusal);
  return response;
}

/** Why `response` refuses, when the proxy noted it. */
export function refusalOf(response: Response): Refusal | undefined {
  return REFUSED.get(response);
}

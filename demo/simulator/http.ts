/** Response helpers that speak the Cody API's envelopes (cody-api.md §0 and §3). */
import { readText } from '../../src/proxy/core/respond';

export const QUOTA_MESSAGE =
  'You have reached the message limit for last 30 days, please wait till tomorrow or upgrade your plan.';

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** The service's error envelope: `{"message": "..."}`. */
export function error(status: number, message: string): Response {
  return json({ message }, status);
}

/** Field errors, keyed by the (possibly dotted) input name. */
export type FieldErrors = Record<string, string[]>;

/**
 * A Laravel-style 422: the top-level message is the first error, followed by "(and N more error[s])" when
 * there are more.
 */
export function validationError(errors: FieldErrors): Response {
  const all = Object.values(errors).flat();
  const more = all.length - 1;
  const suffix = more > 0 ? ` (and ${more} more error${more === 1 ? '' : 's'})` : '';
  return json({ message: `${all[0] ?? 'The given data was invalid.'}${suffix}`, errors }, 422);
}

/** Laravel's attribute humanising: `bot_id` → `bot id`. Dotted array keys are left as they are. */
export function attribute(field: string): string {
  return field.includes('.') ? field : field.replace(/_/g, ' ');
}

/** The largest request body the simulator reads. */
const MAX_BODY_BYTES = 1_000_000;

/** Reads a JSON object body. Malformed or non-object JSON reads as `{}`, as Laravel's request input does. */
export async function readBody(request: Request): Promise<Record<string, unknown> | Response> {
  const text = await readText(request, MAX_BODY_BYTES);
  if (text === null) return error(413, 'The request body is too large.');
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

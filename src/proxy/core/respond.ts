/** Response helpers in the service's own envelope, so the widget has one error model whoever refused. */
import { BASE_HEADERS, BUSY_RETRY_SECONDS, FIELDS, REFUSALS } from '../../protocol/contract.js';
import type { IncomingRequest } from './call.js';
import { noteRefusal } from './refusal.js';

export { BASE_HEADERS } from '../../protocol/contract.js';

/** A JSON response. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...BASE_HEADERS, 'content-type': 'application/json' },
  });
}

/** An error in the service's envelope: `{"message": "..."}`. */
function fail(status: number, message: string): Response {
  return json({ message }, status);
}

/** One of the contract's refusals. */
export function refuse(name: keyof typeof REFUSALS): Response {
  return noteRefusal(fail(REFUSALS[name].status, REFUSALS[name].message), { reason: name });
}

/** A 405 in the service's envelope, naming the methods the route takes. */
export function notAllowed(allow: string): Response {
  const response = refuse('methodNotAllowed');
  response.headers.set('allow', allow);
  return response;
}

/** The 503 of a proxy that cannot take the request now (a full house, a limit store that cannot answer). */
export function busy(): Response {
  const response = refuse('busy');
  response.headers.set('retry-after', String(BUSY_RETRY_SECONDS));
  return response;
}

/**
 * Re-wraps an upstream response: status and body pass through, but of its headers only the content type does
 * (no cookies, no server or tracing headers), and on a 429 or 503 the service's `Retry-After`, so the widget waits
 * as long as the service asks. A non-JSON error page becomes a JSON error with the same status.
 */
export async function passThrough(upstream: Response): Promise<Response> {
  // Stryker disable next-line StringLiteral: no content type and any text without `json` take the same branch.
  const type = upstream.headers.get('content-type') ?? '';
  const retryAfter = retryAfterOf(upstream);
  const extra: Record<string, string> = retryAfter ? { 'retry-after': retryAfter } : {};
  if (!type.includes('json')) {
    await upstream.body?.cancel();
    const response = upstream.ok
      ? refuse('unexpectedAnswer')
      : noteRefusal(fail(upstream.status, REFUSALS.upstreamFailed.message), { reason: 'upstreamFailed' });
    for (const [name, value] of Object.entries(extra)) response.headers.set(name, value);
    return response;
  }
  const response = new Response(upstream.body, {
    status: upstream.status,
    headers: { ...BASE_HEADERS, 'content-type': type, ...extra },
  });
  // The service's own refusal (its 402 quota, a 429): counted under its status.
  return upstream.ok ? response : noteRefusal(response, { reason: 'upstreamFailed' });
}

/**
 * The service's `Retry-After` on a 429 or 503, when it is a number of seconds or an HTTP date; anything else (a
 * header that could smuggle text to the page) is dropped.
 */
function retryAfterOf(upstream: Response): string | undefined {
  if (upstream.status !== 429 && upstream.status !== 503) return undefined;
  // Stryker disable next-line MethodExpression,StringLiteral: Headers trim already; a missing value matches neither.
  const value = upstream.headers.get('retry-after')?.trim() ?? '';
  if (/^\d{1,10}$/.test(value)) return value;
  return /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value) ? value : undefined;
}

/** The largest request body the proxy reads (a message is ≤ 2000 characters; focus ids ≤ 1000). */
export const MAX_BODY_BYTES = FIELDS.bodyMaxBytes;

/**
 * Reads a request body as text, giving up (null) as soon as it passes `limit` bytes, whether declared by
 * `content-length` or found while streaming: an oversized body is never buffered whole.
 */
export async function readText(request: IncomingRequest, limit: number): Promise<string | null> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) return null;
  const reader = request.body?.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
    size += chunk.value.byteLength;
    if (size > limit) {
      await reader?.cancel();
      return null;
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text + decoder.decode();
}

/** The deepest JSON the proxy parses: its bodies are flat objects with at most a list of ids. */
const MAX_JSON_DEPTH = FIELDS.jsonDepthMax;

/**
 * Reads a JSON object body: `application/json` (415 otherwise), readable (400), within the size limit (413), no
 * deeper than the widget ever sends (400), and an object (400). A Response when it is refused.
 */
export async function readJson(request: IncomingRequest): Promise<Record<string, unknown> | Response> {
  // Stryker disable next-line StringLiteral: no content type and any other text are both refused with a 415.
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) return refuse('unsupportedType');
  // A body the client breaks off or garbles (a bad chunked encoding) is the client's fault: a 400, not a 502.
  const text = await readText(request, MAX_BODY_BYTES).catch(() => undefined);
  if (text === undefined) return refuse('unreadableBody');
  if (text === null) return refuse('bodyTooLarge');
  if (jsonDepth(text) > MAX_JSON_DEPTH) return refuse('tooDeep');
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // Falls through to the 400 below.
  }
  return refuse('notAnObject');
}

/** The deepest nesting of brackets outside strings, found without parsing (so a hostile body cannot recurse). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  // Stryker disable next-line EqualityOperator: text[text.length] is undefined and matches no branch.
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') deepest = Math.max(deepest, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return deepest;
}

/**
 * The value at `path` in untrusted JSON (an upstream body), or undefined: own keys of plain objects only, read
 * without casts.
 */
export function field(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    const plain = typeof current === 'object' && current !== null && !Array.isArray(current);
    current = plain ? (Object.getOwnPropertyDescriptor(current, key)?.value as unknown) : undefined;
  }
  return current;
}

import type { RequestTelemetry } from './telemetry.js';

/**
 * What the proxy reads of an incoming request. A fetch `Request` is one; the Node adapter hands over a lighter object
 * with the same members, since on Node constructing a `Request` costs more than the gate's own checks (it parses the
 * URL again, copies the headers, and links its own abort signal to the one given).
 */
export interface IncomingRequest extends Pick<Request, 'method' | 'url' | 'headers' | 'signal'> {
  body: ReadableStream<Uint8Array> | null;
}

/** A request on its way through the proxy, with what the proxy has learnt of it on arrival. */
export interface Call {
  request: IncomingRequest;
  url: URL;
  /** The client's address, for per-IP limits. */
  ip: string;
  /** Its span and route template, for the telemetry of the calls it makes. */
  seen: RequestTelemetry;
  /** The verified person's key (identity.ts), when the request speaks for a signed-in person; absent: anonymous. */
  person?: string;
}

/** `request` as a fetch `Request` (itself, when it is one), for a hook of the site's that takes one. */
export function asFetchRequest(request: IncomingRequest): Request {
  if (request instanceof Request) return request;
  const { url, method, headers, signal, body } = request;
  // Required by fetch for a streamed body; the body stream is handed over, not copied.
  return new Request(url, { method, headers, signal, body, ...(body ? { duplex: 'half' } : {}) } as RequestInit);
}

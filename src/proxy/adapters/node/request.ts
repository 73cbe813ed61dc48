import type { IncomingMessage } from 'node:http';
import type { IncomingRequest } from '../../core/call.js';
import { notAllowed, refuse } from '../../core/respond.js';
import { ROUTE_METHODS } from '../../../protocol/contract.js';
import { webBody } from './web-body.js';

/** Methods fetch's Request refuses to represent (TRACE, CONNECT, TRACK): they never reach the handler. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
/**
 * A Host header that is a host name (dot-separated labels) or a bracketed IPv6 address, with an optional port, and
 * nothing else; at most 255 characters. The URL parser then checks the address and the port's range.
 */
const HOST =
  /^(?:(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\.)*[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** A node request as the proxy reads it, and its URL; or the refusal of one a fetch Request could not carry. */
export function readRequest(
  req: IncomingMessage,
  signal: AbortSignal,
): { request: IncomingRequest; url: URL } | Response {
  // Stryker disable next-line StringLiteral: node:http sets the method of every request it hands over.
  const method = req.method ?? 'GET';
  if (FORBIDDEN_METHODS.has(method.toUpperCase())) return notAllowed([...ROUTE_METHODS, 'OPTIONS'].join(', '));
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  // SECURITY: a malformed or repeated Host must neither rewrite the URL nor pass for another host (RFC 9112 §3.2:
  // a 400). Only HTTP/1.0 may leave it out (old health checks do); it then stands for localhost.
  const host = req.headers.host ?? (req.httpVersion === '1.0' ? 'localhost' : '');
  const hosts = req.rawHeaders.filter((name, i) => i % 2 === 0 && name.toLowerCase() === 'host').length;
  if (hosts > 1 || host.length > 255 || !HOST.test(host) || !URL.canParse(`${protocol}://${host}`))
    return refuse('malformedHost');
  let target: URL;
  try {
    // An absolute-form target (`GET http://other/x HTTP/1.1`) keeps its path and query only.
    target = new URL(req.url ?? '/', 'http://localhost');
  } catch {
    return refuse('malformedTarget');
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    if (typeof value === 'string') headers.append(name, value);
    else for (const item of value) headers.append(name, item);
  }
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // As a fetch Request spells it (`href`: a lowercase host, a normalised path), so a handler sees the same URL either way.
  const url = new URL(`${protocol}://${host}${target.pathname}${target.search}`);
  return { request: { method, url: url.href, headers, signal, body: hasBody ? webBody(req) : null }, url };
}

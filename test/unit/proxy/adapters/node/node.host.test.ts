import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProxyHandler } from '../../../../../src/proxy/core/proxy';
import type * as Node from '../../../../../src/proxy/adapters/node/node';
import { REFUSALS } from '../../../../../src/protocol/contract';
import { rawRequest } from '../../../../contract/http';

/**
 * The Node adapter's Host pattern and refused methods at their edges: a label of 63
 * characters and one of 64, a Host of 255 characters and one of 256, each character class and the port. One more
 * character, a wider class or a lost anchor fails a test here. Every malformed Host the adapter refuses is in the one
 * table below (node.test.ts holds the adapter's other answers).
 */

// Imported afresh for each test: the pattern and the method list are built when the module loads, and a runner that
// keeps modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not
// once per file, so that Stryker counts the load towards the test that checks it.
let node: typeof Node;
beforeEach(async () => {
  vi.resetModules();
  node = await import('../../../../../src/proxy/adapters/node/node');
});

let close: (() => void) | undefined;
afterEach(() => {
  close?.();
  close = undefined;
});

/** The adapter around `handler`, with `before` run on each request first; resolves to its base URL. */
async function serve(handler: ProxyHandler, before?: (req: IncomingMessage) => void): Promise<string> {
  const listener = node.toNodeListener(handler);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    before?.(req);
    void listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => {
    server.closeAllConnections();
    server.close();
  };
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const echoUrl: ProxyHandler = async (request) => Response.json({ url: request.url });
/** 63 characters, the longest a label may be (RFC 1035 §2.3.4). */
const LABEL = 'a'.repeat(63);

describe('a Host the adapter takes', () => {
  it.each([
    ['ab.cd', 'http://ab.cd/p'],
    ['a.b.test', 'http://a.b.test/p'],
    ['Z9_.test', 'http://z9_.test/p'],
    ['_a.test', 'http://_a.test/p'],
    [`${LABEL}.test`, `http://${LABEL}.test/p`],
    [`a.${LABEL}`, `http://a.${LABEL}/p`],
    [`${'a.'.repeat(125)}tests`, `http://${'a.'.repeat(125)}tests/p`],
    ['a.test:8', 'http://a.test:8/p'],
    ['a.test:8080', 'http://a.test:8080/p'],
    ['x.y', 'http://x.y/p'],
    ['[fe80::1]', 'http://[fe80::1]/p'],
    ['[::FFFF]', 'http://[::ffff]/p'],
    ['[::ffff:1.2.3.4]', 'http://[::ffff:102:304]/p'],
  ])('reads Host %s as the URL %s', async (host, expected) => {
    const url = await serve(echoUrl);
    const { status, text } = await rawRequest(url, `GET /p HTTP/1.1\nHost: ${host}\nConnection: close`);
    expect(status).toBe(200);
    expect(text).toContain(JSON.stringify({ url: expected }));
  });

  it('counts only header names as Host headers, not a value that reads "host"', async () => {
    const url = await serve(echoUrl);
    const { text } = await rawRequest(url, `GET /p HTTP/1.1\nHost: a.test\nX-Name: Host\nConnection: close`);
    expect(text).toContain(JSON.stringify({ url: 'http://a.test/p' }));
  });

  it('names the scheme https when the socket is encrypted', async () => {
    const url = await serve(echoUrl, (req) => Object.assign(req.socket, { encrypted: true }));
    const { text } = await rawRequest(url, `GET /p HTTP/1.1\nHost: a.test\nConnection: close`);
    expect(text).toContain(JSON.stringify({ url: 'https://a.test/p' }));
  });
});

describe('a Host the adapter refuses', () => {
  // SECURITY: a Host that is not one host and port must not reach the handler, nor become a 500 (RFC 9112 §3.2).
  it.each([
    ['empty', 'Host: '],
    ['only spaces', 'Host:    '],
    ['a space inside', 'Host: a b'],
    ['a tab inside', 'Host: a\tb'],
    ['an unclosed bracket', 'Host: [::1'],
    ['not an IPv6 address', 'Host: [::g]'],
    ['empty brackets', 'Host: []'],
    ['two ports', 'Host: host:80:extra'],
    ['an empty port', 'Host: a.test:'],
    ['a port past 65535', 'Host: a.test:99999'],
    ['user info', 'Host: @evil'],
    ['user info before a host', 'Host: user@a.test'],
    ['a path and query', 'Host: evil.test/x?'],
    ['a fragment', 'Host: a#b'],
    ['a backslash', 'Host: a\\b'],
    ['percent-encoding', 'Host: a%2e.test'],
    ['empty labels', 'Host: ..'],
    ['a label starting with a hyphen', 'Host: -a.test'],
    ['a label of 64 characters', `Host: ${'a'.repeat(64)}.test`],
    ['over 255 characters', `Host: ${'a.'.repeat(128)}test`],
    ['very long', `Host: ${'a'.repeat(8000)}`],
    ['non-ASCII', 'Host: exämple.test'],
    ['duplicated', 'Host: a.test\nHost: b.test'],
    ['duplicated, same value', 'Host: a.test\nhost: a.test'],
    ['a label of 64 characters last', `Host: a.${'a'.repeat(64)}`],
    ['256 characters', `Host: ${'a.'.repeat(125)}tests6`],
    ['a label ending with a hyphen', 'Host: a-.test'],
    ['a port of six digits', 'Host: a.test:000080'],
    ['a port that is not digits', 'Host: a.test:8x'],
    ['something before brackets', 'Host: a[::1]'],
    ['something after brackets', 'Host: [::1]a'],
    ['a bracketed non-address', 'Host: [::1/]'],
  ])('answers 400 in the envelope to a Host with %s, without calling the handler', async (_what, line) => {
    let called = false;
    const url = await serve(async () => {
      called = true;
      return new Response('never');
    });
    const { status, text } = await rawRequest(url, `GET /askbox/health HTTP/1.1\n${line}\nConnection: close`);
    expect([status, called]).toEqual([400, false]);
    expect(text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase()).toContain('content-type: application/json');
    expect(text).toContain('{"message":"The Host header is malformed."}');
  });
});

describe('a request target', () => {
  it('refuses a request target the URL parser cannot read, before the handler, in the envelope', async () => {
    let called = false;
    const url = await serve(async () => {
      called = true;
      return new Response('never');
    });
    const { status, text } = await rawRequest(url, `GET http://[/p HTTP/1.1\nHost: a.test\nConnection: close`);
    expect([status, called]).toEqual([400, false]);
    expect(text).toContain(JSON.stringify({ message: REFUSALS.malformedTarget.message }));
  });
});

describe('a method', () => {
  it('refuses TRACE before the handler', async () => {
    let called = false;
    const url = await serve(async () => {
      called = true;
      return new Response('never');
    });
    const { status } = await rawRequest(url, `TRACE /p HTTP/1.1\nHost: a.test\nConnection: close`);
    expect([status, called]).toEqual([405, false]);
  });

  it('hands HEAD to the handler without a body', async () => {
    const url = await serve(async (request) => new Response(null, { headers: { 'x-method': request.method } }));
    const { status, text } = await rawRequest(url, `HEAD /p HTTP/1.1\nHost: a.test\nConnection: close`);
    expect(status).toBe(200);
    expect(text.toLowerCase()).toContain('x-method: head');
  });
});

import { createServer, request as httpRequest, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProxyHandler } from '../../../src/proxy/core/proxy';
import { toNodeListener } from '../../../src/proxy/adapters/node/node';
import { rawRequest } from '../../contract/http';

/** The Node adapter alone, around small handlers, so each of its duties shows on the wire. */
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(handler: ProxyHandler, options: ServerOptions = {}) {
  const server = createServer(options, toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const head = (text: string) => text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase();
const echoUrl: ProxyHandler = async (request) => Response.json({ url: request.url });

describe('toNodeListener', () => {
  it('refuses TRACE before the handler, in the envelope, with Allow and the security headers', async () => {
    let called = false;
    const url = await serve(async () => {
      called = true;
      return new Response('never');
    });
    const { status, text } = await rawRequest(url, `TRACE /askbox/x HTTP/1.1\nHost: a.test\nConnection: close`);
    expect([status, called]).toEqual([405, false]);
    const headers = head(text);
    for (const line of [
      'allow: get, post, delete, options',
      'content-type: application/json',
      'cache-control: no-store',
      'x-content-type-options: nosniff',
    ])
      expect(headers).toContain(line);
  });

  it.each([
    ['a.test', 'http://a.test/p'],
    ['A.Test.', 'http://a.test./p'],
    ['a.test:8080', 'http://a.test:8080/p'],
    ['127.0.0.1:65535', 'http://127.0.0.1:65535/p'],
    ['[::1]:8080', 'http://[::1]:8080/p'],
    ['my_host-1', 'http://my_host-1/p'],
  ])('reads Host %s as the URL %s', async (host, expected) => {
    const url = await serve(echoUrl);
    const { text } = await rawRequest(url, `GET /p HTTP/1.1\nHost: ${host}\nConnection: close`);
    expect(text).toContain(JSON.stringify({ url: expected }));
  });

  it('answers 400 to an HTTP/1.1 request without Host (Node itself, or the adapter in the envelope)', async () => {
    const strict = await serve(echoUrl);
    expect((await rawRequest(strict, 'GET /p HTTP/1.1\nConnection: close')).status).toBe(400);
    const lenient = await serve(echoUrl, { requireHostHeader: false });
    const { status, text } = await rawRequest(lenient, 'GET /p HTTP/1.1\nConnection: close');
    expect(status).toBe(400);
    expect(text).toContain('{"message":"The Host header is malformed."}');
    // HTTP/1.0 may leave Host out (old load-balancer health checks do).
    expect((await rawRequest(lenient, 'GET /p HTTP/1.0')).text).toContain('{"url":"http://localhost/p"}');
  });

  it('answers 500 in the envelope when the handler throws and no onError is given', async () => {
    const url = await serve(async () => {
      throw new Error('boom');
    });
    const { status, text } = await rawRequest(url, `GET / HTTP/1.1\nHost: a.test\nConnection: close`);
    expect(status).toBe(500);
    expect(head(text)).toContain('content-type: application/json');
    expect(text).toContain('{"message":"Internal error."}');
  });

  it('sends every Set-Cookie of a response, not one joined line', async () => {
    const url = await serve(async () => {
      const headers = new Headers();
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      return new Response('ok', { headers });
    });
    const { text } = await rawRequest(url, `GET / HTTP/1.1\nHost: a.test\nConnection: close`);
    expect(head(text)).toContain('set-cookie: a=1\r\nset-cookie: b=2');
  });

  it('sends an event stream’s headers at once, and aborts and cancels it when the visitor leaves', async () => {
    let aborted = false;
    let cancelled = false;
    const url = await serve(async (request) => {
      request.signal.addEventListener('abort', () => (aborted = true));
      const body = new ReadableStream<Uint8Array>({
        cancel: () => {
          cancelled = true;
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    const { port } = new URL(url);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/' }, (res) => {
        expect(res.headers['content-type']).toBe('text/event-stream');
        res.destroy();
        resolve();
      });
      req.on('error', reject);
      req.end();
    });
    await expect.poll(() => [aborted, cancelled]).toEqual([true, true]);
  });

  it('does not abort a request whose response was sent in full', async () => {
    let signal: AbortSignal | undefined;
    const url = await serve(async (request) => {
      signal = request.signal;
      return new Response('done');
    });
    await fetch(url);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(signal?.aborted).toBe(false);
  });

  it('leaves no listener behind when a slow client makes it wait for the socket many times', async () => {
    const warnings: Error[] = [];
    const record = (warning: Error) => void warnings.push(warning);
    process.on('warning', record);
    const block = new Uint8Array(64 * 1024);
    let sent = 0;
    const url = await serve(
      async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull: (controller) => (sent++ < 100 ? controller.enqueue(block) : controller.close()),
          }),
        ),
    );
    const { port } = new URL(url);
    const received = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/' }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          // Read a little at a time, so the server's writes fill the socket again and again.
          res.pause();
          setTimeout(() => res.resume(), 1);
        });
        res.on('end', () => resolve(bytes));
      });
      req.on('error', reject);
      req.end();
    });
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', record);
    expect(received).toBe(100 * block.length);
    expect(warnings.map((warning) => warning.message)).toEqual([]);
  });

  it('cancels the body when the client left before the handler answered', async () => {
    let started = false;
    let cancelled = false;
    const url = await serve(
      (request) =>
        new Promise((resolve) => {
          started = true;
          // The handler answers after the abort, with a stream that would never end by itself.
          request.signal.addEventListener('abort', () =>
            setTimeout(() => resolve(new Response(new ReadableStream({ cancel: () => void (cancelled = true) }))), 20),
          );
        }),
    );
    const { port } = new URL(url);
    const req = httpRequest({ host: '127.0.0.1', port, path: '/' });
    req.on('error', () => undefined);
    req.end();
    await expect.poll(() => started).toBe(true);
    req.destroy();
    await expect.poll(() => cancelled).toBe(true);
  });
});

import {
  createServer,
  request as httpRequest,
  type ServerOptions,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProxyHandler } from '../../../../../src/proxy/core/proxy';
import { toNodeListener } from '../../../../../src/proxy/adapters/node/node';
import { rawRequest } from '../../../../contract/http';
import { nodeFetch } from '../../../../../src/proxy/adapters/node/node-fetch';
import { watchBody } from '../../../../../src/proxy/core/upstream';
import { connect, createServer as createHttp2Server, type Http2Server } from 'node:http2';

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
      'allow: delete, get, post, options',
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
    // The server closes every connection and waits until they are gone: a request to abort would be aborted by then.
    await close?.();
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

/** What a case below started besides the adapter: closed after each. */
const closers: (() => void)[] = [];
afterEach(() => {
  for (const stop of closers.splice(0)) stop();
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  closers.push(() => (server.closeAllConnections(), server.close()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A GET on a raw node:http client: the status, the bytes read, and whether the body ended whole. */
function read(url: string) {
  return new Promise<{ status: number; bytes: number; whole: boolean }>((resolve) => {
    const req = httpRequest(url, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, whole: res.complete }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, bytes, whole: false }));
    });
    // A response cut before its headers are out is a socket hang-up.
    req.on('error', () => resolve({ status: 0, bytes: 0, whole: false }));
    req.end();
  });
}

/**
 * The client's address handed to the handler, a target no URL can hold, a body that breaks off or outruns a slow
 * visitor, and a service that breaks off a relayed stream.
 */
describe('toNodeListener at its edges', () => {
  it('gives the handler the client’s address', async () => {
    const url = await serve(async (_request, context) => Response.json(context));
    const { text } = await rawRequest(url, 'GET /p HTTP/1.1\nHost: a.test\nConnection: close');
    expect(text).toContain(JSON.stringify({ clientIp: '127.0.0.1' }));
  });

  it('answers 400 in the envelope to a target no URL can hold, without calling the handler', async () => {
    let called = false;
    const url = await serve(async () => {
      called = true;
      return new Response('never');
    });
    const { status, text } = await rawRequest(url, 'GET //[x HTTP/1.1\nHost: a.test\nConnection: close');
    expect([status, called]).toEqual([400, false]);
    expect(text).toContain('{"message":"The request target is malformed."}');
  });

  it('ends the response abruptly when the body breaks off', async () => {
    const url = await serve(async () => {
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull: (controller) => {
          if (sent) return controller.error(new Error('cut'));
          sent = true;
          controller.enqueue(new TextEncoder().encode('part'));
        },
      });
      return new Response(body);
    });
    expect((await read(url)).whole).toBe(false);
  });

  it('pulls no more of a body than a visitor who does not read can hold', async () => {
    const block = new Uint8Array(64 * 1024);
    let pulled = 0;
    const url = await serve(
      async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull: (controller) => (pulled++ < 400 ? controller.enqueue(block) : controller.close()),
          }),
        ),
    );
    const { port } = new URL(url);
    const held = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/' }, (res) => {
        // The visitor reads nothing for a while: the socket fills, and the adapter must wait for it to drain.
        res.pause();
        setTimeout(() => {
          res.destroy();
          resolve(pulled);
        }, 300);
      });
      req.on('error', reject);
      req.end();
    });
    expect(held).toBeLessThan(200);
  });

  it('ends a relayed stream abruptly, at once, when the service breaks it off', async () => {
    const service = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      setTimeout(() => res.destroy(), 50);
    });
    const url = await serve(async (incoming) => {
      const response = await nodeFetch(service, { redirect: 'manual', signal: incoming.signal });
      const deadlines = { firstMs: 10_000, idleMs: 10_000, totalMs: 20_000 };
      return new Response(watchBody(response.body!, deadlines, { onTimeout: () => undefined }), {
        headers: { 'content-type': 'text/event-stream' },
      });
    });
    const started = Date.now();
    const { status, whole } = await read(url);
    expect([status, whole]).toEqual([200, false]);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

/** An HTTP/2 request's pseudo-headers (`:method`, `:path`, …) are no headers of the fetch Request the handler gets. */
describe("toNodeListener under node:http2's compatibility API", () => {
  it('hands the handler an HTTP/2 request without its pseudo-headers', async () => {
    const seen: { url: string; headers: [string, string][] }[] = [];
    const listener = toNodeListener(async (request) => {
      seen.push({ url: request.url, headers: [...request.headers] });
      return new Response('ok');
    });
    const server: Http2Server = createHttp2Server();
    // The compatibility API's request and response stand in for node:http's, as Express would take them.
    server.on(
      'request',
      (req, res) => void listener(req as unknown as IncomingMessage, res as unknown as ServerResponse),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    const authority = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const session = connect(`http://${authority}`);
    closers.push(() => session.close());

    const stream = session.request({ ':path': '/x?y=1', host: authority, 'x-one': '1' });
    let body = '';
    stream.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    const status = await new Promise<unknown>((resolve) =>
      stream.once('response', (headers) => resolve(headers[':status'])),
    );
    await new Promise((resolve) => stream.once('end', resolve));

    expect([status, body]).toEqual([200, 'ok']);
    expect(seen).toEqual([
      {
        url: `http://${authority}/x?y=1`,
        headers: [
          ['host', authority],
          ['x-one', '1'],
        ],
      },
    ]);
  });
});

/** A body that is no event stream goes out with its first chunk, in one write, so its headers wait for that chunk. */
describe('toNodeListener: when the headers go out', () => {
  it('sends the headers of a body that is no event stream with its first chunk, not before', async () => {
    let late: ReadableStreamDefaultController<Uint8Array> | undefined;
    // With no high-water mark, the body is pulled only once the adapter reads it: after it has written the head.
    const waiting: { resolve?: () => void } = {};
    const pulled = new Promise<void>((resolve) => (waiting.resolve = resolve));
    const listener = toNodeListener(async () => {
      const body = new ReadableStream<Uint8Array>(
        { start: (controller) => void (late = controller), pull: () => waiting.resolve?.() },
        { highWaterMark: 0 },
      );
      return new Response(body, { headers: { 'content-type': 'text/plain' } });
    });
    const server = createServer(listener);
    closers.push(() => (server.closeAllConnections(), server.close()));
    const sockets: Socket[] = [];
    server.on('connection', (socket: Socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

    let released = false;
    let headersAfterRelease: boolean | undefined;
    const answered = new Promise<IncomingMessage>((resolve) => {
      httpRequest(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, (res) => {
        headersAfterRelease = released;
        resolve(res);
      }).end();
    });
    await pulled;
    // The adapter waits for the first chunk: not one byte of the head has been handed to the socket.
    expect(sockets.map((socket) => socket.bytesWritten)).toEqual([0]);
    released = true;
    late?.enqueue(new TextEncoder().encode('late'));
    late?.close();
    const res = await answered;
    let text = '';
    for await (const chunk of res) text += String(chunk);
    expect(text).toBe('late');
    expect(headersAfterRelease).toBe(true);
  });
});

import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProxyHandler } from '../../../src/proxy/core/proxy';
import { toNodeListener } from '../../../src/proxy/adapters/node/node';
import { nodeFetch } from '../../../src/proxy/adapters/node/node-fetch';
import { watchBody } from '../../../src/proxy/core/upstream';
import { rawRequest } from '../../contract/http';

/**
 * The Node adapter where its other tests leave it open (Stryker's run 7, issue 18): the client's address handed to
 * the handler, a target no URL can hold, a body that breaks off or outruns a slow visitor, and a service that breaks
 * off a relayed stream.
 */
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  closers.push(() => (server.closeAllConnections(), server.close()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const serve = (handler: ProxyHandler) => listen(toNodeListener(handler));

/** A GET on a raw node:http client: the status, the bytes read, and whether the body ended whole. */
function read(url: string) {
  return new Promise<{ status: number; bytes: number; whole: boolean }>((resolve) => {
    const req = request(url, (res) => {
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

describe('toNodeListener', () => {
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
      const req = request({ host: '127.0.0.1', port, path: '/' }, (res) => {
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
      return new Response(
        watchBody(response.body!, deadlines, () => undefined),
        {
          headers: { 'content-type': 'text/event-stream' },
        },
      );
    });
    const started = Date.now();
    const { status, whole } = await read(url);
    expect([status, whole]).toEqual([200, false]);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

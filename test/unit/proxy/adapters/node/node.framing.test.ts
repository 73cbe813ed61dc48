import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProxyHandler } from '../../../../../src/proxy/core/proxy';
import { toNodeListener } from '../../../../../src/proxy/adapters/node/node';
import { rawRequest } from '../../../../contract/http';

/** How the Node adapter frames a body that is no event stream: whole when it is one chunk, chunked otherwise. */
let close: (() => void) | undefined;
afterEach(() => close?.());

/** Serves `handler`, counting the writes the server's sockets hand to the kernel (one `_write` or `_writev` each). */
async function serve(handler: ProxyHandler) {
  const server = createServer(toNodeListener(handler));
  const counted = { writes: 0 };
  server.on('connection', (socket: Socket) => {
    const write = socket._write.bind(socket);
    const writev = socket._writev!.bind(socket);
    socket._write = (...args) => (counted.writes++, write(...args));
    socket._writev = (...args) => (counted.writes++, writev(...args));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => (server.closeAllConnections(), server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, counted };
}

const GET = 'GET /p HTTP/1.1\nHost: a.test\nConnection: close';
const head = (text: string) => text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase();

/** A body of the given chunks, each read on its own. */
function chunks(...parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    { pull: (controller) => (parts.length ? controller.enqueue(encoder.encode(parts.shift())) : controller.close()) },
    { highWaterMark: 0 },
  );
}

describe('toNodeListener framing', () => {
  it('sends a body of one chunk (a JSON answer) whole: with its length, in one write with its headers', async () => {
    const { url, counted } = await serve(async () => Response.json({ data: { stream_url: 'http://a.test/s' } }));
    const { status, text } = await rawRequest(url, GET);
    const body = JSON.stringify({ data: { stream_url: 'http://a.test/s' } });
    expect(status).toBe(200);
    expect(head(text)).toContain(`content-length: ${body.length}`);
    expect(head(text)).not.toContain('transfer-encoding');
    expect(text.endsWith(`\r\n\r\n${body}`)).toBe(true);
    expect(counted.writes).toBe(1);
  });

  it('sends an empty body with a length of zero', async () => {
    const { url } = await serve(async () => new Response(chunks()));
    const { status, text } = await rawRequest(url, GET);
    expect(status).toBe(200);
    expect(head(text)).toContain('content-length: 0');
    expect(text.endsWith('\r\n\r\n')).toBe(true);
  });

  it('sends a body of several chunks chunked, each as it comes', async () => {
    const { url } = await serve(async () => new Response(chunks('one', 'two', 'three')));
    const { text } = await rawRequest(url, GET);
    expect(head(text)).toContain('transfer-encoding: chunked');
    expect(head(text)).not.toContain('content-length');
    expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe('3\r\none\r\n3\r\ntwo\r\n5\r\nthree\r\n0\r\n\r\n');
  });
});

import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { toNodeListener } from '../../../src/proxy/adapters/node/node';

/**
 * When the Node adapter sends a response's headers (issue 18): a body that is no event stream goes out with its
 * first chunk, in one write, so its headers wait for that chunk.
 */
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

it('sends the headers of a body that is no event stream with its first chunk, not before', async () => {
  let late: ReadableStreamDefaultController<Uint8Array> | undefined;
  const listener = toNodeListener(async () => {
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void (late = controller) });
    return new Response(body, { headers: { 'content-type': 'text/plain' } });
  });
  const server = createServer(listener);
  closers.push(() => (server.closeAllConnections(), server.close()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  let headersAt = 0;
  const answered = new Promise<IncomingMessage>((resolve) => {
    request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, (res) => {
      headersAt = Date.now();
      resolve(res);
    }).end();
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  const releasedAt = Date.now();
  late?.enqueue(new TextEncoder().encode('late'));
  late?.close();
  const res = await answered;
  let text = '';
  for await (const chunk of res) text += String(chunk);
  expect(text).toBe('late');
  expect(headersAt).toBeGreaterThanOrEqual(releasedAt);
});

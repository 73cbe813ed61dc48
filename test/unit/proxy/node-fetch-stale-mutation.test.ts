import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type * as NodeFetch from '../../../src/proxy/adapters/node/node-fetch';

/**
 * `nodeFetch`'s one retry on a stale kept-alive connection, at its edges (issue 18): it retries only a connection
 * reset before the answer, and only once. The service is a raw TCP server, so each connection can fail as told.
 */

// Imported afresh for each test: the agents are built when the module loads (see node-fetch-mutation.test.ts).
let nodeFetch: typeof NodeFetch.nodeFetch;
beforeEach(async () => {
  vi.resetModules();
  ({ nodeFetch } = await import('../../../src/proxy/adapters/node/node-fetch'));
});

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok';
const manual = { redirect: 'manual' } as const;

/**
 * A service whose connections answer their first request with `OK`, then do `later` with each next one; `seen`
 * counts the requests it received.
 */
async function service(later: (socket: Socket) => void) {
  const seen = { requests: 0 };
  const server = createServer((socket) => {
    let requests = 0;
    socket.on('data', () => {
      seen.requests++;
      if (requests++ === 0) socket.write(OK);
      else later(socket);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen };
}

it('does not send a call again when a reused connection fails after the answer began', async () => {
  // The reused connection answers with headers and part of the body, then is reset.
  const { url, seen } = await service((socket) => {
    socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npart');
    setTimeout(() => socket.resetAndDestroy(), 20);
  });
  expect(await (await nodeFetch(url, manual)).text()).toBe('ok');
  const response = await nodeFetch(url, manual);
  await expect(response.text()).rejects.toThrow(new TypeError('terminated'));
  // A request sent again would have reached the service on a new connection by now.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(seen.requests).toBe(2);
});

it('does not send a call again when a reused connection answers nonsense', async () => {
  const { url, seen } = await service((socket) => socket.write('NONSENSE\r\n\r\n'));
  expect(await (await nodeFetch(url, manual)).text()).toBe('ok');
  const failed = nodeFetch(url, manual);
  await expect(failed).rejects.toThrow(new TypeError('fetch failed'));
  await expect(failed).rejects.toMatchObject({ cause: { code: expect.stringMatching(/^HPE_/) } });
  expect(seen.requests).toBe(2);
});

it('sends a call again only once, even when the retry meets a stale connection too', async () => {
  // Two kept-alive connections, each reset on its second request: the call and its retry each take one.
  const { url, seen } = await service((socket) => socket.resetAndDestroy());
  const first = await Promise.all([nodeFetch(url, manual), nodeFetch(url, manual)]);
  expect(await Promise.all(first.map((response) => response.text()))).toEqual(['ok', 'ok']);
  const failed = nodeFetch(url, manual);
  await expect(failed).rejects.toThrow(new TypeError('fetch failed'));
  await expect(failed).rejects.toMatchObject({ cause: { code: 'ECONNRESET' } });
  expect(seen.requests).toBe(4);
});

it('sends a call again when its body cannot be written to a reused connection the service closed (EPIPE)', async () => {
  // The first connection answers one request and closes at once; the next call takes it before its end is read,
  // and its large body meets the closed socket. The next connection answers.
  let connections = 0;
  const server = createServer((socket) => {
    const first = connections++ === 0;
    socket.once('data', () => (first ? socket.end(OK).destroy() : socket.write(OK)));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  expect(await (await nodeFetch(url, manual)).text()).toBe('ok');
  const response = await nodeFetch(url, { ...manual, method: 'POST', body: 'y'.repeat(8_000_000) });
  expect(await response.text()).toBe('ok');
  expect(connections).toBe(2);
});

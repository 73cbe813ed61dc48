import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { getEventListeners } from 'node:events';
import { createServer, type ClientRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as NodeFetch from '../../../../../src/proxy/adapters/node/node-fetch';

/**
 * `nodeFetch` at its edges: kept-alive connections and the one retry on a stale one,
 * the statuses without a body, the calls it leaves to `fetch`, aborts, and a body read as a web stream or cut.
 */

// Imported afresh for each test: the agents and the list of bodiless statuses are built when the module loads, and a
// runner that keeps modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first.
let nodeFetch: typeof NodeFetch.nodeFetch;
let nodeSourceOf: typeof NodeFetch.nodeSourceOf;
beforeEach(async () => {
  vi.resetModules();
  ({ nodeFetch, nodeSourceOf } = await import('../../../../../src/proxy/adapters/node/node-fetch'));
});

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A service on loopback; `ports` lists the client port of each connection it accepted. */
async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server: Server = createServer(handler);
  const ports: number[] = [];
  server.on('connection', (socket: Socket) => ports.push(socket.remotePort ?? 0));
  servers.push({ close: () => (server.closeAllConnections(), server.close()) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ports };
}

const manual = { redirect: 'manual' } as const;
/** Closes the services started so far. */
const closers = () => {
  for (const server of servers.splice(0)) server.close();
};

describe('connections', () => {
  it('keeps one connection alive across calls', async () => {
    const { url, ports } = await listen((_req, res) => res.end('ok'));
    expect(await (await nodeFetch(`${url}/a`, manual)).text()).toBe('ok');
    expect(await (await nodeFetch(new URL(`${url}/b`), manual)).text()).toBe('ok');
    expect(ports).toHaveLength(1);
  });

  it('sends a call again, once, on a new connection when the service closed the kept-alive one unanswered', async () => {
    // The first connection answers one request, then drops the next without a word; later ones answer.
    let connections = 0;
    const server = createTcpServer((socket) => {
      const first = connections++ === 0;
      let requests = 0;
      socket.on('data', () => {
        if (first && requests++ > 0) return void socket.resetAndDestroy();
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    expect(await (await nodeFetch(url, manual)).text()).toBe('ok');
    expect(await (await nodeFetch(url, manual)).text()).toBe('ok');
    expect(connections).toBe(2);
  });

  it('fails, without a retry, when a new connection is reset', async () => {
    let connections = 0;
    const server = createTcpServer((socket) => {
      connections++;
      socket.on('data', () => socket.resetAndDestroy());
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const failed = nodeFetch(url, manual);
    await expect(failed).rejects.toThrow(new TypeError('fetch failed'));
    await expect(failed).rejects.toMatchObject({ cause: { code: 'ECONNRESET' } });
    expect(connections).toBe(1);
  });
});

describe('a response', () => {
  it.each([204, 205, 304])('has no body with status %i', async (status) => {
    const { url } = await listen((_req, res) => res.writeHead(status).end());
    const response = await nodeFetch(url, manual);
    expect([response.status, response.body]).toEqual([status, null]);
  });

  it('has no body for HEAD, and its status text', async () => {
    const { url } = await listen((_req, res) => res.writeHead(201, 'Made', { 'content-length': '5' }).end());
    const response = await nodeFetch(url, { ...manual, method: 'HEAD' });
    expect([response.status, response.statusText, response.body]).toEqual([201, 'Made', null]);
  });

  it('is refused with a status past 599', async () => {
    const { url } = await listen((_req, res) => res.writeHead(600).end('x'));
    await expect(nodeFetch(url, manual)).rejects.toThrow(new TypeError('fetch failed: status 600'));
  });

  it('keeps its Node stream for the relay until it is read as a web stream, read in order then', async () => {
    const { url } = await listen((_req, res) => {
      res.write('one,');
      setTimeout(() => res.end('two'), 20);
    });
    const response = await nodeFetch(url, manual);
    const body = response.body!;
    expect(nodeSourceOf(body)).toBeDefined();
    expect(await response.text()).toBe('one,two');
    expect(nodeSourceOf(body)).toBeUndefined();
  });

  it('fails a body the service cut, as fetch does', async () => {
    const { url } = await listen((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
      setTimeout(() => res.destroy(), 20);
    });
    const response = await nodeFetch(url, manual);
    await expect(response.text()).rejects.toThrow(new TypeError('terminated'));
  });

  it('closes the connection when its body is cancelled', async () => {
    let closed = false;
    const { url } = await listen((_req, res) => {
      res.write('first');
      res.on('close', () => (closed = true));
    });
    const response = await nodeFetch(url, manual);
    await response.body!.cancel();
    await expect.poll(() => closed).toBe(true);
  });
});

describe('calls it leaves to fetch', () => {
  it('follows redirects unless told not to, and fetches other schemes and bodies', async () => {
    const { url } = await listen((req, res) =>
      req.url === '/moved' ? res.writeHead(302, { location: '/there' }).end() : res.end(`at ${req.url}`),
    );
    const followed = await nodeFetch(`${url}/moved`);
    expect([followed.status, await followed.text()]).toEqual([200, 'at /there']);
    expect(await (await nodeFetch('data:,inline', manual)).text()).toBe('inline');
    const posted = await nodeFetch(url, { ...manual, method: 'POST', body: new Uint8Array([104, 105]) });
    expect(nodeSourceOf(posted.body!)).toBeUndefined();
    expect(await posted.text()).toBe('at /');
  });
});

describe('an abort', () => {
  it('refuses an aborted call before it connects, with the reason', async () => {
    const { url, ports } = await listen((_req, res) => res.end('ok'));
    await expect(nodeFetch(url, { ...manual, signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
    expect(ports).toEqual([]);
  });

  it('fails a pending call with the reason, whatever it is', async () => {
    const { url } = await listen(() => undefined);
    const controller = new AbortController();
    const pending = nodeFetch(url, { ...manual, signal: controller.signal });
    setTimeout(() => controller.abort('left'), 20);
    await expect(pending).rejects.toBe('left');
  });
});

describe('the calls it makes itself', () => {
  it('takes a string body, or none, natively, and a Request through fetch', async () => {
    const { url } = await listen((req, res) => req.pipe(res));
    const posted = await nodeFetch(url, { ...manual, method: 'POST', body: 'text' });
    expect(nodeSourceOf(posted.body!)).toBeDefined();
    expect(await posted.text()).toBe('text');
    expect(nodeSourceOf((await nodeFetch(url, { ...manual, body: null })).body!)).toBeDefined();
    const request = await nodeFetch(new Request(url, { method: 'POST', body: 'req' }), manual);
    expect(await request.text()).toBe('req');
  });

  it('hands on exactly the headers the service sent', async () => {
    const { url } = await listen((_req, res) => res.writeHead(200, { 'x-one': '1' }).end());
    const response = await nodeFetch(url, manual);
    expect([...response.headers.keys()].sort()).toEqual([
      'connection',
      'date',
      'keep-alive',
      'transfer-encoding',
      'x-one',
    ]);
  });

  it.each([
    ['a 204', 204, 'GET'],
    ['a HEAD', 200, 'HEAD'],
    ['a status past 599', 600, 'GET'],
  ])('frees the connection after %s, for the next call', async (_what, status, method) => {
    const { url, ports } = await listen((req, res) =>
      req.url === '/first'
        ? res.writeHead(status, { 'content-length': '2' }).end(status === 204 ? '' : 'ab')
        : res.end('ok'),
    );
    await nodeFetch(`${url}/first`, { ...manual, method }).catch(() => undefined);
    expect(await (await nodeFetch(`${url}/next`, manual)).text()).toBe('ok');
    expect(ports).toHaveLength(1);
  });

  it('reads the body of a 599', async () => {
    const { url } = await listen((_req, res) => res.writeHead(599).end('edge'));
    const response = await nodeFetch(url, manual);
    expect([response.status, await response.text()]).toEqual([599, 'edge']);
  });

  it('leaves no listener on the signal once the response closed, or the call failed', async () => {
    const { url } = await listen((_req, res) => res.end('ok'));
    const signal = new AbortController().signal;
    await (await nodeFetch(url, { ...manual, signal })).text();
    await expect.poll(() => getEventListeners(signal, 'abort').length).toBe(0);
    const refused = await listen(() => undefined);
    closers();
    await expect(nodeFetch(refused.url, { ...manual, signal })).rejects.toThrow(TypeError);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});

/**
 * It retries only a connection reset before the answer, and only once. The service is a raw TCP server, so each
 * connection can fail as told.
 */
describe('nodeFetch: the one retry on a stale kept-alive connection', () => {
  const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok';

  /**
   * A service whose connections answer their first request with `OK`, then do `later` with each next one; `seen`
   * counts the requests it received.
   */
  async function service(later: (socket: Socket) => void) {
    const seen = { requests: 0 };
    const server = createTcpServer((socket) => {
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
      // The service's pacing, part of the case: the reset comes once the answer has begun.
      setTimeout(() => socket.resetAndDestroy(), 20);
    });
    // Every request node:http makes is announced on this channel as it is created, before any socket is involved.
    const made: string[] = [];
    const count = (message: unknown) => {
      const { request } = message as { request: ClientRequest };
      if (url.includes(String(request.getHeader('host')))) made.push(request.path);
    };
    subscribe('http.client.request.start', count);
    try {
      expect(await (await nodeFetch(url, manual)).text()).toBe('ok');
      const response = await nodeFetch(url, manual);
      await expect(response.text()).rejects.toThrow(new TypeError('terminated'));
      // A retry would be made as the failure is handled: at the latest in the microtasks that follow it.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      unsubscribe('http.client.request.start', count);
    }
    expect(made).toEqual(['/', '/']);
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
    const server = createTcpServer((socket) => {
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
});

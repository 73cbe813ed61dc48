import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { toNodeListener } from '../../../../../src/proxy/adapters/node/node';
import { nodeFetch } from '../../../../../src/proxy/adapters/node/node-fetch';
import { createStreamCap } from '../../../../../src/proxy/core/stream-cap';
import { watchBody, type BodyDeadlines } from '../../../../../src/proxy/core/upstream';

/**
 * The Node adapter's native relay: a body from `nodeFetch`, watched by `watchBody`, goes socket to socket. Its
 * deadlines, its cancellation when the visitor leaves and the stream cap's release hold as on the web-stream path.
 */
const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A service streaming `events` every 10 ms (then ending, or staying silent with `hang`); `closed` when cut. */
async function service(plan: { events: number; hang?: boolean; silentFirst?: boolean; event?: (i: number) => string }) {
  const event = plan.event ?? ((i: number) => `data: ${i}\n\n`);
  const state = { closed: 0 };
  const url = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    res.on('close', () => void (res.writableFinished || state.closed++));
    if (plan.silentFirst) return;
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < plan.events) res.write(event(sent++));
      else if (!plan.hang) {
        clearInterval(timer);
        res.end();
      }
    }, 10);
    res.on('close', () => clearInterval(timer));
  });
  return { url, state };
}

/** The proxy side: the service's body, watched and capped, through the Node adapter. */
async function relay(upstream: string, deadlines: BodyDeadlines, max?: number) {
  const heard: string[] = [];
  const cap = createStreamCap(max);
  const url = await listen(
    toNodeListener((incoming) =>
      cap(async () => {
        const response = await nodeFetch(upstream, { redirect: 'manual', signal: incoming.signal });
        return new Response(watchBody(response.body!, deadlines, { onTimeout: (what) => heard.push(what) }), {
          headers: { 'content-type': 'text/event-stream' },
        });
      }),
    ),
  );
  return { url, heard };
}

/** Reads a response on a raw node:http client: its status, body, and whether it ended whole. */
function read(url: string, leaveAfter?: number, agent?: Agent) {
  return new Promise<{ status: number; text: string; whole: boolean }>((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (leaveAfter !== undefined && text.split('\n\n').length > leaveAfter) {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, text, whole: false });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, whole: res.complete }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, text, whole: false }));
    });
    req.on('error', reject);
    req.end();
  });
}

const LONG = { firstMs: 5000, idleMs: 5000, totalMs: 10_000 };
/** Events of 10 bytes and more, in UTF-8: a size in decimal, or in characters, would garble the body. */
const wordy = (i: number) => `data: événement ${i}\n\n`;
/** 64 of these are 16 MiB, more than loopback's socket buffers take, so the visitor's socket fills and must drain. */
const large = (i: number) => `data: ${String(i).padEnd(256 * 1024, '.')}\n\n`;

describe('native relay', () => {
  it('relays every event, in order, and ends with the service', async () => {
    const upstream = await service({ events: 20 });
    const { url } = await relay(upstream.url, LONG);
    const { status, text, whole } = await read(url);
    expect([status, whole]).toEqual([200, true]);
    expect(text).toBe(Array.from({ length: 20 }, (_, i) => `data: ${i}\n\n`).join(''));
  });

  it('frames each event in bytes, so a kept-alive connection carries the next answer whole', async () => {
    const upstream = await service({ events: 12, event: wordy });
    const { url } = await relay(upstream.url, LONG);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set();
    agent.on('free', (socket) => sockets.add(socket));
    const expected = Array.from({ length: 12 }, (_, i) => wordy(i)).join('');
    for (const _ of [1, 2])
      expect(await read(url, undefined, agent)).toEqual({ status: 200, text: expected, whole: true });
    expect(sockets.size).toBe(1);
    agent.destroy();
  });

  // 16 MiB through two hops: on a busy machine, more than the default 5 s may pass.
  it('holds the service back while the visitor reads slowly, then relays every byte', async () => {
    const upstream = await service({ events: 64, event: large });
    const { url } = await relay(upstream.url, LONG);
    const length = await new Promise<number>((resolve, reject) => {
      request(url, (res) => {
        let bytes = 0;
        res.pause();
        setTimeout(() => res.resume(), 1000);
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
      })
        .on('error', reject)
        .end();
    });
    expect(length).toBe(64 * large(0).length);
  }, 30_000);

  it('relays to an HTTP/1.0 visitor unframed, ending with the connection', async () => {
    const upstream = await service({ events: 3 });
    const { url } = await relay(upstream.url, LONG);
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.write('GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n');
    let raw = '';
    for await (const chunk of socket) raw += String(chunk);
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(head).not.toMatch(/transfer-encoding/i);
    expect(body).toBe('data: 0\n\ndata: 1\n\ndata: 2\n\n');
  });

  it('cancels the service’s stream when the visitor leaves, and frees its place under the cap', async () => {
    const upstream = await service({ events: 1000, hang: true });
    const { url } = await relay(upstream.url, LONG, 1);
    await read(url, 2);
    await expect.poll(() => upstream.state.closed).toBe(1);
    const again = await read(url, 1);
    expect(again.status).toBe(200);
  });

  it('cancels the service’s stream when the visitor left before the handler answered', async () => {
    const upstream = await service({ events: 1000, hang: true });
    let waiting = false;
    const url = await listen(
      toNodeListener(async (incoming) => {
        const response = await nodeFetch(upstream.url, { redirect: 'manual' });
        waiting = true;
        // The handler answers only once the visitor has gone.
        await new Promise((resolve) => incoming.signal.addEventListener('abort', () => setTimeout(resolve, 20)));
        return new Response(watchBody(response.body!, LONG, { onTimeout: () => undefined }), {
          headers: { 'content-type': 'text/event-stream' },
        });
      }),
    );
    const req = request(url);
    req.on('error', () => undefined);
    req.end();
    await expect.poll(() => waiting).toBe(true);
    req.destroy();
    await expect.poll(() => upstream.state.closed).toBe(1);
  });

  it.each([
    ['no first byte in time', { silentFirst: true, events: 0 }, { firstMs: 100, idleMs: 5000, totalMs: 5000 }],
    ['the stream went silent', { events: 2, hang: true }, { firstMs: 5000, idleMs: 100, totalMs: 5000 }],
    [
      'the stream reached its maximum duration',
      { events: 1000, hang: true },
      { firstMs: 5000, idleMs: 5000, totalMs: 300 },
    ],
  ])('cuts both sides when %s, and says so', async (what, plan, deadlines) => {
    const upstream = await service(plan);
    const { url, heard } = await relay(upstream.url, deadlines, 1);
    const started = Date.now();
    const { status, whole } = await read(url);
    expect([status, whole]).toEqual([200, false]);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(heard).toEqual([what]);
    await expect.poll(() => upstream.state.closed).toBe(1);
    // The cut stream's place is free again.
    expect((await read(url, 0)).status).toBe(200);
  });
});

describe('nodeFetch', () => {
  it('answers as fetch does with redirect: manual: status, headers, a redirect as it is, no body where none goes', async () => {
    const url = await listen((req, res) => {
      if (req.url === '/moved') return void res.writeHead(302, { location: '/elsewhere' }).end();
      if (req.url === '/empty') return void res.writeHead(204).end();
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () =>
        res
          .writeHead(201, { 'content-type': 'application/json', 'x-two': ['a', 'b'] })
          .end(JSON.stringify({ method: req.method, body, key: req.headers.authorization })),
      );
    });
    const moved = await nodeFetch(`${url}/moved`, { redirect: 'manual' });
    expect([moved.status, moved.headers.get('location'), await moved.text()]).toEqual([302, '/elsewhere', '']);
    expect((await nodeFetch(`${url}/empty`, { redirect: 'manual' })).body).toBeNull();
    const posted = await nodeFetch(`${url}/x`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: '{"é":1}',
      redirect: 'manual',
    });
    expect([posted.status, posted.headers.get('x-two')]).toEqual([201, 'a, b']);
    expect(await posted.json()).toEqual({ method: 'POST', body: '{"é":1}', key: 'Bearer k' });
  });

  it('fails as fetch does: a TypeError for a refused connection, the reason for an abort', async () => {
    const closed = await listen(() => undefined);
    servers.splice(0).forEach((server) => server.close());
    await expect(nodeFetch(closed, { redirect: 'manual' })).rejects.toThrow(TypeError);
    const silent = await listen(() => undefined);
    const controller = new AbortController();
    const pending = nodeFetch(silent, { redirect: 'manual', signal: controller.signal });
    controller.abort(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
  });
});

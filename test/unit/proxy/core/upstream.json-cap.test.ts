import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../../../demo/simulator/index';
import { createProxy } from '../../../../src/proxy/core/proxy';

/**
 * A service that answers a JSON call with 100 MB, over a real socket: the proxy answers 502 in the envelope, and
 * reads (so the service gets to send) hardly more than the cap, whatever the body's size.
 */
let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

const TOTAL = 100 * 1024 * 1024;

async function hugeService(declare: boolean) {
  const sent = { bytes: 0 };
  const block = Buffer.alloc(64 * 1024, 0x20);
  server = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(declare ? { 'content-length': String(TOTAL) } : {}),
    });
    const more = () => {
      while (sent.bytes < TOTAL && !res.destroyed) {
        sent.bytes += block.length;
        if (!res.write(block)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, sent };
}

it.each([
  ['declared', true],
  ['chunked', false],
])('a 100 MB JSON answer (%s) is a 502 in the envelope, with memory bounded', async (_what, declare) => {
  const service = await hugeService(declare);
  const proxy = createProxy({
    apiKey: 'key',
    botIds: [DEMO_BOT_ID],
    upstream: service.url,
    secret: 'json-cap-test-secret-0123456789',
    limits: false,
  });
  const before = process.memoryUsage();
  const response = await proxy(
    new Request('http://127.0.0.1/askbox/conversations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
    }),
  );
  expect(response.status).toBe(502);
  expect(await response.json()).toEqual({ message: 'The chat service sent an unexpected response.' });
  const after = process.memoryUsage();
  expect(service.sent.bytes).toBeLessThan(TOTAL / 4);
  expect(after.rss - before.rss).toBeLessThan(32 * 1024 * 1024);
});

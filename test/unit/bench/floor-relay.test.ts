import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { createSimulator, DEMO_BOT_ID } from '../../../demo/simulator/index';
import { toNodeListener } from '../../../src/proxy/adapters/node/node';
import { floorRelay } from '../../bench/floor-relay';

/**
 * The load benchmark's floor (test/bench/floor-relay.ts) relays the simulator's whole exchanges: a broken floor
 * would report Node's cost for streams that never arrived.
 */
const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

it('relays a conversation, a message and its reply stream, whose URL points back at the floor', async () => {
  const key = 'floor-key';
  const simulator = createSimulator({ apiKey: key, scenario: { defaults: { delayMs: 1, chunkSize: 3 } } });
  const floor = await listen(floorRelay(await listen(toNodeListener(simulator.handle))));
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const created = await fetch(`${floor}/api/v1/conversations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'floor', bot_id: DEMO_BOT_ID }),
  });
  expect(created.status).toBe(200);
  const { data } = (await created.json()) as { data: { id: string } };
  const asked = await fetch(`${floor}/api/v1/messages/stream`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ content: 'shipping?', conversation_id: data.id, redirect: false }),
  });
  const streamUrl = ((await asked.json()) as { data: { stream_url: string } }).data.stream_url;
  expect(streamUrl.startsWith(`${floor}/`)).toBe(true);
  const stream = await fetch(streamUrl, { headers });
  expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const text = await stream.text();
  expect(text.startsWith('data: [START]')).toBe(true);
  expect(text.trimEnd().endsWith('data: [END]')).toBe(true);
  expect(text.match(/^data: /gm)!.length).toBeGreaterThan(3);
});

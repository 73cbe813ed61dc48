// A server for the proxy load benchmark, in its own process so each side is measured alone:
// `tsx serve.ts simulator <key>`, `tsx serve.ts proxy <key> <upstream>` (`proxy-web`: sealing with Web Crypto) or
// `tsx serve.ts floor <key> <origin>` (the floor: Node relaying HTTP with no policy, see floor-relay.ts;
// `fetch-floor`: the same relay through the Node adapter). It reports its port (and, on request, its memory after a
// full GC, or its CPU time so far) over IPC, and exits when its parent does.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimulator, DEMO_BOT_ID } from '../../demo/simulator/index';
import { createProxy } from '../../src/proxy/core/proxy';
import { toNodeListener } from '../../src/proxy/adapters/node/node';
import { nodeFetch } from '../../src/proxy/adapters/node/node-fetch';
import { nodeAesGcm } from '../../src/proxy/adapters/node/aes-gcm';
import { fetchFloorRelay, floorRelay } from './floor-relay';
import { LOAD_REPLY } from './proxy-streams';

const [role, key = '', upstream = ''] = process.argv.slice(2);

function listener(): RequestListener {
  if (role === 'floor') return floorRelay(upstream);
  if (role === 'fetch-floor') return fetchFloorRelay(upstream);
  if (role === 'simulator')
    return toNodeListener(
      createSimulator({
        apiKey: key,
        scenario: {
          defaults: { delayMs: 0, chunkSize: 40 },
          replies: [{ match: 'hold', text: 'held open '.repeat(20), chunkSize: 5, stallAfter: 1 }, LOAD_REPLY],
        },
      }).handle,
    );
  return toNodeListener(
    createProxy({
      apiKey: key,
      botIds: [DEMO_BOT_ID],
      upstream,
      secret: 'bench-secret-0123456789abcdef',
      limits: false,
      timeouts: { idleMs: 600_000, firstByteMs: 600_000, maxStreamMs: 600_000 },
      // `BENCH_FETCH=global` measures the proxy on the runtime's fetch (undici) and web streams instead.
      ...(process.env.BENCH_FETCH === 'global' ? {} : { fetch: nodeFetch }),
      // `BENCH_SEAL=web` seals stream tokens with Web Crypto (the default elsewhere) instead of node:crypto.
      // So does the role `proxy-web`, which `--setup` measures beside the proxy.
      ...(process.env.BENCH_SEAL === 'web' || role === 'proxy-web' ? {} : { aesGcm: nodeAesGcm }),
    }),
  );
}

const server = createServer(listener());
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message !== 'memory') return;
  (globalThis as { gc?: () => void }).gc?.();
  process.send?.({ memory: process.memoryUsage() });
});
process.on('disconnect', () => process.exit(0));

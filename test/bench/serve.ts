// A server for the proxy load benchmark, in its own process so each side is measured alone:
// `tsx serve.ts simulator <key>` or `tsx serve.ts proxy <key> <upstream>`. It reports its port (and, on request, its memory
// after a full GC, or its CPU time so far) over IPC, and exits when its parent does.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimulator, DEMO_BOT_ID } from '../../demo/simulator/index';
import { createProxy } from '../../src/proxy/handler';
import { toNodeListener } from '../../src/proxy/node';
import { nodeFetch } from '../../src/proxy/node-fetch';
import { LOAD_REPLY } from './proxy-streams';

const [role, key = '', upstream] = process.argv.slice(2);
/** Connections the kernel queues before the server accepts them (the kernel caps it at `net.core.somaxconn`). */
const LISTEN_BACKLOG = 4096;
const handler =
  role === 'simulator'
    ? createSimulator({
        apiKey: key,
        scenario: {
          defaults: { delayMs: 0, chunkSize: 40 },
          replies: [{ match: 'hold', text: 'held open '.repeat(20), chunkSize: 5, stallAfter: 1 }, LOAD_REPLY],
        },
      }).handle
    : createProxy({
        apiKey: key,
        botIds: [DEMO_BOT_ID],
        upstream,
        secret: 'bench-secret-0123456789abcdef',
        limits: false,
        timeouts: { idleMs: 600_000, firstByteMs: 600_000, maxStreamMs: 600_000 },
        // `BENCH_FETCH=global` measures the proxy on the runtime's fetch (undici) and web streams instead.
        ...(process.env.BENCH_FETCH === 'global' ? {} : { fetch: nodeFetch }),
      });
const server = createServer(toNodeListener(handler));
// Node's default backlog, 511, overflows while 1,000 visitors connect within a second and the loop is busy: the
// kernel drops their SYNs, and each waits 1 s (then 3 s more) to retry, which is what made calls slow in the ramp.
server.listen({ port: 0, host: '127.0.0.1', backlog: LISTEN_BACKLOG }, () =>
  process.send?.({ port: (server.address() as AddressInfo).port }),
);
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message !== 'memory') return;
  (globalThis as { gc?: () => void }).gc?.();
  process.send?.({ memory: process.memoryUsage() });
});
process.on('disconnect', () => process.exit(0));

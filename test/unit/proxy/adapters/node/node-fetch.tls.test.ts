import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';

/**
 * `nodeFetch` over TLS keeps its connections alive, against a real HTTPS service on loopback whose
 * self-signed certificate is made for this test with the `openssl` CLI.
 */

let server: Server;
let url: string;
const connections: number[] = [];
// `nodeFetch`'s HTTPS agent trusts the system's authorities only, and Node 20 has no way to add one after start
// (NODE_EXTRA_CA_CERTS is read at start-up): certificate checks are off in this test process while it runs, and
// the setting is restored after. Production code is unchanged. Node warns once about the setting: that warning is
// taken from the setup file's watch (test/helpers/process-warnings.ts), any other is handed back to it.
const rejectUnauthorized = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
const watchers = process.listeners('warning');
const others: Error[] = [];
const sortWarning = (warning: Error) =>
  void (warning.message.includes('NODE_TLS_REJECT_UNAUTHORIZED') || others.push(warning));

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'askbox-tls-'));
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    const subject = ['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'];
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    execFileSync('openssl', ['req', '-x509', ...ec, '-keyout', key, '-out', cert, '-days', '1', ...subject]);
    const tls = { key: readFileSync(key), cert: readFileSync(cert) };
    server = createServer(tls, (_req, res) => res.end('ok'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  server.on('secureConnection', (socket) => connections.push(socket.remotePort ?? 0));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  process.removeAllListeners('warning').on('warning', sortWarning);
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
});

afterAll(async () => {
  // Node emits a warning on a later tick than the code that caused it.
  await new Promise((resolve) => setImmediate(resolve));
  process.off('warning', sortWarning);
  for (const watcher of watchers) process.on('warning', watcher);
  for (const warning of others) process.emitWarning(warning);
  if (rejectUnauthorized === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  else process.env.NODE_TLS_REJECT_UNAUTHORIZED = rejectUnauthorized;
  server.closeAllConnections();
  server.close();
});

it('keeps one TLS connection alive across calls', async () => {
  // Imported afresh: the agents are built when the module loads (see node-fetch.test.ts).
  vi.resetModules();
  const { nodeFetch } = await import('../../../../../src/proxy/adapters/node/node-fetch');
  const manual = { redirect: 'manual' } as const;
  expect(await (await nodeFetch(`${url}a`, manual)).text()).toBe('ok');
  expect(await (await nodeFetch(`${url}b`, manual)).text()).toBe('ok');
  expect(connections).toHaveLength(1);
});

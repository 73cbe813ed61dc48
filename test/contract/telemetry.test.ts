import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy } from '../../src/proxy/core/proxy';
import { nodeFetch, toNodeListener } from '../../src/proxy/node';
import { METRICS } from '../../src/proxy/core/telemetry';
import { installInMemorySdk, total } from '../helpers/otel';
import { CONTRACT_KEY, contractConfig } from './config';
import { defineTelemetryContract, TELEMETRY_SCENARIO, telemetryVisitor } from './telemetry-contract';
import { startUpstream } from './upstream';

/** Starts `server` on a loopback port; its origin. */
async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server | undefined): Promise<void> {
  server?.closeAllConnections();
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  const probe = createServer();
  return new Promise((resolve) =>
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    }),
  );
}

// The SDK registered globally before any proxy is made, as the README shows: an in-memory exporter to read in the
// tests, and the README's Prometheus exporter beside it.
const promPort = await freePort();
const sdk = installInMemorySdk([new PrometheusExporter({ port: promPort, host: '127.0.0.1' })]);
afterAll(() => sdk.shutdown());

defineTelemetryContract({
  name: 'node',
  async start(config) {
    const server = createServer(toNodeListener(createProxy(config)));
    return {
      url: `${await listen(server)}${config.basePath}`,
      close: () => close(server),
      read: async () => ({ metrics: await sdk.collect(), spans: sdk.spans() }),
    };
  },
});

describe('telemetry on Node, beyond the contract', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let relay: Server;
  let origin = '';

  beforeAll(async () => {
    upstream = await startUpstream(CONTRACT_KEY, TELEMETRY_SCENARIO);
    const config = contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin);
    // On `nodeFetch`, the Node adapter relays reply streams natively, socket to socket, past the web stream.
    relay = createServer(toNodeListener(createProxy({ ...config, fetch: nodeFetch })));
    origin = await listen(relay);
  });

  afterAll(async () => {
    await close(relay);
    await upstream?.close();
  });

  it('times a stream relayed natively (nodeFetch) alike: first byte, duration, open and closed', async () => {
    const me = telemetryVisitor(() => origin, []);
    const { id } = await me.start();
    const location = (await me.send(id, 'drip')).headers.get('location')!;
    const before = await sdk.collect();
    const reader = (await me.stream(location)).body!.getReader();
    await reader.read();
    const during = await sdk.collect();
    expect(total(during, METRICS.openStreams)).toBe(1);
    expect(total(during, METRICS.firstByte) - total(before, METRICS.firstByte)).toBe(1);
    while (!(await reader.read()).done);
    await expect.poll(async () => total(await sdk.collect(), METRICS.openStreams)).toBe(0);
    expect(total(await sdk.collect(), METRICS.streamDuration) - total(before, METRICS.streamDuration)).toBe(1);
  });

  it('is scraped by Prometheus as the README wires it', async () => {
    const scrape = await (await fetch(`http://127.0.0.1:${promPort}/metrics`)).text();
    expect(scrape).toMatch(
      /^askbox_proxy_requests_total\{[^}]*http_route="\/askbox\/conversations"[^}]*http_response_status_code="200"[^}]*\} \d+/m,
    );
    expect(scrape).toMatch(/^askbox_proxy_refusals_total\{[^}]*askbox_refusal_reason="limit"[^}]*\} 1/m);
    expect(scrape).toMatch(/^askbox_proxy_stream_first_byte_count(\{[^}]*\})? [1-9]/m);
    expect(scrape).toMatch(/^askbox_proxy_streams_open(\{[^}]*\})? 0/m);
  });
});

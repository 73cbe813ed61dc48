import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { createProxy } from '../../src/proxy/handler';
import { nodeFetch, toNodeListener } from '../../src/proxy/node';
import { ATTRIBUTES as A, METRICS } from '../../src/proxy/telemetry';
import { installInMemorySdk, total } from '../helpers/otel';
import { CONTRACT_KEY, CONTRACT_SCENARIO, contractConfig } from './config';
import { startUpstream } from './upstream';

/** The contract's scenario, plus the service's 402 of an exhausted 30-day quota. */
const SCENARIO = { ...CONTRACT_SCENARIO, replies: [...CONTRACT_SCENARIO.replies!, { match: 'quota', status: 402 }] };

/** What the client saw of one request: the metric and the span must say the same. */
interface Seen {
  method: string;
  route: string | undefined;
  status: number;
}

/** Starts `server` on a loopback port; its origin. */
async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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

/**
 * The Node proxy under the OpenTelemetry SDK, registered globally before the proxy is made as the README shows, with
 * an in-memory exporter and the README's Prometheus exporter side by side, against the Cody simulator.
 */
describe('telemetry through OpenTelemetry [node]', () => {
  let sdk: ReturnType<typeof installInMemorySdk>;
  let prometheus: PrometheusExporter;
  let promPort: number;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: Server;
  let relayServer: Server;
  let base = '';
  let relayBase = '';
  const seen: Seen[] = [];
  let ip = 0;

  beforeAll(async () => {
    promPort = await freePort();
    prometheus = new PrometheusExporter({ port: promPort, host: '127.0.0.1' });
    sdk = installInMemorySdk([prometheus]);
    upstream = await startUpstream(CONTRACT_KEY, SCENARIO);
    const config = contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin);
    server = createServer(toNodeListener(createProxy(config)));
    // The same proxy on `nodeFetch`, whose reply streams the Node adapter relays natively, socket to socket.
    relayServer = createServer(toNodeListener(createProxy({ ...config, fetch: nodeFetch })));
    base = await listen(server);
    relayBase = await listen(relayServer);
  }, 30_000);

  afterAll(async () => {
    for (const running of [server, relayServer]) {
      running?.closeAllConnections();
      await new Promise((resolve) => running?.close(resolve));
    }
    await upstream?.close();
    await sdk?.shutdown();
  });

  /** A visitor on its own IP; each call is kept in `seen` with the route template it falls under. */
  function visitor(proxy = () => base) {
    const from = `198.51.100.${++ip}`;
    let grant: string | undefined;
    const call = async (method: string, path: string, route: string | undefined, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set('x-forwarded-for', from);
      if (grant) headers.set('x-askbox-grant', grant);
      if (init.body) headers.set('content-type', 'application/json');
      const response = await fetch(`${proxy()}${path}`, { ...init, method, headers, redirect: 'manual' });
      seen.push({ method, route, status: response.status });
      return response;
    };
    const start = async () => {
      const response = await call('POST', '/askbox/conversations', '/askbox/conversations', {
        body: JSON.stringify({ name: 'Watched', bot_id: DEMO_BOT_ID }),
      });
      if (response.status !== 200) return { status: response.status, id: '' };
      const body = (await response.json()) as { data: { id: string }; meta: { grant: string } };
      grant = body.meta.grant;
      return { status: 200, id: body.data.id, grant };
    };
    const send = (id: string, content: string, path = '/askbox/messages/stream') =>
      call('POST', path, path, { body: JSON.stringify({ content, conversation_id: id }) });
    const stream = (location: string) => call('GET', location, '/askbox/stream/{token}');
    return { call, start, send, stream };
  }

  const secrets: string[] = [];

  it('counts requests by route and status, and refusals by the contract reason', async () => {
    const me = visitor();
    expect((await me.call('GET', '/askbox/health', '/askbox/health')).status).toBe(200);
    const first = await me.start();
    secrets.push(first.id, first.grant!);
    const asked = await me.send(first.id, 'hello there');
    expect(asked.status).toBe(302);
    const location = asked.headers.get('location')!;
    secrets.push(location.split('/').at(-1)!);
    const reply = await me.stream(location);
    expect(reply.status).toBe(200);
    expect(await reply.text()).toContain('[END]');
    expect((await me.stream(location)).status).toBe(404);
    expect((await me.send('someoneElse1', 'hi', '/askbox/messages')).status).toBe(422);
    expect((await me.send(first.id, 'quota', '/askbox/messages')).status).toBe(402);
    expect((await me.send(first.id, 'overloaded', '/askbox/messages')).status).toBe(503);
    expect((await me.call('GET', '/askbox/nothing', undefined)).status).toBe(404);
    const foreign = { headers: { origin: 'https://evil.example' } };
    expect((await me.call('GET', '/askbox/health', '/askbox/health', foreign)).status).toBe(403);
    // The contract's visitor burst of new conversations is 2: the third is over the limit.
    secrets.push((await me.start()).id);
    expect((await me.start()).status).toBe(429);

    const collected = await sdk.collect();
    // Per method, route (none off the routes) and status, exactly as many as the client saw.
    for (const { method, route, status } of seen) {
      const match = { [A.method]: method, [A.route]: route, [A.status]: status };
      const count = seen.filter((s) => s.method === method && s.route === route && s.status === status).length;
      expect(total(collected, METRICS.requests, match), JSON.stringify(match)).toBe(count);
    }
    expect(total(collected, METRICS.requests)).toBe(seen.length);

    const refused = (match: Record<string, unknown>) => total(collected, METRICS.refusals, match);
    expect(refused({ [A.reason]: 'limit', [A.action]: 'conversation', [A.status]: 429 })).toBe(1);
    expect(refused({ [A.reason]: 'upstreamFailed', [A.status]: 402 })).toBe(1);
    expect(refused({ [A.reason]: 'upstreamFailed', [A.status]: 503 })).toBe(1);
    expect(refused({ [A.reason]: 'originRefused', [A.status]: 403 })).toBe(1);
    expect(refused({ [A.reason]: 'streamGone', [A.route]: '/askbox/stream/{token}' })).toBe(1);
    expect(refused({ [A.reason]: 'notFound', [A.status]: 404 })).toBe(1);
    // A send naming a conversation the visitor holds no grant for: the service's 422 for an unknown id.
    expect(refused({ [A.reason]: 'validation', [A.field]: 'conversation_id', [A.rule]: 'invalid' })).toBe(1);
    expect(refused({})).toBe(seen.filter((s) => s.status >= 400).length);

    // Six calls reached the service: two conversations, the stream send, its stream, the 402 and the 503.
    expect(total(collected, METRICS.upstreamDuration)).toBe(6);
    expect(total(collected, METRICS.upstreamDuration, { [A.status]: 402 })).toBe(1);
    expect(total(collected, METRICS.firstByte)).toBe(1);
    expect(total(collected, METRICS.streamDuration)).toBe(1);
    expect(total(collected, METRICS.openStreams)).toBe(0);
  });

  it('counts a stream open while it is relayed, and closed once the visitor has it all', async () => {
    const me = visitor();
    const { id } = await me.start();
    const location = (await me.send(id, 'drip')).headers.get('location')!;
    secrets.push(id, location.split('/').at(-1)!);
    const reader = (await me.stream(location)).body!.getReader();
    await reader.read();
    expect(total(await sdk.collect(), METRICS.openStreams)).toBe(1);
    while (!(await reader.read()).done);
    const collected = await sdk.collect();
    expect(total(collected, METRICS.openStreams)).toBe(0);
    expect(total(collected, METRICS.firstByte)).toBe(2);
    expect(total(collected, METRICS.streamDuration)).toBe(2);
  });

  it('ends one span per request, named by its route template, with no token, grant or conversation id', async () => {
    await expect.poll(() => sdk.spans().length).toBe(seen.length);
    const spans = sdk.spans();
    expect(spans.map((span) => span.name).sort()).toEqual(
      seen.map(({ method, route }) => (route ? `${method} ${route}` : method)).sort(),
    );
    const statuses = spans.map((span) => span.attributes[A.status]).sort();
    expect(statuses).toEqual(seen.map((s) => s.status).sort());
    const failed = spans.filter((span) => span.status.code === SpanStatusCode.ERROR);
    expect(failed.map((span) => span.attributes[A.status])).toEqual([503]);
    const text = JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events, span.status]));
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('times a stream relayed natively (nodeFetch) alike: first byte, duration, open and closed', async () => {
    const me = visitor(() => relayBase);
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

import { SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import type { Scenario } from '../../demo/simulator/scenario';
import { ATTRIBUTES as A, METRICS } from '../../src/proxy/core/telemetry';
import { total, type Collected } from '../helpers/otel';
import { CONTRACT_KEY, CONTRACT_SCENARIO, contractConfig, type ContractConfig } from './config';
import { startUpstream } from './upstream';

/** The contract's scenario, plus the service's 402 of an exhausted 30-day quota. */
/**
 * The refusals `exerciseProxy` makes, once each, as the attributes their count carries. A send naming a conversation
 * the visitor holds no grant for is the service's 422 for an unknown id: `conversation_id` / `invalid`.
 */
export const EXERCISED_REFUSALS: readonly Record<string, unknown>[] = [
  { [A.reason]: 'limit', [A.action]: 'conversation', [A.status]: 429 },
  { [A.reason]: 'upstreamFailed', [A.status]: 402 },
  { [A.reason]: 'upstreamFailed', [A.status]: 503 },
  { [A.reason]: 'originRefused', [A.status]: 403 },
  { [A.reason]: 'streamGone', [A.route]: '/askbox/stream/{token}' },
  { [A.reason]: 'notFound', [A.status]: 404 },
  { [A.reason]: 'validation', [A.field]: 'conversation_id', [A.rule]: 'invalid' },
];

export const TELEMETRY_SCENARIO: Scenario = {
  ...CONTRACT_SCENARIO,
  replies: [...(CONTRACT_SCENARIO.replies ?? []), { match: 'quota', status: 402 }],
};

/** What the client saw of one request: the metric and the span must say the same. */
export interface Seen {
  method: string;
  route: string | undefined;
  status: number;
}

/** An ended span, as the SDK exports it (or as a Worker hands it over in JSON). */
export interface SpanLike {
  name: string;
  attributes: Record<string, unknown>;
  status: { code: number };
  events: unknown[];
}

/** A proxy runtime under an OpenTelemetry SDK with in-memory exporters, and a way to read them. */
export interface TelemetryRuntime {
  name: string;
  start(config: ContractConfig): Promise<{
    url: string;
    close(): Promise<void>;
    /** The metrics (cumulative) and the spans ended so far. */
    read(): Promise<{ metrics: Collected | undefined; spans: SpanLike[] }>;
  }>;
}

let ip = 0;

/**
 * A visitor on its own IP, calling the proxy at `origin()`; each call is kept in `seen` with the route template it
 * falls under.
 */
export function telemetryVisitor(origin: () => string, seen: Seen[]) {
  const from = `198.51.100.${++ip}`;
  let grant: string | undefined;
  const call = async (method: string, path: string, route: string | undefined, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', from);
    if (grant) headers.set('x-askbox-grant', grant);
    if (init.body) headers.set('content-type', 'application/json');
    const response = await fetch(`${origin()}${path}`, { ...init, method, headers, redirect: 'manual' });
    seen.push({ method, route, status: response.status });
    return response;
  };
  const start = async () => {
    const response = await call('POST', '/askbox/conversations', '/askbox/conversations', {
      body: JSON.stringify({ name: 'Watched', bot_id: DEMO_BOT_ID }),
    });
    if (response.status !== 200) return { status: response.status, id: '', grant: '' };
    const body = (await response.json()) as { data: { id: string }; meta: { grant: string } };
    grant = body.meta.grant;
    return { status: 200, id: body.data.id, grant };
  };
  const send = (id: string, content: string, path = '/askbox/messages/stream') =>
    call('POST', path, path, { body: JSON.stringify({ content, conversation_id: id }) });
  const stream = (location: string) => call('GET', location, '/askbox/stream/{token}');
  return { call, start, send, stream };
}

/**
 * One script of requests that gives every metric something to count: a health check, a conversation, a streamed
 * reply, a replayed stream (404), a send without the grant (422), the service's 402 and 503, an unknown path, a
 * foreign origin (403) and a conversation over the limit (429). What the client saw goes into `seen`; the ids, grant
 * and token that must never reach telemetry into `secrets`.
 */
export async function exerciseProxy(origin: string, seen: Seen[], secrets: string[]): Promise<void> {
  const me = telemetryVisitor(() => origin, seen);
  expect((await me.call('GET', '/askbox/health', '/askbox/health')).status).toBe(200);
  const first = await me.start();
  secrets.push(first.id, first.grant);
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
}

/**
 * What a site owner watches, held alike on every runtime that reports through OpenTelemetry: requests by route and
 * status, refusals by the contract's reason, upstream and stream timings, open streams, and one span per request
 * that names no token, grant or conversation id.
 */
export function defineTelemetryContract(runtime: TelemetryRuntime): void {
  describe(`telemetry through OpenTelemetry [${runtime.name}]`, () => {
    let upstream: Awaited<ReturnType<typeof startUpstream>>;
    let proxy: Awaited<ReturnType<TelemetryRuntime['start']>>;
    let origin = '';
    const seen: Seen[] = [];
    const secrets: string[] = [];
    const t = (title: string) => `${title} [${runtime.name}]`;

    beforeAll(async () => {
      upstream = await startUpstream(CONTRACT_KEY, TELEMETRY_SCENARIO);
      proxy = await runtime.start(contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin));
      origin = new URL(proxy.url).origin;
    }, 60_000);

    afterAll(async () => {
      await proxy?.close();
      await upstream?.close();
    });

    it(t('counts requests by route and status, and refusals by the contract reason'), async () => {
      await exerciseProxy(origin, seen, secrets);
      const { metrics } = await proxy.read();
      // Per method, route (none off the routes) and status, exactly as many as the client saw.
      for (const { method, route, status } of seen) {
        const match = { [A.method]: method, [A.route]: route, [A.status]: status };
        const count = seen.filter((s) => s.method === method && s.route === route && s.status === status).length;
        expect(total(metrics, METRICS.requests, match), JSON.stringify(match)).toBe(count);
      }
      expect(total(metrics, METRICS.requests)).toBe(seen.length);

      const refused = (match: Record<string, unknown>) => total(metrics, METRICS.refusals, match);
      for (const match of EXERCISED_REFUSALS) expect(refused(match), JSON.stringify(match)).toBe(1);
      expect(refused({})).toBe(seen.filter((s) => s.status >= 400).length);

      // Six calls reached the service: two conversations, the stream send, its stream, the 402 and the 503.
      expect(total(metrics, METRICS.upstreamDuration)).toBe(6);
      expect(total(metrics, METRICS.upstreamDuration, { [A.status]: 402 })).toBe(1);
      expect(total(metrics, METRICS.firstByte)).toBe(1);
      expect(total(metrics, METRICS.streamDuration)).toBe(1);
      expect(total(metrics, METRICS.openStreams)).toBe(0);
    });

    it(t('counts a stream open while it is relayed, and closed once the visitor has it all'), async () => {
      const me = telemetryVisitor(() => origin, seen);
      const { id } = await me.start();
      const location = (await me.send(id, 'drip')).headers.get('location')!;
      secrets.push(id, location.split('/').at(-1)!);
      const reader = (await me.stream(location)).body!.getReader();
      await reader.read();
      expect(total((await proxy.read()).metrics, METRICS.openStreams)).toBe(1);
      while (!(await reader.read()).done);
      await expect.poll(async () => total((await proxy.read()).metrics, METRICS.openStreams)).toBe(0);
      const { metrics } = await proxy.read();
      expect(total(metrics, METRICS.firstByte)).toBe(2);
      expect(total(metrics, METRICS.streamDuration)).toBe(2);
    });

    it(
      t('ends one span per request, named by its route template; no token, grant or id in a span or a metric'),
      async () => {
        await expect.poll(async () => (await proxy.read()).spans.length).toBe(seen.length);
        const { spans } = await proxy.read();
        expect(spans.map((span) => span.name).sort()).toEqual(
          seen.map(({ method, route }) => (route ? `${method} ${route}` : method)).sort(),
        );
        const statuses = spans.map((span) => span.attributes[A.status]).sort();
        expect(statuses).toEqual(seen.map((s) => s.status).sort());
        const failed = spans.filter((span) => span.status.code === SpanStatusCode.ERROR);
        expect(failed.map((span) => span.attributes[A.status])).toEqual([503]);
        // Nor does any metric attribute.
        const text = JSON.stringify([spans, (await proxy.read()).metrics]);
        for (const secret of secrets) expect(text).not.toContain(secret);
      },
    );
  });
}

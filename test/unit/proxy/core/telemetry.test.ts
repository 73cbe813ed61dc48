import { metrics, trace, context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, beforeEach, vi } from 'vitest';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type * as Refusal from '../../../../src/proxy/core/refusal';
import type * as Telemetry from '../../../../src/proxy/core/telemetry';
import type * as Upstream from '../../../../src/proxy/core/upstream';
import { installInMemorySdk, total, type Collected } from '../../../helpers/otel';

/**
 * The proxy's telemetry on its own, for what the contract's script of requests leaves open: route templates, the
 * cost without an SDK, the names a dashboard is built on, what each instrument says of itself, methods outside the two
 * the widget uses, the 5xx boundary of a failed span, upstream failures by type, a stream ended twice, durations in
 * seconds, and the active span. The names are written out here, not read from the module: a renamed metric breaks
 * every dashboard.
 */
// Imported afresh for each test: the names and buckets are read when the module loads, and a runner that keeps
// modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. The refusal notes and
// body watches it reads are kept by modules of its own graph, so those come from the same fresh import.
let createTelemetry: typeof Telemetry.createTelemetry;
let routeOf: typeof Telemetry.routeOf;
let noteRefusal: typeof Refusal.noteRefusal;
let watchBody: typeof Upstream.watchBody;
let UpstreamTimeout: typeof Upstream.UpstreamTimeout;
beforeEach(async () => {
  vi.resetModules();
  ({ createTelemetry, routeOf } = await import('../../../../src/proxy/core/telemetry'));
  ({ noteRefusal } = await import('../../../../src/proxy/core/refusal'));
  ({ watchBody, UpstreamTimeout } = await import('../../../../src/proxy/core/upstream'));
});

const URL_OF = (path: string) => new URL(`http://127.0.0.1${path}`);
const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };
const FAR = { firstMs: 60_000, idleMs: 60_000, totalMs: 60_000 };
/** A service that answers in 50 ms. */
const slow = () => new Promise<Response>((answer) => setTimeout(() => answer(new Response('{}')), 50));

describe('routeOf: the route template a path falls under, as the handler routes it', () => {
  it.each([
    ['/askbox/conversations', '/askbox/conversations'],
    ['/askbox/messages', '/askbox/messages'],
    ['/askbox//messages/', '/askbox/messages'],
    ['/askbox/messages/stream', '/askbox/messages/stream'],
    ['/askbox/stream/eyJhbGciOi-token_1', '/askbox/stream/{token}'],
    ['/askbox/health', '/askbox/health'],
    ['/askbox/messages/abcdefabcdef', undefined],
    ['/askbox/stream', undefined],
    ['/askbox/stream/a/b', undefined],
    ['/askbox', undefined],
    ['/askboxes/health', undefined],
    ['/other/health', undefined],
  ])('%s → %s', (path, route) => {
    expect(routeOf('/askbox', path)).toBe(route);
  });

  it('works under the root base path too', () => {
    expect(routeOf('', '/stream/x')).toBe('/stream/{token}');
  });
});

describe('createTelemetry without an SDK', () => {
  afterEach(() => {
    metrics.disable();
    trace.disable();
  });

  it('reports nothing and allocates nothing per request', async () => {
    const telemetry = createTelemetry('/askbox');
    const url = new URL('http://127.0.0.1/askbox/health');
    const one = telemetry.request(new Request(url), url);
    // One shared, frozen object: no span, no attributes, no clock read per request.
    expect(telemetry.request(new Request(url), url)).toBe(one);
    expect(Object.isFrozen(one)).toBe(true);
    expect(telemetry.stream(0)).toBe(telemetry.stream(1));
    const answer = new Response('{}');
    expect(await telemetry.upstream(one.route, async () => answer)).toBe(answer);
    expect(await one.run(async () => 'ran')).toBe('ran');
  });

  it('reports once either provider is registered before it is made', async () => {
    const spans = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
    const traced = createTelemetry('/askbox');
    const url = new URL('http://127.0.0.1/askbox/health');
    const seen = traced.request(new Request(url), url);
    expect(traced.request(new Request(url), url)).not.toBe(seen);
    seen.finish(new Response('{}'));
    expect(spans.getFinishedSpans().map((span) => span.name)).toEqual(['GET /askbox/health']);
    trace.disable();

    metrics.setGlobalMeterProvider(new MeterProvider());
    const measured = createTelemetry('/askbox');
    expect(measured.request(new Request(url), url)).not.toBe(measured.request(new Request(url), url));
  });
});

describe('without an SDK', () => {
  it('hands out a silent stream whose first byte and end cost nothing', () => {
    const stream = createTelemetry('/askbox').stream(0);
    expect(stream.first()).toBeUndefined();
    expect(stream.end()).toBeUndefined();
  });

  it('knows every route of the contract by its template', () => {
    const routes = ['conversations', 'messages', 'messages/stream', 'feedback', 'health'];
    for (const route of routes) expect(routeOf('/askbox', `/askbox/${route}`)).toBe(`/askbox/${route}`);
    expect(routeOf('/askbox', '/askbox/stream/t0k3n')).toBe('/askbox/stream/{token}');
    expect(routeOf('/askbox', '/askbox/conversations/abcdefabcdef')).toBe('/askbox/conversations/{id}');
  });
});

describe('with an SDK', () => {
  let sdk: ReturnType<typeof installInMemorySdk>;
  beforeEach(() => {
    sdk = installInMemorySdk();
  });
  afterEach(async () => {
    await sdk.shutdown();
    context.disable();
  });

  type Exported = { descriptor: Record<string, unknown>; dataPoints: { attributes: object; value: unknown }[] };
  /** The exported instrument named `name`. */
  const instrument = (collected: Collected | undefined, name: string) =>
    collected?.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name) as
      | Exported
      | undefined;
  /** The attribute names of the first point of `name`: a key with an undefined value is a series of its own. */
  const keysOf = (collected: Collected | undefined, name: string) =>
    Object.keys(instrument(collected, name)?.dataPoints[0]?.attributes ?? {}).sort();
  /** A histogram's sum, in its unit: what a dashboard divides by the count. */
  const sumOf = (collected: Collected | undefined, name: string) =>
    (instrument(collected, name)?.dataPoints[0]?.value as { sum: number } | undefined)?.sum ?? Number.NaN;
  const spanNames = () => sdk.spans().map((span) => span.name);

  const UPSTREAM = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
  const STREAM = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];
  // valueType 0 is ValueType.INT, 1 ValueType.DOUBLE (the API's default, which histograms keep).
  it.each([
    ['askbox.proxy.requests', 'Requests the Askbox proxy answered', '{request}', 'COUNTER', 0, undefined],
    [
      'askbox.proxy.refusals',
      'Requests the Askbox proxy refused, or whose refusal by the service it passed on',
      '{refusal}',
      'COUNTER',
      0,
      undefined,
    ],
    ['askbox.proxy.upstream.duration', 'Calls to the chat service', 's', 'HISTOGRAM', 1, UPSTREAM],
    ['askbox.proxy.stream.first_byte', 'Time to the first byte of a reply stream', 's', 'HISTOGRAM', 1, UPSTREAM],
    ['askbox.proxy.stream.duration', 'Reply streams, until they end', 's', 'HISTOGRAM', 1, STREAM],
    ['askbox.proxy.streams.open', 'Reply streams being relayed', '{stream}', 'UP_DOWN_COUNTER', 0, undefined],
  ])('%s: %s (%s), under the scope askbox-proxy', async (name, description, unit, type, valueType, boundaries) => {
    const telemetry = createTelemetry('/askbox');
    const url = URL_OF('/askbox/health');
    telemetry.request(new Request(url), url).finish(noteRefusal(new Response('{}'), { reason: 'notFound' }));
    await telemetry.upstream('/askbox/health', async () => new Response('{}'));
    const stream = telemetry.stream(performance.now());
    stream.first();
    stream.end();
    const collected = await sdk.collect();
    expect(collected?.scopeMetrics.map((scope) => scope.scope.name)).toEqual(['askbox-proxy']);
    const exported = instrument(collected, name);
    expect(exported?.descriptor).toMatchObject({ name, description, unit, type, valueType });
    const point = exported?.dataPoints[0]?.value as { buckets?: { boundaries: number[] } };
    expect(point.buckets?.boundaries).toEqual(boundaries);
  });

  it.each(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
    'names the method %s as it is, on a server span with its method and route',
    async (method) => {
      const telemetry = createTelemetry('/askbox');
      const url = URL_OF('/askbox/health');
      telemetry.request(new Request(url, { method }), url).finish(new Response(null, { status: 204 }));
      expect(sdk.spans()).toMatchObject([
        {
          name: `${method} /askbox/health`,
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': method, 'http.route': '/askbox/health' },
        },
      ]);
      expect(total(await sdk.collect(), 'askbox.proxy.requests', { 'http.request.method': method })).toBe(1);
    },
  );

  it('names any other method _OTHER, and gives a path off the routes no route at all', async () => {
    const telemetry = createTelemetry('/askbox');
    const url = URL_OF('/askbox/elsewhere');
    telemetry.request(new Request(url, { method: 'PROPFIND' }), url).finish(new Response(null, { status: 404 }));
    expect(spanNames()).toEqual(['_OTHER']);
    const collected = await sdk.collect();
    expect(total(collected, 'askbox.proxy.requests', { 'http.request.method': '_OTHER' })).toBe(1);
    expect(keysOf(collected, 'askbox.proxy.requests')).toEqual(['http.request.method', 'http.response.status_code']);
  });

  it.each([
    [499, SpanStatusCode.UNSET],
    [500, SpanStatusCode.ERROR],
  ])('marks its span failed from 500 on: %i', (status, code) => {
    const telemetry = createTelemetry('/askbox');
    const url = URL_OF('/askbox/health');
    telemetry.request(new Request(url), url).finish(new Response(null, { status }));
    expect(sdk.spans().map((span) => [span.status.code, span.attributes['http.response.status_code']])).toEqual([
      [code, status],
    ]);
  });

  it('counts a refusal with the facts it has and no others, and puts its reason on the span', async () => {
    const telemetry = createTelemetry('/askbox');
    const url = URL_OF('/askbox/messages');
    const validation = noteRefusal(Response.json({}, { status: 422 }), {
      reason: 'validation',
      field: 'content',
      rule: 'required',
    });
    telemetry.request(new Request(url, { method: 'POST' }), url).finish(validation);
    expect(sdk.spans()[0]?.attributes['askbox.refusal.reason']).toBe('validation');
    let collected = await sdk.collect();
    const counted = { 'askbox.validation.field': 'content', 'askbox.validation.rule': 'required' };
    expect(total(collected, 'askbox.proxy.refusals', counted)).toBe(1);
    expect(keysOf(collected, 'askbox.proxy.refusals')).not.toContain('askbox.limit.action');

    const limited = noteRefusal(Response.json({}, { status: 429 }), { reason: 'limit', action: 'message' });
    telemetry.request(new Request(url, { method: 'POST' }), url).finish(limited);
    collected = await sdk.collect();
    const point = instrument(collected, 'askbox.proxy.refusals')?.dataPoints.find(
      (p) => (p.attributes as Record<string, unknown>)['askbox.refusal.reason'] === 'limit',
    );
    expect(Object.keys(point?.attributes ?? {}).sort()).toEqual([
      'askbox.limit.action',
      'askbox.refusal.reason',
      'http.request.method',
      'http.response.status_code',
      'http.route',
    ]);
    expect(total(collected, 'askbox.proxy.refusals', { 'askbox.limit.action': 'message' })).toBe(1);
  });

  it('ends its span as soon as it answers JSON, even through a watched body nobody has read yet', async () => {
    const telemetry = createTelemetry('/askbox');
    const url = URL_OF('/askbox/messages');
    const body = watchBody(new Response('{"data":[]}').body!, FAR, { onTimeout: () => undefined });
    const answer = new Response(body, { headers: { 'content-type': 'application/json' } });
    telemetry.request(new Request(url), url).finish(answer);
    expect(spanNames()).toEqual(['GET /askbox/messages']);
    await answer.text();
  });

  it('ends its span at once for a body without a content type', async () => {
    const telemetry = createTelemetry('/askbox');
    const url = URL_OF('/askbox/health');
    const answer = new Response(new ReadableStream());
    telemetry.request(new Request(url), url).finish(answer);
    expect(spanNames()).toEqual(['GET /askbox/health']);
    await answer.body!.cancel();
  });

  it('ends a reply stream’s span when its body ends, not when its headers go', async () => {
    const telemetry = createTelemetry('/askbox');
    const url = URL_OF('/askbox/stream/token');
    const body = watchBody(new Response('data: x\n\n').body!, FAR, { onTimeout: () => undefined });
    const answer = new Response(body, { headers: SSE });
    telemetry.request(new Request(url), url).finish(answer);
    expect(spanNames()).toEqual([]);
    await answer.text();
    expect(spanNames()).toEqual(['GET /askbox/stream/{token}']);
  });

  it('runs the handler under its span when an SDK records it, and under none when only metrics are on', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const url = URL_OF('/askbox/health');
    const traced = createTelemetry('/askbox').request(new Request(url), url);
    expect(await traced.run(async () => trace.getActiveSpan())).toMatchObject({ name: 'GET /askbox/health' });
    // The meter provider stays registered; the tracer is the API's no-op again, whose spans record nothing.
    trace.disable();
    const measured = createTelemetry('/askbox').request(new Request(url), url);
    expect(await measured.run(async () => trace.getActiveSpan())).toBeUndefined();
  });

  it('times a call to the service by route and status, in seconds; without a route off the routes', async () => {
    const telemetry = createTelemetry('/askbox');
    await telemetry.upstream('/askbox/messages', slow);
    let collected = await sdk.collect();
    const match = { 'http.route': '/askbox/messages', 'http.response.status_code': 200 };
    expect(total(collected, 'askbox.proxy.upstream.duration', match)).toBe(1);
    expect(sumOf(collected, 'askbox.proxy.upstream.duration')).toBeGreaterThanOrEqual(0.04);
    expect(sumOf(collected, 'askbox.proxy.upstream.duration')).toBeLessThan(10);
    await telemetry.upstream(undefined, async () => new Response('{}', { status: 201 }));
    collected = await sdk.collect();
    const off = instrument(collected, 'askbox.proxy.upstream.duration')?.dataPoints.find(
      (p) => (p.attributes as Record<string, unknown>)['http.response.status_code'] === 201,
    );
    expect(Object.keys(off?.attributes ?? {})).toEqual(['http.response.status_code']);
  });

  it.each([
    ['a timeout', () => new UpstreamTimeout('no answer within 5 ms'), 'timeout'],
    ['a refused connection', () => new TypeError('fetch failed'), 'TypeError'],
    ['a thrown value that is no Error', () => 'gone', 'error'],
  ])('times a failed call by the failure’s type: %s', async (_name, make, type) => {
    const failure = make();
    const telemetry = createTelemetry('/askbox');
    await expect(telemetry.upstream('/askbox/messages', () => Promise.reject(failure))).rejects.toBe(failure);
    const match = { 'http.route': '/askbox/messages', 'error.type': type };
    expect(total(await sdk.collect(), 'askbox.proxy.upstream.duration', match)).toBe(1);
  });

  it('counts a reply stream open once and closed once, however often its end is heard, in seconds', async () => {
    const telemetry = createTelemetry('/askbox');
    const stream = telemetry.stream(performance.now() - 2000);
    expect(total(await sdk.collect(), 'askbox.proxy.streams.open')).toBe(1);
    stream.first();
    stream.end();
    stream.end();
    const collected = await sdk.collect();
    expect(total(collected, 'askbox.proxy.streams.open')).toBe(0);
    expect(total(collected, 'askbox.proxy.stream.duration')).toBe(1);
    for (const name of ['askbox.proxy.stream.first_byte', 'askbox.proxy.stream.duration']) {
      expect(sumOf(collected, name)).toBeGreaterThanOrEqual(2);
      expect(sumOf(collected, name)).toBeLessThan(60);
    }
  });
});

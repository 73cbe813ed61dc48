import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { createTelemetry, routeOf } from '../../../src/proxy/core/telemetry';

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

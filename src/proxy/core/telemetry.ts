/**
 * What a site owner can watch: the proxy reports through `@opentelemetry/api`, whose global meter and tracer are
 * the site's own SDK when one is registered, and no-ops otherwise (then a request costs a no-op span and a few
 * no-op calls). The PHP proxy writes the same names as fields of its metrics log lines.
 */
import {
  context,
  createNoopMeter,
  metrics,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace,
  ValueType,
  type Attributes,
  type Meter,
  type Span,
} from '@opentelemetry/api';
import { ROUTES } from '../../protocol/contract.js';
import type { IncomingRequest } from './call.js';
import { refusalOf } from './refusal.js';
import { onBodyEnd, UpstreamTimeout } from './upstream.js';

/** The instrumentation scope: what the SDK names the meter and the tracer by. */
const SCOPE = 'askbox-proxy';

/** The instruments, by name. The PHP proxy's metrics log lines carry the same names. */
export const METRICS = /* @__PURE__ */ Object.freeze({
  /** Counter: requests answered, by `http.request.method`, `http.route` and `http.response.status_code`. */
  requests: 'askbox.proxy.requests',
  /** Counter: the proxy's refusals, by `askbox.refusal.reason` (the contract's name for it) and status. */
  refusals: 'askbox.proxy.refusals',
  /** Histogram, seconds: each call to the service, until its answer (a JSON body read whole, a stream's headers). */
  upstreamDuration: 'askbox.proxy.upstream.duration',
  /** Histogram, seconds: from a stream request to the first byte of the reply (the bot's thinking time). */
  firstByte: 'askbox.proxy.stream.first_byte',
  /** UpDownCounter: reply streams being relayed now. */
  openStreams: 'askbox.proxy.streams.open',
  /** Histogram, seconds: from a stream request until its body ends (read, cut, timed out or left). */
  streamDuration: 'askbox.proxy.stream.duration',
});

/** The attributes, by OpenTelemetry's HTTP semantic conventions where they have one. All take bounded values. */
export const ATTRIBUTES = /* @__PURE__ */ Object.freeze({
  method: 'http.request.method',
  /** The route template (`/askbox/stream/{token}`), never the path. */
  route: 'http.route',
  status: 'http.response.status_code',
  reason: 'askbox.refusal.reason',
  action: 'askbox.limit.action',
  field: 'askbox.validation.field',
  rule: 'askbox.validation.rule',
  /** Of an upstream call that failed: `timeout` or the error's name. */
  errorType: 'error.type',
});

/** Seconds: the service's answers, from a few milliseconds to a synchronous reply's minute. */
const UPSTREAM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds: the length of a reply stream, up to the longest allowed. */
const STREAM_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];

/** Methods named as they are; any other is `_OTHER`, so a hostile client cannot mint attribute values. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/** Each route's path split into segments; `{…}` matches any one segment. */
const TEMPLATES = Object.values(ROUTES).map(({ path }) => ({ path, parts: path.split('/') }));

/** The route template a path falls under, as the handler routes it; undefined outside the routes. */
export function routeOf(base: string, pathname: string): string | undefined {
  if (!pathname.startsWith(`${base}/`)) return undefined;
  const segments = pathname.slice(base.length).split('/').filter(Boolean);
  const found = TEMPLATES.find(
    ({ parts }) =>
      parts.length === segments.length && parts.every((part, i) => part.startsWith('{') || part === segments[i]),
  );
  return found && `${base}/${found.path}`;
}

/** One request's telemetry: its span, its route template and when it began. */
export interface RequestTelemetry {
  route: string | undefined;
  /** `performance.now()` at its arrival. */
  started: number;
  /** Runs the handler with this request's span as the active one (when an SDK records it). */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** Counts the answer, and ends the span: now, or when a reply stream's body ends. */
  finish(response: Response): void;
}

/** A reply stream being relayed: `first` at its first byte, `end` when its body ends. */
interface StreamTelemetry {
  first(): void;
  end(): void;
}

/** The proxy's telemetry, made once per proxy. */
export interface ProxyTelemetry {
  request(request: IncomingRequest, url: URL): RequestTelemetry;
  /** Times one call to the service (with its redirects). */
  upstream(route: string | undefined, call: () => Promise<Response>): Promise<Response>;
  /** Counts a reply stream open from now, for the request begun at `started`. */
  stream(started: number): StreamTelemetry;
}

/** What a proxy reports through when no SDK is registered: nothing at all, not even a no-op span per request. */
const SILENT: ProxyTelemetry = Object.freeze({
  request: () => SILENT_REQUEST,
  upstream: (_route: string | undefined, call: () => Promise<Response>) => call(),
  stream: () => SILENT_STREAM,
});
const SILENT_REQUEST: RequestTelemetry = Object.freeze({
  route: undefined,
  started: 0,
  run: <T>(fn: () => Promise<T>) => fn(),
  finish: () => undefined,
});
const SILENT_STREAM: StreamTelemetry = Object.freeze({ first: () => undefined, end: () => undefined });

/** Whether neither a meter provider nor a tracer provider is registered with the global API. */
function noSdk(): boolean {
  const tracing = trace.getTracerProvider();
  // A fresh stand-in's delegate is the API's no-op provider: the one the global stand-in has until an SDK registers.
  const silentTracing =
    tracing instanceof ProxyTracerProvider && tracing.getDelegate() === new ProxyTracerProvider().getDelegate();
  return silentTracing && metrics.getMeter(SCOPE).constructor === createNoopMeter().constructor;
}

/**
 * The instruments of one proxy under `base`, created once from the global API: register the SDK's providers before
 * `createProxy` (for metrics, the API has no provider that would pick up an SDK registered later). With neither
 * registered then, the proxy reports nothing and pays nothing per request.
 * SECURITY: no stream token, conversation id, grant or path reaches an attribute or a span name: tokens and grants
 * are bearer capabilities, and ids are personal data. Only route templates, methods, statuses and reasons do.
 */
export function createTelemetry(base: string): ProxyTelemetry {
  if (noSdk()) return SILENT;
  const tracer = trace.getTracer(SCOPE);
  const { requests, refusals, upstreamDuration, firstByte, streamDuration, openStreams } = createInstruments(
    metrics.getMeter(SCOPE),
  );

  function request(incoming: IncomingRequest, url: URL): RequestTelemetry {
    const started = performance.now();
    const route = routeOf(base, url.pathname);
    const method = METHODS.has(incoming.method) ? incoming.method : '_OTHER';
    const attributes: Attributes = { [ATTRIBUTES.method]: method };
    if (route) attributes[ATTRIBUTES.route] = route;
    // The HTTP conventions' span name: the method and the route template, or the method alone off the routes.
    const span = tracer.startSpan(route ? `${method} ${route}` : method, { kind: SpanKind.SERVER, attributes });
    return {
      route,
      started,
      run: (fn) => (span.isRecording() ? context.with(trace.setSpan(context.active(), span), fn) : fn()),
      finish(response) {
        attributes[ATTRIBUTES.status] = response.status;
        requests.add(1, attributes);
        const refusal = refusalOf(response);
        if (refusal) {
          const counted: Attributes = { ...attributes, [ATTRIBUTES.reason]: refusal.reason };
          if (refusal.action) counted[ATTRIBUTES.action] = refusal.action;
          if (refusal.field) counted[ATTRIBUTES.field] = refusal.field;
          if (refusal.rule) counted[ATTRIBUTES.rule] = refusal.rule;
          refusals.add(1, counted);
          span.setAttribute(ATTRIBUTES.reason, refusal.reason);
        }
        span.setAttribute(ATTRIBUTES.status, response.status);
        if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        endWithBody(span, response);
      },
    };
  }

  async function upstream(route: string | undefined, call: () => Promise<Response>): Promise<Response> {
    const started = performance.now();
    const attributes: Attributes = route ? { [ATTRIBUTES.route]: route } : {};
    try {
      const response = await call();
      upstreamDuration.record(since(started), { ...attributes, [ATTRIBUTES.status]: response.status });
      return response;
    } catch (error) {
      const type = error instanceof UpstreamTimeout ? 'timeout' : error instanceof Error ? error.name : 'error';
      upstreamDuration.record(since(started), { ...attributes, [ATTRIBUTES.errorType]: type });
      throw error;
    }
  }

  function stream(started: number): StreamTelemetry {
    openStreams.add(1);
    let open = true;
    return {
      first: () => firstByte.record(since(started)),
      end() {
        if (!open) return;
        open = false;
        openStreams.add(-1);
        streamDuration.record(since(started));
      },
    };
  }

  return { request, upstream, stream };
}

/** The proxy's instruments on `meter`, each with its unit and, for histograms, buckets in seconds. */
function createInstruments(meter: Meter) {
  const requests = meter.createCounter(METRICS.requests, {
    description: 'Requests the Askbox proxy answered',
    unit: '{request}',
    valueType: ValueType.INT,
  });
  const refusals = meter.createCounter(METRICS.refusals, {
    description: 'Requests the Askbox proxy refused, or whose refusal by the service it passed on',
    unit: '{refusal}',
    valueType: ValueType.INT,
  });
  const seconds = (name: string, description: string, buckets: number[]) =>
    meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: buckets } });
  const upstreamDuration = seconds(METRICS.upstreamDuration, 'Calls to the chat service', UPSTREAM_BUCKETS);
  const firstByte = seconds(METRICS.firstByte, 'Time to the first byte of a reply stream', UPSTREAM_BUCKETS);
  const streamDuration = seconds(METRICS.streamDuration, 'Reply streams, until they end', STREAM_BUCKETS);
  const openStreams = meter.createUpDownCounter(METRICS.openStreams, {
    description: 'Reply streams being relayed',
    unit: '{stream}',
    valueType: ValueType.INT,
  });
  return { requests, refusals, upstreamDuration, firstByte, streamDuration, openStreams };
}

/** Seconds since `started` (a `performance.now()`). */
function since(started: number): number {
  return (performance.now() - started) / 1000;
}

/** Ends `span` when the body of a reply stream ends (the request lasts as long), or now for any other answer. */
function endWithBody(span: Span, response: Response): void {
  const streaming = response.body && response.headers.get('content-type')?.startsWith('text/event-stream');
  if (!streaming || !onBodyEnd(response.body, () => span.end())) span.end();
}

import { metrics, trace } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** One data point as the SDK exports it: a number for sums, `{count, sum, ...}` for histograms. */
interface Point {
  attributes: Record<string, unknown>;
  value: number | { count: number; sum?: number };
}

/** The metrics of one collection, as the SDK's ResourceMetrics (also as JSON, from a Worker). */
export interface Collected {
  scopeMetrics: { scope: { name: string }; metrics: { descriptor: { name: string }; dataPoints: Point[] }[] }[];
}

/** The data points of metric `name` in a collection (none when it was never recorded). */
function pointsOf(collected: Collected | undefined, name: string): Point[] {
  return (collected?.scopeMetrics ?? [])
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === name)
    .flatMap((metric) => metric.dataPoints);
}

/** The sum of the points of `name` whose attributes include `match`: a counter's count, a histogram's samples. */
export function total(collected: Collected | undefined, name: string, match: Record<string, unknown> = {}): number {
  return pointsOf(collected, name)
    .filter((point) => Object.entries(match).every(([key, value]) => point.attributes[key] === value))
    .reduce((sum, point) => sum + (typeof point.value === 'number' ? point.value : point.value.count), 0);
}

/**
 * The OpenTelemetry SDK, registered globally as a site would, exporting to memory: the metrics on demand (cumulative,
 * as Prometheus reads them), every ended span at once. `readers` are more metric readers (a Prometheus exporter).
 */
export function installInMemorySdk(readers: MetricReader[] = []) {
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exports only when asked (`collect`): the interval is longer than any test.
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader, ...readers] });
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  metrics.setGlobalMeterProvider(meterProvider);
  trace.setGlobalTracerProvider(tracerProvider);
  return {
    /** The metrics as of now. */
    async collect(): Promise<Collected | undefined> {
      await reader.forceFlush();
      return metricExporter.getMetrics().at(-1) as Collected | undefined;
    },
    /** Every span ended so far: what a site's exporter would send of it. */
    spans: () =>
      spanExporter
        .getFinishedSpans()
        .map(({ name, kind, attributes, status, events }) => ({ name, kind, attributes, status, events })),
    async shutdown() {
      await Promise.all([meterProvider.shutdown(), tracerProvider.shutdown()]);
      metrics.disable();
      trace.disable();
    },
  };
}

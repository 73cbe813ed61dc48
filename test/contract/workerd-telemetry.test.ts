import { fileURLToPath } from 'node:url';
import { startWorker } from '../helpers/workerd';
import type { Collected } from '../helpers/otel';
import { defineTelemetryContract, type SpanLike } from './telemetry-contract';

const path = (relative: string) => JSON.stringify(fileURLToPath(new URL(relative, import.meta.url)));

/**
 * A site's Worker entry that registers the OpenTelemetry SDK (with in-memory exporters) and then hands every request
 * to the built Askbox Worker, bundled as wrangler bundles it. Without an SDK the Worker runs on the API's no-ops:
 * the whole contract suite in workerd.test.ts runs that way.
 */
const ENTRY = `
import worker, { AskboxLimits } from ${path('../../dist/proxy/worker.js')};
import { withTelemetry } from ${path('../fixtures/worker-telemetry.ts')};
export { AskboxLimits };
export default withTelemetry(worker);
`;

defineTelemetryContract({
  name: 'workerd',
  async start(config) {
    const worker = await startWorker(config, { entry: { name: 'telemetry-entry.js', source: ENTRY } });
    const telemetry = `${new URL(worker.url).origin}/__telemetry`;
    return {
      ...worker,
      async read() {
        const body = (await (await fetch(telemetry)).json()) as { metrics: Collected | null; spans: SpanLike[] };
        return { metrics: body.metrics ?? undefined, spans: body.spans };
      },
    };
  },
});

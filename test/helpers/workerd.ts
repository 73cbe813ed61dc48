import { Miniflare } from 'miniflare';
import type { ContractConfig } from '../contract/config';
import { freshBuild } from './build';

/** The Worker's environment for the contract configuration, as a site would set it in wrangler.toml. */
export function workerBindings(config: ContractConfig): Record<string, string> {
  return {
    CODY_API_KEY: config.apiKey,
    ASKBOX_BOT_IDS: config.botIds.join(','),
    ASKBOX_SECRET: config.secret.join(','),
    ASKBOX_ALLOWED_ORIGINS: config.allowedOrigins.join(','),
    ASKBOX_DOCUMENT_IDS: config.documentIds.join(','),
    ASKBOX_BASE_PATH: config.basePath,
    CODY_API_URL: config.upstream,
    ASKBOX_OPTIONS: JSON.stringify({ limits: config.limits, timeouts: config.timeouts, streamTtlSeconds: config.streamTtlSeconds, clientIp: config.clientIp }),
  };
}

/**
 * The built Worker on the real Workers runtime (workerd, through miniflare), on a loopback port, with its limits in
 * the `AskboxLimits` Durable Object. `workers` > 1 runs that many copies of the Worker bound to one object.
 */
export async function startWorker(config: ContractConfig, workers = 1, overrides: Record<string, string> = {}) {
  const scriptPath = freshBuild('dist/proxy/worker.js');
  const mf = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    workers: Array.from({ length: workers }, (_, i) => ({
      name: `askbox-${i}`,
      modules: true,
      scriptPath,
      modulesRules: [{ type: 'ESModule', include: ['**/*.js'] }],
      compatibilityDate: '2025-01-01',
      bindings: { ...workerBindings(config), ...overrides },
      durableObjects: { ASKBOX_LIMITS: { className: 'AskboxLimits', scriptName: 'askbox-0' } },
    })),
  });
  const url = await mf.ready;
  return {
    url: `${url.origin}${config.basePath}`,
    /** A request to one of the Workers by name, as another isolate would serve it. */
    async dispatch(worker: number, input: string, init: { method: string; headers: Record<string, string>; body: string }) {
      // miniflare types the Fetcher through Cloudflare's own type package, which the project does not load.
      const fetcher = (await mf.getWorker(`askbox-${worker}`)) as unknown as { fetch(input: string, init: RequestInit): Promise<Response> };
      return fetcher.fetch(input, init);
    },
    close: () => mf.dispose(),
  };
}

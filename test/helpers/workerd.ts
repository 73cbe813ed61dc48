import { dirname } from 'node:path';
import { Miniflare } from 'miniflare';
import type { ContractConfig } from '../contract/config';
import type { DurableObjectNamespaceLike } from '../../src/proxy/stores/durable-object';
import { freshBuild } from './build';
import { bundleWorker } from './worker-bundle';

/** The Worker's environment for the contract configuration, as a site would set it in wrangler.toml. */
function workerBindings(config: ContractConfig): Record<string, string> {
  return {
    CODY_API_KEY: config.apiKey,
    ASKBOX_BOT_IDS: config.botIds.join(','),
    ASKBOX_SECRET: config.secret.join(','),
    ASKBOX_ALLOWED_ORIGINS: config.allowedOrigins.join(','),
    ASKBOX_STREAM_ORIGINS: config.streamOrigins.join(','),
    ASKBOX_DOCUMENT_IDS: config.documentIds.join(','),
    ASKBOX_BASE_PATH: config.basePath,
    CODY_API_URL: config.upstream,
    ...(config.allowedHosts && { ASKBOX_ALLOWED_HOSTS: config.allowedHosts.join(',') }),
    ...(config.identitySecret && { ASKBOX_IDENTITY_SECRET: config.identitySecret }),
    ...(config.proofOfWork && { ASKBOX_PROOF_OF_WORK: JSON.stringify(config.proofOfWork) }),
    // The contract trusts one X-Forwarded-For hop; on Cloudflare the default, CF-Connecting-IP, needs no option.
    ASKBOX_OPTIONS: JSON.stringify({
      limits: config.limits,
      timeouts: config.timeouts,
      streamTtlSeconds: config.streamTtlSeconds,
      clientIp: config.clientIp,
    }),
  };
}

/** How to run the Worker beyond the contract configuration. */
export interface WorkerSetup {
  /** Copies of the Worker, each its own isolate, all bound to one `AskboxLimits` object (default 1). */
  workers?: number;
  /** Bindings that replace the contract's (a misconfiguration under test). */
  env?: Record<string, string>;
  /** Bind the `AskboxLimits` Durable Object as `ASKBOX_LIMITS` (default true). */
  durableObject?: boolean;
  /** Collects the Worker's console lines here instead of printing them. */
  logs?: string[];
  /** Bindings for each copy on top of the others (two sites sharing one object). */
  perWorkerEnv?: Record<string, string>[];
  /** Bind `ASKBOX_LIMITS` to an object that never answers instead of `AskboxLimits`. */
  stuckLimits?: boolean;
  /**
   * A Worker entry of the site's own that wraps the built one (its code, importing dist/proxy/worker.js by absolute
   * path and exporting `default` and `AskboxLimits`); bundled like the built entry.
   */
  entry?: { name: string; source: string };
}

/** A Durable Object that takes every request and never answers (a timer keeps it from being seen as hung). */
const STUCK_SCRIPT = `
export class Stuck {
  async fetch() {
    await new Promise((resolve) => setTimeout(resolve, 120000));
    return new Response('{}');
  }
}
export default { fetch: () => new Response('stuck') };
`;

/** What the Worker fetcher miniflare hands back; typed here since its own types come from Cloudflare's package. */
interface Fetcher {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

/**
 * The built Worker (dist/proxy/worker.js, as published) on the real Workers runtime (workerd, through miniflare),
 * on a loopback port, with its limits in the `AskboxLimits` Durable Object.
 * `workers` may also be given as the second argument, and bindings to replace as the third.
 */
export async function startWorker(
  config: ContractConfig,
  workersOrSetup: number | WorkerSetup = 1,
  env: Record<string, string> = {},
) {
  const setup: WorkerSetup = typeof workersOrSetup === 'number' ? { workers: workersOrSetup, env } : workersOrSetup;
  const built = freshBuild('dist/proxy/worker.js');
  // Bundled as wrangler bundles it: the built proxy imports `@opentelemetry/api`, which workerd cannot resolve.
  const scriptPath = await (setup.entry ? bundleWorker(setup.entry.name, setup.entry.source) : bundleWorker(built));
  const logs = setup.logs;
  const mf = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    ...(logs
      ? {
          structuredWorkerdLogs: true,
          handleStructuredLogs: ({ level, message }: { level: string; message: string }) =>
            void logs.push(`${level}: ${message}`),
        }
      : {}),
    workers: [
      ...Array.from({ length: setup.workers ?? 1 }, (_, i) => ({
        name: `askbox-${i}`,
        modules: true,
        scriptPath,
        modulesRoot: dirname(scriptPath),
        modulesRules: [{ type: 'ESModule' as const, include: ['**/*.js'] }],
        // The README's wrangler.toml date.
        compatibilityDate: '2026-04-01',
        bindings: { ...workerBindings(config), ...setup.env, ...setup.perWorkerEnv?.[i] },
        ...(setup.durableObject === false
          ? {}
          : {
              durableObjects: {
                ASKBOX_LIMITS: setup.stuckLimits
                  ? { className: 'Stuck', scriptName: 'askbox-stuck' }
                  : { className: 'AskboxLimits', scriptName: 'askbox-0' },
              },
            }),
      })),
      ...(setup.stuckLimits
        ? [{ name: 'askbox-stuck', modules: true, script: STUCK_SCRIPT, compatibilityDate: '2026-04-01' }]
        : []),
    ],
  });
  const url = await mf.ready;
  return {
    url: `${url.origin}${config.basePath}`,
    /** A request to one of the Workers by name, as another isolate would serve it. */
    async dispatch(worker: number, input: string, init?: RequestInit) {
      const fetcher = (await mf.getWorker(`askbox-${worker}`)) as unknown as Fetcher;
      return fetcher.fetch(input, init);
    },
    /** The `ASKBOX_LIMITS` namespace itself, driven from the test (with its own clock) through miniflare. */
    async limits(): Promise<DurableObjectNamespaceLike> {
      return (await mf.getDurableObjectNamespace('ASKBOX_LIMITS', 'askbox-0')) as unknown as DurableObjectNamespaceLike;
    },
    close: () => mf.dispose(),
  };
}

import { resolveOptions, type ProxyLogEntry, type ProxyOptions, type ResolvedOptions } from './options.js';
import { createIdentityCheck, type IdentityCheck } from './identity.js';
import { createPolicy, type Policy } from './policy.js';
import { createProofOfWork, type ProofOfWork } from './proof.js';
import { createSealer, type Sealer } from './seal.js';
import { createService, type Service } from './service.js';
import { createStreamCap, type StreamCap } from './stream-cap.js';
import { createTelemetry, type ProxyTelemetry } from './telemetry.js';

/** What the routes share, made once per proxy from its options. */
export interface ProxyDeps {
  config: ResolvedOptions;
  /** The site's own hooks. */
  hooks: Pick<ProxyOptions, 'authorize' | 'onFeedback' | 'onDelete'>;
  policy: Policy;
  /** Who a request speaks for: anonymous, a verified person, or refused (identity.ts). */
  identify: IdentityCheck;
  proof: ProofOfWork;
  sealer: Sealer;
  streamCap: StreamCap;
  telemetry: ProxyTelemetry;
  service: Service;
  log: (entry: ProxyLogEntry) => void;
  /** Keeps the key and the secrets out of a log line. */
  redact: (text: string) => string;
}

/** Checks the options, throwing at once on a misconfiguration, and makes what the routes share. */
export function createDeps(options: ProxyOptions): ProxyDeps {
  const config = resolveOptions(options);
  const policy = createPolicy(config, options.onLimit);
  const telemetry = createTelemetry(config.base);
  const log = options.log ?? (() => undefined);
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  return {
    config,
    hooks: { authorize: options.authorize, onFeedback: options.onFeedback, onDelete: options.onDelete },
    policy,
    identify: createIdentityCheck(config.identitySecret, log),
    proof: createProofOfWork({ ...config, settings: config.proofOfWork, guard: policy.guard.limits }),
    sealer: createSealer(config.secrets, config.now, options.aesGcm),
    streamCap: createStreamCap(config.maxStreams),
    telemetry,
    service: createService({ config, fetch: doFetch, telemetry, log }),
    log,
    // SECURITY: whatever an error says, the key and the secrets never reach a log line.
    redact: (text) =>
      [config.apiKey, ...config.secrets, ...(config.identitySecret ? [config.identitySecret] : [])].reduce(
        (out, secret) => out.split(secret).join('[redacted]'),
        text,
      ),
  };
}

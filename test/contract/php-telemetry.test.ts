import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTRIBUTES as A, METRICS } from '../../src/proxy/core/telemetry';
import { startPhpProxy } from '../helpers/php';
import { CONTRACT_KEY, contractConfig, type ContractConfig } from './config';
import { EXERCISED_REFUSALS, exerciseProxy, TELEMETRY_SCENARIO, type Seen } from './telemetry-contract';
import { startUpstream } from './upstream';

type Line = Record<string, unknown>;

/** The metrics lines among what the PHP server printed: `[askbox] {"event":"askbox.proxy.…"}`. */
function metricsLines(errors: string[]): Line[] {
  return errors
    .join('')
    .split('\n')
    .flatMap((text) => /\[askbox\] (\{"event":"askbox\.proxy\..*)$/.exec(text)?.[1] ?? [])
    .map((json) => JSON.parse(json) as Line);
}

/** A request as method, route and status, comparable between a log line and what the client saw. */
const key = (method: unknown, route: unknown, status: unknown) => JSON.stringify([method, route ?? null, status]);

const NAMES = new Set<string>(['event', ...Object.values(METRICS), ...Object.values(A)]);

/**
 * The PHP proxy writes what the Node and Workers proxies report through OpenTelemetry as structured log lines
 * (`metricsLog`), under the same names, for the same script of requests.
 */
describe('the PHP proxy, watched through its metrics log lines', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let config: ContractConfig;

  beforeAll(async () => {
    upstream = await startUpstream(CONTRACT_KEY, TELEMETRY_SCENARIO);
    config = contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin);
  });
  afterAll(() => upstream?.close());

  it('writes one line per request with the Node metrics names, and the stream open and closed', async () => {
    const php = await startPhpProxy(config, undefined, { metricsLog: true });
    const seen: Seen[] = [];
    const secrets: string[] = [];
    try {
      await exerciseProxy(new URL(php.url).origin, seen, secrets);
      await expect
        .poll(() => metricsLines(php.errors).filter((l) => l.event === 'askbox.proxy.request').length)
        .toBe(
          // The server's own readiness probe (GET health) is a request too.
          seen.length + 1,
        );
    } finally {
      await php.close();
    }
    const lines = metricsLines(php.errors);
    const requests = lines.filter((line) => line.event === 'askbox.proxy.request').slice(1);
    expect(requests.map((l) => key(l[A.method], l[A.route], l[A.status])).sort()).toEqual(
      seen.map((s) => key(s.method, s.route, s.status)).sort(),
    );
    expect(requests.every((line) => line[METRICS.requests] === 1)).toBe(true);

    // Every field is one of the Node proxy's instrument or attribute names, and every instrument shows up.
    for (const line of lines) for (const name of Object.keys(line)) expect(NAMES, name).toContain(name);
    for (const name of Object.values(METRICS))
      expect(
        lines.some((line) => name in line),
        name,
      ).toBe(true);
    const calls = requests.flatMap((line) => (line[METRICS.upstreamDuration] as Line[] | undefined) ?? []);
    for (const call of calls)
      for (const name of Object.keys(call)) expect(['value', A.status, A.errorType]).toContain(name);
    // Six calls reached the service, as on Node: two conversations, the stream send, its stream, the 402 and the 503.
    expect(calls).toHaveLength(6);
    expect(calls.every((call) => typeof call.value === 'number' && call.value >= 0)).toBe(true);

    const refused = (match: Line) =>
      requests.filter((line) => Object.entries(match).every(([name, value]) => line[name] === value)).length;
    for (const match of EXERCISED_REFUSALS) expect(refused(match), JSON.stringify(match)).toBe(1);
    expect(refused({ [METRICS.refusals]: 1 })).toBe(seen.filter((s) => s.status >= 400).length);

    // The stream: +1 when it opened, -1 on its request's line with its timings.
    expect(lines.reduce((sum, line) => sum + Number(line[METRICS.openStreams] ?? 0), 0)).toBe(0);
    const stream = requests.find((line) => line[A.route] === '/askbox/stream/{token}' && line[A.status] === 200)!;
    expect(stream[METRICS.openStreams]).toBe(-1);
    expect(stream[METRICS.firstByte]).toBeGreaterThan(0);
    expect(stream[METRICS.streamDuration]).toBeGreaterThanOrEqual(stream[METRICS.firstByte] as number);
    const text = JSON.stringify(lines);
    for (const secret of secrets) expect(text).not.toContain(secret);
  }, 60_000);

  it('writes no metrics line unless asked, so the error log keeps only warnings and errors', async () => {
    const php = await startPhpProxy(config);
    try {
      await exerciseProxy(new URL(php.url).origin, [], []);
    } finally {
      await php.close();
    }
    expect(metricsLines(php.errors)).toEqual([]);
  }, 60_000);

  it('refuses a metricsLog that is not true or false as a misconfiguration', async () => {
    const php = await startPhpProxy(config, undefined, { metricsLog: 'yes' });
    try {
      expect((await fetch(`${php.url}/health`)).status).toBe(503);
      await expect.poll(() => php.errors.join('')).toContain('metricsLog must be true or false');
    } finally {
      await php.close();
    }
  });
});

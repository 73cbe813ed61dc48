import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** semver ships no types; only `satisfies` and `minVersion` are used. */
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

const read = (path: string) => JSON.parse(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8')) as never;

describe('engines', () => {
  it('are truthful: every package npm ci installs runs on the oldest Node the manifest claims', () => {
    const manifest = read('package.json') as { engines: { node: string } };
    const lock = read('package-lock.json') as {
      packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
    };
    const oldest = semver.minVersion(manifest.engines.node)?.version ?? '';
    expect(oldest).toMatch(/^20\./);
    const refusing = Object.entries(lock.packages)
      .filter(([, pkg]) => !pkg.optional && !Array.isArray(pkg.engines) && pkg.engines?.node)
      .filter(([, pkg]) => !semver.satisfies(oldest, (pkg.engines as { node: string }).node))
      .map(([name, pkg]) => `${name} (${(pkg.engines as { node: string }).node})`);
    expect(refusing).toEqual([]);
  });
});

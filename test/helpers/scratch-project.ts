import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshBuild } from './build';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A package's manifest, for the fields the copy below walks. */
interface Manifest {
  version: string;
  dependencies?: Record<string, string>;
}

const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/**
 * Copies `name` and what it depends on from our node_modules into `project`'s, as npm would have placed them.
 * Why: `npm install --offline` needs each dependency's registry metadata, which `npm ci` never caches (it installs
 * from the lockfile), so the tarball's dependencies are put in place first and npm then finds them satisfied.
 */
function copyInstalled(project: string, name: string): void {
  const target = join(project, 'node_modules', name);
  if (existsSync(target)) return;
  const source = join(ROOT, 'node_modules', name);
  mkdirSync(dirname(target), { recursive: true });
  cpSync(source, target, { recursive: true, dereference: true });
  for (const dependency of Object.keys(manifestOf(source).dependencies ?? {})) copyInstalled(project, dependency);
}

/** The scratch project a site owner would have: the packed package installed by npm, plus the frameworks. */
export interface ScratchProject {
  dir: string;
  /** The tarball `npm pack` wrote. */
  tarball: string;
}

/**
 * `npm pack` of this repository (after `npm run build`), then a fresh project (`npm init -y`) that installs the
 * tarball with `install` (the README's command line, without `npm`), offline. Express, Fastify and the OpenTelemetry
 * SDK packages, which a recipe's owner adds with `npm i`, are linked from our own node_modules.
 */
export function createScratchProject(install: (tarball: string) => string[]): ScratchProject {
  for (const output of ['dist/askbox.js', 'dist/proxy/index.js', 'dist/proxy/worker.js', 'dist/types/index.d.ts'])
    freshBuild(output);
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'askbox-recipes-')));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', base], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as { filename: string }[];
  const tarball = join(base, (packed[0] as { filename: string }).filename);
  const dir = join(base, 'my-proxy');
  mkdirSync(dir);
  execFileSync('npm', ['init', '-y'], { cwd: dir, stdio: 'ignore' });
  for (const dependency of Object.keys(manifestOf(ROOT).dependencies ?? {})) copyInstalled(dir, dependency);
  execFileSync('npm', [...install(tarball), '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  for (const framework of ['express', 'fastify', '@opentelemetry/sdk-metrics', '@opentelemetry/exporter-prometheus'])
    symlinkSync(join(ROOT, 'node_modules', framework), join(dir, 'node_modules', framework), 'dir');
  return { dir, tarball };
}

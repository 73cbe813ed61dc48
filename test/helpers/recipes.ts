import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Miniflare } from 'miniflare';
import { bundleWorker } from './worker-bundle';
import { parse } from 'smol-toml';
import { PHP_PROXY, requirePhp } from './php';
import { freePort } from './ports';
import { startProcess, type OwnerCommand } from './process';
import { commandVariables, readmeBlock, readmeSection } from './readme';
import { walkthroughPorts, type WalkthroughPorts } from './walkthrough';

const run = promisify(execFile);

/** A README recipe, running: where the widget finds it, what it printed, and how to stop it. */
export interface RunningRecipe {
  proxyUrl: string;
  output: string[];
  close(): Promise<void>;
}

/** The variables of the README's table that a site owner sets; PORT is added per recipe. */
export type RecipeEnv = Record<string, string>;

/** A proxy started as an owner would start it, found by the widget at `proxyUrl`. */
function start(owner: OwnerCommand, proxyUrl: string): RunningRecipe {
  return { proxyUrl, ...startProcess(owner) };
}

/** Waits until the proxy's `GET health` answers 200 (a configured proxy), or fails with what it printed. */
async function healthy(recipe: RunningRecipe, name: string): Promise<RunningRecipe> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await fetch(`${recipe.proxyUrl}/health`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return recipe;
    if (Date.now() > deadline) {
      await recipe.close();
      throw new Error(`the README's ${name} recipe did not come up (health ${status}):\n${recipe.output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A Node recipe (plain node:http, Express, Fastify): the README's block saved as `file`, run with `node file`. */
export async function startNodeRecipe(heading: string, file: string, project: string, env: RecipeEnv) {
  writeFileSync(join(project, file), readmeBlock(heading, 'js'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/askbox`;
  const owner = { command: process.execPath, args: [file], cwd: project, env: { ...env, PORT: String(port) } };
  return healthy(start(owner, url), heading);
}

/** The versions a new Next.js app gets (`create-next-app`'s dependencies); next 16 accepts Node 20.9 and later. */
const NEXT_APP = ['next@16', 'react@19', 'react-dom@19', 'typescript', '@types/react', '@types/node'];

/**
 * The Next.js route handler in real Next.js: an app of its own beside `project` (a package.json with no `type`, as
 * `create-next-app` writes it: Next compiles route.ts as ESM and refuses a `"type": "commonjs"` package), with the
 * packed package and Next.js installed from the npm registry, the README's `route.ts` saved where it names it, and
 * nothing else, run by `next dev`. TypeScript is installed up front, which `next dev` would otherwise do itself.
 */
export async function startNextRecipe(tarball: string, project: string, env: RecipeEnv) {
  const heading = 'Next.js (app router)';
  const path = /^`(app\/[^`]+\/route\.ts)`:$/m.exec(readmeSection(heading))?.[1];
  if (!path) throw new Error(`README.md "${heading}" no longer names its route file`);
  const app = join(project, '..', 'my-next-app');
  mkdirSync(join(app, path, '..'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'my-next-app', private: true }));
  writeFileSync(join(app, path), readmeBlock(heading, 'ts'));
  const installing = Date.now();
  await run('npm', ['i', tarball, ...NEXT_APP, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app });
  const port = await freePort();
  const starting = Date.now();
  const next = start(
    {
      command: join(app, 'node_modules/.bin/next'),
      args: ['dev', '--port', String(port), '--hostname', '127.0.0.1'],
      cwd: app,
      env: { ...env, NEXT_TELEMETRY_DISABLED: '1' },
    },
    `http://127.0.0.1:${port}/askbox`,
  );
  const up = await healthy(next, heading);
  up.output.unshift(`npm i: ${starting - installing} ms, next dev to a compiled health: ${Date.now() - starting} ms\n`);
  return up;
}

/** The parts of the README's wrangler.toml that `wrangler dev` acts on. */
interface WranglerToml {
  name: string;
  main: string;
  compatibility_date: string;
  vars: Record<string, string>;
  durable_objects: { bindings: { name: string; class_name: string }[] };
  migrations: { tag: string; new_classes: string[] }[];
}

/**
 * The Worker as `wrangler dev` runs the README's wrangler.toml: its `main` (from the installed package) on workerd
 * through miniflare, with its compatibility date, `[vars]` and Durable Object bindings, `devVars` (`.dev.vars`)
 * over the vars. Every Durable Object class bound must be created by a migration, as wrangler requires.
 */
export async function startWorkerRecipe(project: string, devVars: RecipeEnv) {
  const toml = parse(readmeBlock('Cloudflare Workers', 'toml')) as unknown as WranglerToml;
  writeFileSync(join(project, 'wrangler.toml'), readmeBlock('Cloudflare Workers', 'toml'));
  const migrated = new Set(toml.migrations.flatMap((migration) => migration.new_classes));
  const unmigrated = toml.durable_objects.bindings.filter((binding) => !migrated.has(binding.class_name));
  if (unmigrated.length) throw new Error(`wrangler.toml binds classes no migration creates: ${unmigrated.join(', ')}`);
  const port = await freePort();
  // wrangler bundles `main` with what it imports (the proxy's chunk, @opentelemetry/api from the project's
  // node_modules); workerd resolves no bare import.
  const scriptPath = await bundleWorker(join(project, toml.main));
  const output: string[] = [];
  const mf = new Miniflare({
    host: '127.0.0.1',
    port,
    // The Worker's console, as `wrangler tail` shows it: one line each.
    handleStructuredLogs: ({ message }: { message: string }) => void output.push(`${message}\n`),
    workers: [
      {
        name: toml.name,
        modules: true,
        scriptPath,
        modulesRoot: dirname(scriptPath),
        compatibilityDate: toml.compatibility_date,
        bindings: { ...toml.vars, ...devVars, ASKBOX_PUBLIC_URL: `http://127.0.0.1:${port}` },
        durableObjects: Object.fromEntries(toml.durable_objects.bindings.map((b) => [b.name, b.class_name])),
      },
    ],
  });
  const url = await mf.ready;
  const recipe: RunningRecipe = { proxyUrl: `${url.origin}/askbox`, output, close: () => mf.dispose() };
  return healthy(recipe, 'Cloudflare Workers');
}

/** The PHP recipe's way to try it: the command that serves the web root, and the address its page's tag names. */
export function phpTrial() {
  const heading = 'PHP (shared hosting)';
  const command = readmeBlock(heading, 'sh');
  const port = Number(/php -S localhost:(\d+)\s*$/.exec(command)?.[1]);
  const entry = /`(\w+\.php)` in your web root/.exec(readmeSection(heading))?.[1];
  const proxyUrl = new RegExp(`data-proxy-url="(http://localhost:${port}/${entry})"`).exec(readmeSection(heading))?.[1];
  if (!port || !entry || !proxyUrl)
    throw new Error(`README.md "${heading}" no longer names its entry script, its php -S port and the tag's address`);
  return { heading, command, port, entry, proxyUrl, variables: commandVariables(command) };
}

/** `text` with each documented port (`:8788`) replaced by the one this run listens on. */
function onPorts(text: string, ports: ReadonlyMap<number, number>): string {
  return text.replace(/:(\d+)\b/g, (written, port: string) => {
    const moved = ports.get(Number(port));
    return moved === undefined ? written : `:${moved}`;
  });
}

/**
 * The PHP recipe as the README says to try it: its entry script as `askbox.php` in a web root next to a copy of
 * askbox-proxy.php, and its command run there (`sh`), with the walkthrough's simulator and page on `ports` and
 * php -S on a free port instead of their documented ones. Several workers, as php-fpm has. Its store folder is the
 * default, askbox-data beside the web root.
 */
export async function startPhpRecipe(project: string, ports: Pick<WalkthroughPorts, 'simulator' | 'page'>) {
  requirePhp();
  const trial = phpTrial();
  const root = join(project, 'public');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, trial.entry), readmeBlock(trial.heading, 'php'));
  copyFileSync(PHP_PROXY, join(root, 'askbox-proxy.php'));
  const documented = walkthroughPorts();
  const port = await freePort();
  const moved = new Map([
    [documented.simulator, ports.simulator],
    [documented.page, ports.page],
    [trial.port, port],
  ]);
  const owner = {
    command: 'sh',
    args: ['-ec', onPorts(trial.command, moved)],
    cwd: root,
    env: { PHP_CLI_SERVER_WORKERS: '4' },
  };
  return healthy(start(owner, onPorts(trial.proxyUrl, moved)), trial.heading);
}

/** A visitor's rating as a proxy's default `onFeedback` logs it. */
export interface LoggedRating {
  conversationId: string;
  messageId: string;
  rating: 'up' | 'down';
  comment?: string;
  visitorId: string;
}

/**
 * The ratings a recipe wrote where the README says they go: the `feedback` lines of its output, whatever a runtime
 * puts before the JSON (PHP's error log its date and `[askbox]`).
 */
export function loggedRatings(output: readonly string[]): LoggedRating[] {
  const opening = '{"level":"info","event":"feedback"';
  return output
    .join('')
    .split('\n')
    .flatMap((line) => (line.includes(opening) ? [line.slice(line.indexOf(opening))] : []))
    .map((line) => JSON.parse((JSON.parse(line) as { message: string }).message) as LoggedRating);
}

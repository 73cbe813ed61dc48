import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';

const bundles = new Map<string, Promise<string>>();
const folders: string[] = [];
process.once('exit', () => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/**
 * `entry` bundled into one ES module with the npm packages it imports, as wrangler bundles a Worker (workerd
 * resolves no bare import such as `@opentelemetry/api`, which the built proxy leaves to the site's bundler).
 * `source`, when given, is the entry's code, written to a temporary file first (its imports must be absolute paths).
 * Built once per entry and process, into a temporary folder removed at exit.
 */
export function bundleWorker(entry: string, source?: string): Promise<string> {
  const key = source ?? entry;
  let bundle = bundles.get(key);
  if (!bundle) {
    const outDir = mkdtempSync(join(tmpdir(), 'askbox-worker-'));
    folders.push(outDir);
    const input = source === undefined ? entry : join(outDir, entry);
    if (source !== undefined) writeFileSync(input, source);
    bundle = build({
      configFile: false,
      logLevel: 'warn',
      publicDir: false,
      build: {
        outDir: join(outDir, 'out'),
        emptyOutDir: true,
        minify: false,
        target: 'es2022',
        lib: { entry: input, formats: ['es'], fileName: () => 'worker.js' },
        rolldownOptions: { external: [/^node:/, /^cloudflare:/] },
      },
    }).then(() => join(outDir, 'out', 'worker.js'));
    bundles.set(key, bundle);
  }
  return bundle;
}

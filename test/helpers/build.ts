import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The newest modification time of any file under `dir`. */
function newest(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? newest(join(dir, entry.name)) : statSync(join(dir, entry.name)).mtimeMs,
    ),
  );
}

/**
 * The path of `output` (under dist/), refusing to go on when it is missing or older than anything under src/:
 * tests in Chromium or workerd must never run a stale build. (Rebuilding here would race the other test files
 * that read dist/ at the same time; `npm test` builds first.)
 */
export function freshBuild(output: string): string {
  // Stryker's sandbox copies src/ with new times, so every build looks stale there: name the real fault instead.
  if (process.env.STRYKER === '1')
    throw new Error(`${output}: a test that reads dist/ runs under Stryker; list it in BUILT_TESTS (vite.config.ts)`);
  const file = join(ROOT, output);
  if (!existsSync(file)) throw new Error(`${output} is missing: run \`npm run build\` first (npm test does)`);
  if (statSync(file).mtimeMs < newest(join(ROOT, 'src')))
    throw new Error(`${output} is older than src/: run \`npm run build\` (npm test does)`);
  return file;
}

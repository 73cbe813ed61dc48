// Before `npm start`: builds only when dist/ is missing or older than its sources, so a start after a build takes a
// second, not a minute. `--check` only answers (exit 0: fresh, 1: stale), for the tests. ASKBOX_ROOT: the project.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.env.ASKBOX_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
/** What the demo serves from dist/. */
const OUTPUTS = [
  'dist/askbox.js',
  'dist/manifest.json',
  'dist/askbox-debug.js',
  'dist/askbox.mjs',
  'dist/askbox-locales',
];
/** What the build reads besides src/. */
const INPUTS = ['src', 'scripts', 'vite.config.ts', 'package.json', 'tsconfig.json'];

/** The newest (or, with `pick = Math.min`, the oldest) modification time under `path`; NaN when it is missing. */
function time(path, pick = Math.max) {
  if (!existsSync(path)) return Number.NaN;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return pick(...readdirSync(path).map((name) => time(join(path, name), pick)));
}

const built = Math.min(...OUTPUTS.map((output) => time(join(root, output), Math.min)));
const sources = Math.max(...INPUTS.map((input) => time(join(root, input))).filter((t) => !Number.isNaN(t)));
const fresh = built >= sources;

if (process.argv.includes('--check')) process.exit(fresh ? 0 : 1);
if (fresh) console.log('dist/ is newer than its sources: not rebuilding (npm run build forces it).');
else process.exit(spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' }).status ?? 1);

import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { configDefaults, type TestProjectConfiguration } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * One config, three library builds selected by `--mode`:
 * - `embed`: dist/askbox.js, the self-contained IIFE for the script tag (everything bundled);
 * - `lib`:   dist/askbox.mjs, the ESM entry with `mount()` (runtime packages stay external);
 * - `proxy`: dist/proxy/*.js, the token proxy for Node, edge runtimes and Cloudflare Workers (no browser code).
 */
const builds: Record<string, UserConfig['build']> = {
  embed: {
    emptyOutDir: true,
    target: 'es2020',
    lib: { entry: 'src/embed.ts', formats: ['iife'], name: 'AskboxEmbed', fileName: () => 'askbox.js' },
  },
  lib: {
    emptyOutDir: false,
    target: 'es2020',
    lib: { entry: 'src/index.ts', formats: ['es'], fileName: () => 'askbox.mjs' },
    rolldownOptions: { external: [/^preact/, /^@preact\//, 'dompurify', 'streaming-markdown', /^eventsource-parser/] },
  },
  proxy: {
    emptyOutDir: false,
    outDir: 'dist/proxy',
    target: 'node20',
    minify: false,
    lib: {
      entry: { index: 'src/proxy/index.ts', node: 'src/proxy/node.ts', worker: 'src/proxy/worker.ts' },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rolldownOptions: { external: [/^node:/] },
  },
};

/**
 * dist/wordpress/askbox/: the WordPress plugin, ready to zip — its own files, the PHP proxy and the widget bundle
 * (built by the `embed` mode before this one).
 */
function wordpressPackage(): Plugin {
  return {
    name: 'askbox-wordpress-package',
    closeBundle() {
      const out = 'dist/wordpress/askbox';
      mkdirSync(out, { recursive: true });
      for (const file of ['askbox.php', 'readme.txt'])
        copyFileSync(`src/proxy/wordpress/askbox/${file}`, `${out}/${file}`);
      copyFileSync('src/proxy/php/askbox-proxy.php', `${out}/askbox-proxy.php`);
      copyFileSync('dist/askbox.js', `${out}/askbox.js`);
    },
  };
}

/**
 * `npm run mutate` (Stryker) mutates the TypeScript sources, so it runs the tests that exercise them from source:
 * not the ones that run the built dist/ (workerd, the WordPress package), the PHP proxy, or Chromium.
 */
const mutating = process.env.STRYKER === '1';
const BUILT_TESTS = [
  'test/contract/workerd.test.ts',
  'test/contract/php.test.ts',
  'test/contract/cross-runtime.test.ts',
  'test/unit/wordpress-plugin.test.ts',
  'test/unit/package-exports.test.ts',
];

const node: TestProjectConfiguration = {
  extends: true,
  test: {
    name: 'node',
    environment: 'node',
    include: ['test/unit/**/*.test.ts', 'test/contract/**/*.test.ts'],
    exclude: [...configDefaults.exclude, '**/*.dom.test.ts', ...(mutating ? BUILT_TESTS : [])],
  },
};
const dom: TestProjectConfiguration = {
  extends: true,
  test: {
    name: 'dom',
    environment: 'happy-dom',
    include: ['test/unit/**/*.dom.test.ts', 'test/component/**/*.test.tsx'],
  },
};
const e2e: TestProjectConfiguration = {
  extends: true,
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['test/e2e/**/*.spec.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
};
const bench: TestProjectConfiguration = {
  extends: true,
  test: { name: 'bench', environment: 'node', include: [], benchmark: { include: ['test/bench/**/*.bench.ts'] } },
};

export default defineConfig(({ mode }) => ({
  define: { __ASKBOX_VERSION__: JSON.stringify(version) },
  build: builds[mode] ?? builds.embed,
  plugins: mode === 'proxy' ? [wordpressPackage()] : [],
  test: { projects: mutating ? [node, dom] : [node, dom, e2e, bench] },
}));

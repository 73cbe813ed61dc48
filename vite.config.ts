import { copyFileSync, cpSync, mkdirSync, readFileSync } from 'node:fs';
import { Features } from 'lightningcss';
import { minify } from 'terser';
import { build, defineConfig, type Plugin, type Rolldown, type UserConfig } from 'vite';
import { configDefaults, type TestProjectConfiguration } from 'vitest/config';
import { TABLES } from './src/config/locales/index.js';

/**
 * The widget never uses `light-dark()`, so Lightning CSS need not polyfill it: its polyfill adds
 * `--lightningcss-light`/`--lightningcss-dark` variables to every rule that sets `color-scheme`.
 */
const css: UserConfig['css'] = { lightningcss: { exclude: Features.LightDark } };

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
    target: 'es2022',
    lib: { entry: 'src/embed.ts', formats: ['iife'], name: 'AskboxEmbed', fileName: () => 'askbox.js' },
  },
  lib: {
    emptyOutDir: false,
    target: 'es2022',
    lib: { entry: 'src/index.ts', formats: ['es'], fileName: () => 'askbox.mjs' },
    rolldownOptions: { external: [/^preact/, /^@preact\//, 'dompurify', 'streaming-markdown'] },
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
 * The embed bundle's lazy half. `src/mount/chat.ts` and everything it imports (Preact, signals, DOMPurify,
 * markdown, the model and the panel's stylesheet) must run on the visitor's first sign of interest, not at boot,
 * yet stay in the one script. They are bundled first into one flat module whose code becomes the body of one
 * function, run on the first call of `createChat`: the engine only pre-parses it at boot. (A dynamic import kept
 * in the IIFE would give each of those ~40 modules an init wrapper with its declarations hoisted out, ~1 KB
 * gzipped more, and its namespace object is built with a `for…in` that breaks on a polluted Object.prototype.)
 */
function flatChat(): Plugin {
  return {
    name: 'askbox-flat-chat',
    async load(id) {
      if (!id.endsWith('/src/mount/chat.ts')) return null;
      const result = await build({
        configFile: false,
        logLevel: 'warn',
        plugins: [withoutDeadHelpers()],
        css,
        build: { write: false, target: 'es2022', lib: { entry: id, formats: ['es'] } },
      });
      const chunk = (Array.isArray(result) ? result[0] : (result as Rolldown.RolldownOutput))?.output[0];
      const exported = chunk && /export\s*\{\s*(?:([\w$]+)\s+as\s+)?createChat\s*\};?\s*$/.exec(chunk.code);
      if (!chunk || !exported || chunk.imports.length > 0)
        throw new Error('src/mount/chat.ts must bundle into one module that exports only createChat');
      const body = chunk.code.slice(0, exported.index);
      const name = exported[1] ?? 'createChat';
      return `let made;function make(){${body};return ${name}}export function createChat(...args){return (made??=make())(...args)}`;
    },
  };
}

/**
 * DOMPurify's ESM build carries Babel's async-generator helper, which it never calls but whose prototype writes keep
 * the tree-shaker from dropping it: ~0.4 KB gzipped of dead code in the widget. This removes it, and leaves the
 * module untouched if anything would still refer to it (a later DOMPurify release may differ; the bundle budget
 * test keeps watch over the size either way).
 */
function withoutDeadHelpers(): Plugin {
  const HELPERS = [
    /^function _OverloadYield\(e, d\) \{\n[^}]*\}\n/m,
    /^function AsyncGenerator\(e\) \{\n[\s\S]*?AsyncGenerator\.prototype\.return = function\(e\) \{\n[^}]*\};\n/m,
  ];
  return {
    name: 'askbox-without-dead-helpers',
    transform(code, id) {
      if (!id.endsWith('/dompurify/dist/purify.es.mjs')) return null;
      const trimmed = HELPERS.reduce((text, helper) => text.replace(helper, ''), code);
      return /\b(AsyncGenerator|_OverloadYield)\b/.test(trimmed) ? null : trimmed;
    },
  };
}

/**
 * A second minifier pass over the script-tag bundle, after Vite's own (Oxc): Terser's compressor and mangler find
 * what Oxc leaves, ~0.8 KB gzipped of the widget. Terser's default compressor makes no unsafe assumptions; every
 * e2e test runs this output.
 */
function terserPass(): Plugin {
  return {
    name: 'askbox-terser-pass',
    async generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle))
        if (chunk.type === 'chunk') {
          const result = await minify(chunk.code, {
            ecma: 2020,
            // streaming-markdown's development assertions: they only log.
            compress: { passes: 2, pure_funcs: ['console.assert'] },
            format: { comments: false },
          });
          if (!result.code) throw new Error(`Terser returned no code for ${chunk.fileName}`);
          chunk.code = result.code;
        }
    },
  };
}

/**
 * dist/askbox-debug.js: the self-diagnosis overlay, a script of its own that askbox.js loads from next to itself only
 * when the page asks for it (`?askbox-debug=1`, `data-debug`), so that it costs the widget's bundle nothing.
 */
function debugOverlay(): Plugin {
  return {
    name: 'askbox-debug-overlay',
    async generateBundle() {
      const result = await build({
        configFile: false,
        logLevel: 'warn',
        define: { __ASKBOX_VERSION__: JSON.stringify(version) },
        build: {
          write: false,
          target: 'es2022',
          lib: { entry: 'src/debug/overlay.ts', formats: ['iife'], name: 'AskboxDebug' },
        },
      });
      const chunk = (Array.isArray(result) ? result[0] : (result as Rolldown.RolldownOutput))?.output[0];
      if (!chunk || chunk.type !== 'chunk') throw new Error('src/debug/overlay.ts must build into one script');
      this.emitFile({ type: 'asset', fileName: 'askbox-debug.js', source: chunk.code });
    },
  };
}

/**
 * dist/askbox-locales/<language>.json: each language's UI strings as a JSON array of lines, fetched by the script-tag
 * bundle from next to itself when the page or visitor speaks that language (see src/embed.ts).
 */
function localePacks(): Plugin {
  return {
    name: 'askbox-locale-packs',
    generateBundle() {
      for (const [language, table] of Object.entries(TABLES))
        this.emitFile({
          type: 'asset',
          fileName: `askbox-locales/${language}.json`,
          source: JSON.stringify(table.trim().split('\n')),
        });
    },
  };
}

/**
 * dist/wordpress/askbox/: the WordPress plugin, ready to zip — its own files, the PHP proxy and the widget bundle
 * with its locale packs (built by the `embed` mode before this one).
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
      copyFileSync('dist/askbox-debug.js', `${out}/askbox-debug.js`);
      cpSync('dist/askbox-locales', `${out}/askbox-locales`, { recursive: true });
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
    setupFiles: ['test/helpers/process-warnings.ts'],
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
  css,
  build: builds[mode] ?? builds.embed,
  plugins:
    mode === 'proxy'
      ? [wordpressPackage()]
      : mode === 'embed'
        ? [flatChat(), terserPass(), localePacks(), debugOverlay()]
        : [],
  test: { projects: mutating ? [node, dom] : [node, dom, e2e, bench] },
}));

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Features } from 'lightningcss';
import { build, defineConfig, type Plugin, type Rolldown, type UserConfig } from 'vite';
import { configDefaults, type TestProjectConfiguration } from 'vitest/config';
import { TABLES } from './src/config/locales/index.js';

/**
 * The widget never uses `light-dark()`, so Lightning CSS need not polyfill it: its polyfill adds
 * `--lightningcss-light`/`--lightningcss-dark` variables to every rule that sets `color-scheme`.
 */
const css: UserConfig['css'] = { lightningcss: { exclude: Features.LightDark } };

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/** The chat file the `chat` build wrote (see below): its name and the integrity the launcher pins it with. */
function chatFile(): { file: string; integrity: string } {
  const file = existsSync('dist')
    ? readdirSync('dist').find((name) => /^askbox-chat\.[\w-]+\.js$/.test(name))
    : undefined;
  if (!file) throw new Error('dist/askbox-chat.<hash>.js is missing: `vite build --mode chat` comes first');
  const digest = createHash('sha384')
    .update(readFileSync(`dist/${file}`))
    .digest('base64');
  return { file, integrity: `sha384-${digest}` };
}

/**
 * One config, four builds selected by `--mode`, run in this order by `npm run build`:
 * - `chat`:  dist/askbox-chat.<hash>.js, everything behind the launcher (Preact, signals, DOMPurify, markdown, the
 *            model, the panel and its CSS) as one classic script that hands `createChat` to the launcher;
 * - `embed`: dist/askbox.js, the launcher for the script tag, which loads that file by name and sha384 (read from
 *            dist/ and written in as constants), and dist/askbox-debug.js and the locale packs;
 * - `lib`:   dist/askbox.mjs, the ESM entry with `mount()` (runtime packages stay external);
 * - `proxy`: dist/proxy/*.js, the token proxy for Node, edge runtimes and Cloudflare Workers (no browser code).
 */
/**
 * The two script-tag files' output, minified by Oxc (Vite's own minifier, its default `build.minify: 'oxc'`). One
 * minifier, the bundler's: gzip -9, the launcher is 11,406 B with Oxc alone, 11,352 B with Terser alone (Vite's
 * `minify: 'terser'`, with the `passes: 4` and `unsafe_*` options it had) and 11,233 B with Terser run over Oxc's
 * output; the chat file 43,248, 42,927 and 42,725 B. Oxc needs no options, and builds in a tenth of the time. With:
 * - V8's explicit compile hint as their first line (`postBanner` is written after minifying, which drops comments):
 *   Chromium then compiles their functions while it streams each file, off the main thread, rather than each on its
 *   first call on the main thread. Nearly all of the launcher runs at load, so this moves about 2 ms of compiling out
 *   of the page's main thread at boot (see CHANGELOG, issue 19); the chat file, loaded on hover, is compiled before the
 *   click, which then costs 20 instead of 25 ms of main-thread CPU (+25 B gzip). Other engines read a comment.
 * - every character past ASCII written as an escape (`charset`): a script's source with a character past Latin-1 (the
 *   launcher's names of "Chat" in Arabic, Hebrew, Japanese and Chinese, the chat's `…`) is kept as UTF-16, twice its
 *   length, for as long as the page lives (27 KB more for the launcher, 112 KB for the chat file, by heap snapshot).
 */
const SCRIPT_OUTPUT = {
  format: 'iife',
  postBanner: '//# allFunctionsCalledOnLoad',
  charset: 'ascii',
} satisfies Rolldown.OutputOptions;

/** streaming-markdown's development assertions only log: calls the tree-shaker may drop (−83 B gzip). */
const NO_ASSERTIONS = { manualPureFunctions: ['console.assert'] } satisfies Rolldown.InputOptions['treeshake'];

/**
 * The chat file's JSX as `h(type, props, ...children)` calls (Preact's `createElement`) rather than the automatic
 * runtime's `jsx(type, {...props, children})`, whose module it then leaves out: the same elements, 256 B less
 * gzipped. Only `.tsx` files go through this transform (its `h` import would clash in mount/chat.ts); Rolldown
 * compiles the `.ts` files as before, to the same bytes. Tests and the ESM build keep tsconfig's automatic runtime.
 */
const CLASSIC_JSX: UserConfig['oxc'] = {
  include: /\.tsx$/,
  jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' },
  jsxInject: "import { h, Fragment } from 'preact'",
};

const builds: Record<string, () => UserConfig> = {
  chat: () => ({
    oxc: CLASSIC_JSX,
    build: {
      emptyOutDir: true,
      target: 'es2022',
      rolldownOptions: {
        input: 'src/embed-chat.ts',
        treeshake: NO_ASSERTIONS,
        // Rolldown's content hash, taken of the minified file: a name a CDN may cache forever holds one set of bytes.
        output: { ...SCRIPT_OUTPUT, entryFileNames: 'askbox-chat.[hash].js' },
      },
    },
  }),
  embed: () => {
    const { file, integrity } = chatFile();
    return {
      define: { __ASKBOX_CHAT_FILE__: JSON.stringify(file), __ASKBOX_CHAT_INTEGRITY__: JSON.stringify(integrity) },
      plugins: [localePacks(), debugOverlay()],
      build: {
        emptyOutDir: false,
        target: 'es2022',
        lib: { entry: 'src/embed.ts', formats: ['iife'], name: 'AskboxEmbed', fileName: () => 'askbox.js' },
        rolldownOptions: { treeshake: NO_ASSERTIONS, output: SCRIPT_OUTPUT },
      },
    };
  },
  lib: () => ({
    build: {
      emptyOutDir: false,
      target: 'es2022',
      lib: { entry: 'src/index.ts', formats: ['es'], fileName: () => 'askbox.mjs' },
      rolldownOptions: { external: [/^preact/, /^@preact\//, 'dompurify', 'streaming-markdown', 'eventsource-parser'] },
    },
  }),
  proxy: () => ({
    build: {
      emptyOutDir: false,
      outDir: 'dist/proxy',
      target: 'node20',
      minify: false,
      lib: {
        entry: { index: 'src/proxy/index.ts', node: 'src/proxy/node.ts', worker: 'src/proxy/worker.ts' },
        formats: ['es'],
        fileName: (_format, name) => `${name}.js`,
      },
      // `@opentelemetry/api` stays an import: the site's own copy, and the SDK registered on it, must be the one used.
      rolldownOptions: { external: [/^node:/, '@opentelemetry/api'] },
    },
  }),
};

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
 * dist/askbox-locales/<language>.json: each language's locale pack, its UI strings as a JSON object keyed by name
 * (`{"send": "Senden", "errors.network": "Keine Verbindung.", …}`, see src/config/locales), fetched by the
 * script-tag bundle from next to itself when the page or visitor speaks that language (see src/embed.ts).
 */
function localePacks(): Plugin {
  return {
    name: 'askbox-locale-packs',
    generateBundle() {
      for (const [language, pack] of Object.entries(TABLES))
        this.emitFile({
          type: 'asset',
          fileName: `askbox-locales/${language}.json`,
          source: JSON.stringify(pack),
        });
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
  'test/contract/workerd-telemetry.test.ts',
  'test/contract/php.test.ts',
  'test/contract/php-*.test.ts',
  'test/contract/cross-runtime.test.ts',
  'test/contract/defaults.test.ts',
  'test/unit/proxy/wordpress-plugin.test.ts',
  'test/unit/proxy/wordpress-rules.test.ts',
  'test/unit/project/package-exports.test.ts',
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
    include: ['test/unit/**/*.dom.test.ts', 'test/unit/**/*.test.tsx'],
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

export default defineConfig(({ mode }) => {
  // Vitest and knip load this file in modes of their own: no build then.
  const { define, plugins, build: options, oxc } = builds[mode]?.() ?? {};
  return {
    define: { __ASKBOX_VERSION__: JSON.stringify(version), ...define },
    oxc,
    css,
    build: options,
    plugins,
    test: { projects: mutating ? [node, dom] : [node, dom, e2e, bench] },
  };
});

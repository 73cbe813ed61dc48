import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Features } from 'lightningcss';
import { defineConfig, type Plugin, type Rolldown, type UserConfig } from 'vite';
import { configDefaults, type TestProjectConfiguration } from 'vitest/config';
import { TABLES } from './src/config/locales/index.js';

/**
 * The widget never uses `light-dark()`, so Lightning CSS need not polyfill it: its polyfill adds
 * `--lightningcss-light`/`--lightningcss-dark` variables to every rule that sets `color-scheme`.
 */
const css: UserConfig['css'] = { lightningcss: { exclude: Features.LightDark } };

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

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
 * compiles the `.ts` files as before, to the same bytes. It is set for the whole `embed` build, whose launcher and
 * overlay have no `.tsx`; tests and the ESM build keep tsconfig's automatic runtime.
 */
const CLASSIC_JSX: UserConfig['oxc'] = {
  include: /\.tsx$/,
  jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' },
  jsxInject: "import { h, Fragment } from 'preact'",
};

/** The add-on files, built before the chat file, which loads them by the name and sha256 they are built with. */
const ADDONS = { code: 'src/embed-code.ts', math: 'src/embed-math.ts' };

/**
 * A chunk's Subresource Integrity, taken of the chunk as written (minified, with its banner): sha384 for the chat
 * file, sha256 for the add-ons, whose pins the chat file carries (sha256 is as binding for a file we build, and its
 * two pins are 42 B smaller gzipped: the chat file may grow by 1 KB for the add-ons).
 */
const integrityOf = (code: string, algorithm = 'sha384') =>
  `${algorithm}-${createHash(algorithm).update(code).digest('base64')}`;

/** The one script an environment builds: each of the chat file and the add-ons is a single file. */
function onlyChunk(bundle: Rolldown.OutputBundle, name: string): Rolldown.OutputChunk {
  const [chunk, ...more] = Object.values(bundle).filter((output) => output.type === 'chunk');
  if (!chunk || more.length > 0) throw new Error(`the ${name} environment must build into one script`);
  return chunk;
}

/** `define` added to an environment's Rolldown `transform.define`, as Vite adds its own. */
function withDefine(options: Rolldown.InputOptions, define: Record<string, string>): Rolldown.InputOptions {
  return { ...options, transform: { ...options.transform, define: { ...options.transform?.define, ...define } } };
}

/**
 * Pins the files each script loads, by name and sha384, in memory from one environment's build to the next's: the
 * add-ons in the chat file (`__ASKBOX_ADDONS__`), the chat file and the greeting's in the launcher
 * (`__ASKBOX_CHAT_FILE__`, `__ASKBOX_CHAT_INTEGRITY__`, `__ASKBOX_GREETING_FILE__`, `__ASKBOX_GREETING_INTEGRITY__`),
 * the constants of src/env.d.ts. One instance serves every environment
 * (`sharedDuringBuild`), and the `embed` mode's `buildApp` builds them in that order.
 */
function filePins(): Plugin {
  const addons: Record<string, { file: string; integrity: string }> = {};
  /** The chat file's and the greeting's names and sha384, for the launcher. */
  const launcherPins: Record<string, string> = {};
  return {
    name: 'askbox-file-pins',
    sharedDuringBuild: true,
    generateBundle(_options, bundle) {
      const name = this.environment.name;
      if (name in ADDONS) {
        const chunk = onlyChunk(bundle, name);
        addons[name] = { file: chunk.fileName, integrity: integrityOf(chunk.code, 'sha256') };
      } else if (name === 'chat' || name === 'greeting') {
        const chunk = onlyChunk(bundle, name);
        const key = name.toUpperCase();
        launcherPins[`__ASKBOX_${key}_FILE__`] = JSON.stringify(chunk.fileName);
        launcherPins[`__ASKBOX_${key}_INTEGRITY__`] = JSON.stringify(integrityOf(chunk.code));
      }
    },
    options(options) {
      const name = this.environment.name;
      if (name === 'chat') {
        if (Object.keys(addons).length !== Object.keys(ADDONS).length)
          throw new Error('the chat file pins the add-ons, so they build first');
        return withDefine(options, { __ASKBOX_ADDONS__: JSON.stringify(addons) });
      }
      if (name !== 'embed') return undefined;
      if (Object.keys(launcherPins).length !== 4)
        throw new Error('the launcher pins the chat file and the greeting, so their environments build first');
      return withDefine(options, launcherPins);
    },
  };
}

/** An add-on's environment: a classic script of its own, named by its hash like the chat file. */
function addonEnvironment(kind: keyof typeof ADDONS, emptyOutDir: boolean) {
  return {
    consumer: 'client' as const,
    build: {
      emptyOutDir,
      target: 'es2022',
      rolldownOptions: {
        input: ADDONS[kind],
        output: { ...SCRIPT_OUTPUT, entryFileNames: `askbox-${kind}.[hash].js` },
      },
    },
  };
}

/**
 * One config, three builds selected by `--mode`, each of which runs on its own (`npm run build` runs all three):
 * - `embed`: what a site hosts for the script tag, as six environments built in this order:
 *   - `code`, `math`: dist/askbox-code.<hash>.js (highlight.js and its languages) and dist/askbox-math.<hash>.js
 *              (Temml), the add-ons the chat file loads, pinned, when a reply holds code or math (below);
 *   - `chat`:  dist/askbox-chat.<hash>.js, everything behind the launcher (Preact, signals, DOMPurify, markdown, the
 *              model, the panel and its CSS) as one classic script that hands `createChat` to the launcher;
 *   - `greeting`: dist/askbox-greeting.<hash>.js, the greeting's bubble and its stylesheet, which the launcher loads,
 *              pinned, only where `data-greeting` is set and only when the greeting is due;
 *   - `embed`: dist/askbox.js, the launcher, which loads those files by the names and sha384 it is handed (above),
 *              and the locale packs;
 *   - `debug`: dist/askbox-debug.js, the self-diagnosis overlay, a script of its own that askbox.js loads from next
 *              to itself only when the page asks for it (`?askbox-debug=1`, `data-debug`), so that it costs the
 *              widget's bundle nothing;
 * - `lib`:   dist/askbox.mjs, the ESM entry with `mount()` (runtime packages stay external);
 * - `proxy`: dist/proxy/*.js, the token proxy for Node, edge runtimes and Cloudflare Workers (no browser code).
 */
const builds: Record<string, () => UserConfig> = {
  embed: () => ({
    oxc: CLASSIC_JSX,
    plugins: [filePins(), localePacks()],
    // `consumer: 'client'` each: an environment not named `client` is otherwise built as for a server (unminified).
    environments: {
      // The first starts from an empty dist/, so no older chat or add-on file stays beside the new one.
      code: addonEnvironment('code', true),
      math: addonEnvironment('math', false),
      chat: {
        consumer: 'client',
        build: {
          emptyOutDir: false,
          target: 'es2022',
          rolldownOptions: {
            input: 'src/embed-chat.ts',
            treeshake: NO_ASSERTIONS,
            // Rolldown's hash of the minified file: a name a CDN may cache forever holds one set of bytes.
            output: { ...SCRIPT_OUTPUT, entryFileNames: 'askbox-chat.[hash].js' },
          },
        },
      },
      greeting: {
        consumer: 'client',
        build: {
          emptyOutDir: false,
          target: 'es2022',
          rolldownOptions: {
            input: 'src/embed-greeting.ts',
            output: { ...SCRIPT_OUTPUT, entryFileNames: 'askbox-greeting.[hash].js' },
          },
        },
      },
      embed: {
        consumer: 'client',
        build: {
          emptyOutDir: false,
          target: 'es2022',
          lib: { entry: 'src/embed.ts', formats: ['iife'], name: 'AskboxEmbed', fileName: () => 'askbox.js' },
          rolldownOptions: { treeshake: NO_ASSERTIONS, output: SCRIPT_OUTPUT },
        },
      },
      debug: {
        consumer: 'client',
        build: {
          emptyOutDir: false,
          target: 'es2022',
          lib: {
            entry: 'src/debug/overlay.ts',
            formats: ['iife'],
            name: 'AskboxDebug',
            fileName: () => 'askbox-debug.js',
          },
        },
      },
    },
    builder: {
      async buildApp(builder) {
        const { code, math, chat, greeting, embed, debug } = builder.environments;
        if (!code || !math || !chat || !greeting || !embed || !debug)
          throw new Error('the embed mode builds the code, math, chat, greeting, embed and debug environments');
        for (const environment of [code, math, chat, greeting, embed, debug]) await builder.build(environment);
      },
    },
  }),
  lib: () => ({
    build: {
      emptyOutDir: false,
      target: 'es2022',
      lib: { entry: 'src/index.ts', formats: ['es'], fileName: () => 'askbox.mjs' },
      rolldownOptions: {
        external: [
          /^preact/,
          /^@preact\//,
          'dompurify',
          'streaming-markdown',
          'eventsource-parser',
          /^highlight\.js\//,
          'temml',
        ],
        // The add-ons (module-addons.ts), each a chunk the site's bundler splits off again.
        output: { chunkFileNames: 'chunks/askbox-[name].[hash].mjs' },
      },
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
 * dist/askbox-locales/<language>.json: each language's locale pack, its UI strings as a JSON object keyed by name
 * (`{"send": "Senden", "errors.network": "Keine Verbindung.", …}`, see src/config/locales), fetched by the
 * script-tag bundle from next to itself when the page or visitor speaks that language (see src/embed.ts).
 */
function localePacks(): Plugin {
  return {
    name: 'askbox-locale-packs',
    applyToEnvironment: (environment) => environment.name === 'embed',
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
/**
 * The proxy contract on real servers, waiting on real deadlines: 3 of the test files the whole scope runs, and 64 %
 * of the test time Stryker planned for its mutants (reports/mutation-plan.json), yet the first to fail for none of
 * the proxy's mutants sampled (README, Mutation runs). Out of the mutants' way by default; `STRYKER_SLOW=1` runs
 * them too.
 */
const SLOW_TESTS = [
  'test/unit/proxy/adapters/node/node-fetch.contract.test.ts',
  'test/contract/node.test.ts',
  'test/contract/telemetry.test.ts',
];
const BUILT_TESTS = [
  'test/contract/workerd.test.ts',
  'test/contract/workerd-telemetry.test.ts',
  'test/contract/php.test.ts',
  'test/contract/php-*.test.ts',
  'test/contract/cross-runtime.test.ts',
  'test/contract/defaults.test.ts',
  'test/unit/proxy/wordpress/askbox/askbox.test.ts',
  'test/unit/proxy/wordpress/askbox/widget-rules.test.ts',
  'test/unit/project/package-exports.test.ts',
];

const node: TestProjectConfiguration = {
  extends: true,
  test: {
    name: 'node',
    environment: 'node',
    include: ['test/unit/**/*.test.ts', 'test/contract/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      '**/*.dom.test.ts',
      ...(mutating ? BUILT_TESTS : []),
      ...(mutating && process.env.STRYKER_SLOW !== '1' ? SLOW_TESTS : []),
    ],
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
  const { plugins, build: options, oxc, environments, builder } = builds[mode]?.() ?? {};
  return {
    define: { __ASKBOX_VERSION__: JSON.stringify(version) },
    oxc,
    css,
    build: options,
    environments,
    builder,
    plugins,
    test: { projects: mutating ? [node, dom] : [node, dom, e2e, bench] },
  };
});

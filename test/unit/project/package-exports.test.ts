import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshBuild } from '../../helpers/build';

/**
 * The package as a consumer meets it: `npm pack`, the tarball unpacked into a project's node_modules (its runtime
 * dependencies linked from ours, since installing would need the network), then Node's own resolver and `tsc` under
 * `node16` and `bundler` resolution on a file that imports every subpath. publint and attw check the manifest;
 * this proves the files it names are packed, load and carry their types.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  dependencies: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
};
/** `askbox` for `.`, `askbox/proxy` for `./proxy`. */
const specifier = (key: string): string => (key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`);
const SUBPATHS = Object.keys(manifest.exports).map(specifier);

/** Imports every subpath; each export is checked to be a real type, not the `any` a broken .d.ts import leaves. */
const CONSUMER = `
import { ChatError, DEFAULT_TEXT, isChatError, mount, parseConfig, type WidgetConfig, type WidgetHandle } from 'askbox';
import type { AskboxGlobal } from 'askbox/askbox.js';
import { createMemoryStore, createProxy, GRANT_HEADER, type ProxyHandler } from 'askbox/proxy';
import { nodeFetch, toNodeListener } from 'askbox/proxy/node';
import worker, { optionsFromEnv, type AskboxWorkerEnv } from 'askbox/proxy/worker';

const handler: ProxyHandler = createProxy({ apiKey: 'key', botIds: ['bot'], store: createMemoryStore() });
export const listener = toNodeListener(handler);
export const viaNode: ProxyHandler = createProxy({ apiKey: 'key', botIds: ['bot'], fetch: nodeFetch });
export const fromWorker: Promise<Response> = worker.fetch(new Request('https://example.test/'), {} as AskboxWorkerEnv);
export const onPage: AskboxGlobal | undefined = window.Askbox;
export const handle: (config: WidgetConfig) => WidgetHandle = (config) => mount(config);

type Exports = {
  ChatError: ChatError; DEFAULT_TEXT: typeof DEFAULT_TEXT; isChatError: typeof isChatError; mount: typeof mount;
  parseConfig: typeof parseConfig; WidgetHandle: WidgetHandle; AskboxGlobal: AskboxGlobal; GRANT_HEADER: typeof GRANT_HEADER;
  createProxy: typeof createProxy; toNodeListener: typeof toNodeListener; nodeFetch: typeof nodeFetch; worker: typeof worker;
  optionsFromEnv: typeof optionsFromEnv; AskboxWorkerEnv: AskboxWorkerEnv;
};
export const typed: { [K in keyof Exports]: 0 extends 1 & Exports[K] ? 'any' : 'typed' } = {
  ChatError: 'typed', DEFAULT_TEXT: 'typed', isChatError: 'typed', mount: 'typed', parseConfig: 'typed',
  WidgetHandle: 'typed', AskboxGlobal: 'typed', GRANT_HEADER: 'typed', createProxy: 'typed',
  toNodeListener: 'typed', nodeFetch: 'typed', worker: 'typed', optionsFromEnv: 'typed', AskboxWorkerEnv: 'typed',
};
`;

/** Run by Node in the consumer project: where each subpath resolves, and the names each runnable module exports. */
const LOADER = `
const subpaths = JSON.parse(process.argv[1]);
const names = async (specifier) => Object.keys(await import(specifier)).sort();
console.log(JSON.stringify({
  resolved: Object.fromEntries(subpaths.map((subpath) => [subpath, import.meta.resolve(subpath)])),
  widget: await names('askbox'),
  proxy: await names('askbox/proxy'),
  node: await names('askbox/proxy/node'),
  worker: await names('askbox/proxy/worker'),
}));
`;

/** Each step takes a second or two; on two busy cores, several times that. */
const SLOW_MS = 30_000;
let project = '';
let unpacked = '';
let files: string[] = [];

/** Links a package of ours into the consumer's node_modules, as an install of the tarball would provide it. */
function link(name: string): void {
  const target = join(project, 'node_modules', name);
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules', name), target, 'dir');
}

beforeAll(() => {
  for (const output of ['dist/askbox.js', 'dist/askbox.mjs', 'dist/proxy/index.js', 'dist/types/index.d.ts'])
    freshBuild(output);
  project = realpathSync(mkdtempSync(join(tmpdir(), 'askbox-consumer-')));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', project], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as { filename: string; files: { path: string }[] }[];
  files = packed[0]!.files.map((file) => file.path).sort();
  unpacked = join(project, 'node_modules', manifest.name);
  mkdirSync(unpacked, { recursive: true });
  execFileSync('tar', ['-xzf', join(project, packed[0]!.filename), '-C', unpacked, '--strip-components=1']);
  for (const name of [...Object.keys(manifest.dependencies), '@types/node']) link(name);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(join(project, 'consumer.ts'), CONSUMER);
}, SLOW_MS);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('is imported through every subpath in the manifest', () => {
    expect(SUBPATHS).toEqual([
      'askbox',
      'askbox/proxy',
      'askbox/proxy/node',
      'askbox/proxy/worker',
      'askbox/askbox.js',
    ]);
  });

  it("ships the builds the exports name, the chat file and its add-ons (and the ESM build's chunks),  the greeting's file, their types, the locale packs and the manifest, not the WordPress plugin (a zip of its own)", () => {
    const outside = files.filter(
      (path) =>
        !/^dist\/(askbox(-debug|-(chat|code|math|greeting)\.[\w-]+)?\.m?js|chunks\/askbox-[\w-]+\.[\w-]+\.mjs|manifest\.json|proxy\/[\w-]+\.js|types\/.+\.d\.ts|askbox-locales\/[a-z]{2}\.json)$/.test(
          path,
        ),
    );
    expect(files.filter((path) => path.startsWith('dist/askbox-locales/'))).toHaveLength(11);
    expect(outside).toEqual(['LICENSE', 'README.md', 'package.json']);
  });

  it('keeps the ESM build’s add-ons out of its entry: chunks it imports only when a reply needs one, highlight.js and Temml as the packages they are', () => {
    const entry = readFileSync(join(unpacked, 'dist/askbox.mjs'), 'utf8');
    expect(entry).not.toMatch(/highlight\.js|temml/);
    for (const kind of ['code', 'math']) {
      const chunk = files.find((path) => new RegExp(`^dist/chunks/askbox-${kind}\\.[\\w-]+\\.mjs$`).test(path));
      expect(chunk, kind).toBeDefined();
      expect(entry).toContain(`import("./${chunk?.slice('dist/'.length)}")`);
    }
    const code = readFileSync(
      join(unpacked, files.find((path) => /^dist\/chunks\/askbox-code\..+\.mjs$/.test(path)) ?? ''),
      'utf8',
    );
    const math = readFileSync(
      join(unpacked, files.find((path) => /^dist\/chunks\/askbox-math\..+\.mjs$/.test(path)) ?? ''),
      'utf8',
    );
    expect(code).toContain('from "highlight.js/lib/core"');
    expect(math).toContain('from "temml"');
  });

  it("resolves and loads under Node's ESM resolver", () => {
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', LOADER, JSON.stringify(SUBPATHS)], {
      cwd: project,
      encoding: 'utf8',
    });
    const loaded = JSON.parse(output) as Record<string, unknown>;
    expect(loaded.resolved).toEqual(
      Object.fromEntries(
        Object.entries(manifest.exports).map(([key, target]) => [
          specifier(key),
          pathToFileURL(join(unpacked, typeof target === 'string' ? target : target.default)).href,
        ]),
      ),
    );
    expect(loaded.widget).toEqual(['ChatError', 'DEFAULT_TEXT', 'isChatError', 'mount', 'parseConfig']);
    expect(loaded.proxy).toEqual([
      'DEFAULT_LIMITS',
      'DEFAULT_TIMEOUTS',
      'GRANT_HEADER',
      'createMemoryPeopleStore',
      'createMemoryStore',
      'createProxy',
      'createRedisPeopleStore',
      'createRedisStore',
      'identityHash',
      'logToConsole',
    ]);
    expect(loaded.node).toEqual(['nodeAesGcm', 'nodeFetch', 'toNodeListener']);
    expect(loaded.worker).toEqual([
      'AskboxLimits',
      'createDurableObjectPeopleStore',
      'createDurableObjectStore',
      'default',
      'optionsFromEnv',
      'parseJsonOptions',
      'siteIdFromEnv',
    ]);
  });

  it.each([
    ['node16', { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 }],
    ['bundler', { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }],
  ])(
    'type-checks with %s resolution, its own .d.ts files included',
    (_name, resolution) => {
      const program = ts.createProgram([join(project, 'consumer.ts')], {
        ...resolution,
        target: ts.ScriptTarget.ES2022,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        types: ['node'],
        strict: true,
        noEmit: true,
      });
      const ours = program.getSourceFiles().filter((file) => file.fileName.startsWith(project));
      expect(ours.map((file) => file.fileName)).toContain(join(unpacked, 'dist/types/proxy/worker.d.ts'));
      const diagnostics = ours.flatMap((file) => [
        ...program.getSyntacticDiagnostics(file),
        ...program.getSemanticDiagnostics(file),
      ]);
      expect(ts.formatDiagnostics(diagnostics, ts.createCompilerHost({}))).toBe('');
    },
    SLOW_MS,
  );
});

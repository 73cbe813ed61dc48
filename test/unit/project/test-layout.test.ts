import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const UNIT = join(ROOT, 'test/unit');

/** test/unit's folders that mirror a folder other than src/<same name>; project/ mirrors nothing. */
const MIRRORS: Readonly<Record<string, string>> = { demo: 'demo', helpers: 'test/helpers', bench: 'test/bench' };
const EXEMPT = new Set(['project']);

/** Every file under `dir`, as paths relative to `base`. */
function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, base) : [relative(base, path)];
  });
}

/** A file's name up to its first dot: `storage.dom.test.ts` and `Launcher.tsx` give `storage` and `Launcher`. */
const stem = (file: string) => file.slice(file.lastIndexOf('/') + 1).split('.')[0] ?? '';

/** The base names of the modules (any extension) directly in `dir`. */
function modulesIn(dir: string): Set<string> {
  if (!existsSync(dir)) return new Set();
  return new Set(
    readdirSync(dir)
      .filter((name) => statSync(join(dir, name)).isFile())
      .map(stem),
  );
}

/**
 * Why a test file under test/unit breaks the layout rule, or null: the test of `src/<dir>/<module>.ts` is
 * test/unit/<dir>/<module>[.<aspect>][.dom].test.ts(x), and likewise for demo/, test/helpers and test/bench.
 */
function offence(file: string): string | null {
  const parts = file.split('/');
  const top = parts[0] ?? '';
  if (parts.length === 1) return `${file}: not in a folder that mirrors a source folder`;
  if (EXEMPT.has(top)) return null;
  const folder = join(MIRRORS[top] ?? join('src', top), ...parts.slice(1, -1));
  if (!existsSync(join(ROOT, folder))) return `${file}: ${folder}/ does not exist`;
  const module = stem(file);
  return modulesIn(join(ROOT, folder)).has(module) ? null : `${file}: no module ${module}.* in ${folder}/`;
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);

describe('test layout', () => {
  it('names every unit test after the module it tests, in the folder that mirrors the module’s', () => {
    const offenders = filesUnder(UNIT)
      .filter(isTest)
      .map(offence)
      .filter((why): why is string => why !== null);
    expect(offenders).toEqual([]);
  });

  it('has no tests named for mutants: a case that kills a mutant belongs to its module’s test file', () => {
    const mutantTests = filesUnder(join(ROOT, 'test'), ROOT).filter((file) => file.endsWith('-mutation.test.ts'));
    expect(mutantTests).toEqual([]);
  });
});

/**
 * A Stryker reporter that writes what a run will cost before it tests a mutant (`npm run mutate:plan`): the dry run's
 * time per test file, and per source file its mutants by plan (run, static, without coverage, already decided) with
 * the tests' net time Stryker estimates for them. Stryker's own reporters say this only at the end, hours later.
 * With `STRYKER_PLAN_ONLY=1` it ends the run once the plan is written (Stryker's exit handler stops its workers; its
 * sandbox stays in .stryker-tmp/, which git ignores).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const OUT = 'reports/mutation-plan.json';

/** @param {Record<string, number>} counts @param {string} key @param {number} [by] */
const add = (counts, key, by = 1) => {
  counts[key] = (counts[key] ?? 0) + by;
};

class PlanReporter {
  /** typed-inject's list of what the constructor takes: nothing. */
  static inject = /** @type {const} */ ([]);

  /** @type {Record<string, unknown>} */
  dryRun = {};

  /** @type {Map<string, {file: string, ms: number}>} */
  tests = new Map();

  /** @param {{result: {tests: {id: string, fileName?: string, timeSpentMs: number}[]}, timing: {net: number, overhead: number}}} event */
  onDryRunCompleted({ result, timing }) {
    /** @type {Record<string, number>} */
    const msByTestFile = {};
    /** @type {Record<string, number>} */
    const testsByTestFile = {};
    for (const test of result.tests) {
      const file = test.fileName ? relative(process.cwd(), test.fileName) : '(unknown)';
      add(msByTestFile, file, test.timeSpentMs);
      this.tests.set(test.id, { file, ms: test.timeSpentMs });
      add(testsByTestFile, file);
    }
    const files = Object.entries(msByTestFile)
      .sort(([, a], [, b]) => b - a)
      .map(([file, ms]) => ({ file, tests: testsByTestFile[file], ms: Math.round(ms) }));
    this.dryRun = { tests: result.tests.length, netMs: timing.net, overheadMs: timing.overhead, files };
  }

  /**
   * Each plan is Stryker's `MutantTestPlan`: a run (with `runOptions.testFilter`, the covering tests, and `netTime`)
   * or an early result (ignored, or reused from the incremental file).
   * @param {{mutantPlans: {mutant: {fileName: string, static?: boolean, coveredBy?: string[], status?: string}, runOptions?: {testFilter?: string[]}, netTime?: number}[]}} event
   */
  onMutationTestingPlanReady({ mutantPlans }) {
    /** @type {Record<string, {mutants: number, run: number, static: number, hybrid: number, noCoverage: number, early: Record<string, number>, netMs: number, staticNetMs: number, tests: number}>} */
    const byFile = {};
    /** What each test file adds to the run plans' net time: the slow suites in the mutants' way. */
    /** @type {Record<string, number>} */
    const netMsByTestFile = {};
    for (const { mutant, runOptions, netTime = 0 } of mutantPlans) {
      const file = relative(process.cwd(), mutant.fileName);
      const entry = (byFile[file] ??= {
        mutants: 0,
        run: 0,
        static: 0,
        hybrid: 0,
        noCoverage: 0,
        early: {},
        netMs: 0,
        staticNetMs: 0,
        tests: 0,
      });
      entry.mutants++;
      if (!runOptions) {
        add(entry.early, mutant.status ?? '(none)');
        continue;
      }
      if (runOptions.testFilter?.length === 0) {
        entry.noCoverage++;
        continue;
      }
      entry.run++;
      entry.netMs += netTime;
      entry.tests += runOptions.testFilter?.length ?? 0;
      for (const id of runOptions.testFilter ?? []) {
        const test = this.tests.get(id);
        if (test) add(netMsByTestFile, test.file, test.ms);
      }
      if (mutant.static) {
        entry.static++;
        // Static, yet also run by some tests (a test that loads the module itself): `ignoreStatic` keeps these.
        if (mutant.coveredBy?.length) entry.hybrid++;
        entry.staticNetMs += netTime;
      }
    }
    mkdirSync('reports', { recursive: true });
    const testFiles = Object.fromEntries(
      Object.entries(netMsByTestFile)
        .sort(([, a], [, b]) => b - a)
        .map(([file, ms]) => [file, Math.round(ms)]),
    );
    writeFileSync(OUT, JSON.stringify({ dryRun: this.dryRun, byFile, netMsByTestFile: testFiles }, null, 2));
    const total = Object.values(byFile).reduce(
      (sum, entry) => ({
        mutants: sum.mutants + entry.mutants,
        run: sum.run + entry.run,
        static: sum.static + entry.static,
        hybrid: sum.hybrid + entry.hybrid,
        netMs: sum.netMs + entry.netMs,
        staticNetMs: sum.staticNetMs + entry.staticNetMs,
      }),
      { mutants: 0, run: 0, static: 0, hybrid: 0, netMs: 0, staticNetMs: 0 },
    );
    console.log(`[plan] ${OUT}: ${JSON.stringify(total)}`);
    if (process.env.STRYKER_PLAN_ONLY === '1') process.exit(0);
  }
}

/**
 * The plugin Stryker loads from stryker.config.json's `plugins`, named `plan` in `reporters`: what
 * `declareClassPlugin(PluginKind.Reporter, …)` of @stryker-mutator/api returns, written out so that this file needs
 * no package of its own.
 */
export const strykerPlugins = [{ kind: 'Reporter', name: 'plan', injectableClass: PlanReporter }];

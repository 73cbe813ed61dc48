/** A piece of the model's async work: its abort signal, and whether its results may still be shown. */
export interface Run {
  signal: AbortSignal;
  /** False once the work has been made stale (a new conversation, dispose): it must not write state then. */
  live(): boolean;
}

/** The model's async work: one request in flight at a time, which Stop aborts and newer work makes stale. */
export interface Runs {
  /**
   * Starts a piece of work that `abort()` and `invalidate()` can abort, and that `invalidate()` makes stale. A
   * finished run's controller may stay behind: aborting it later does nothing.
   */
  begin(): Run;
  /** Aborts the request in flight (Stop); its run stays live, so what arrived can be kept. */
  abort(): void;
  /** Makes all work under way stale, and aborts the request in flight (new conversation, dispose). */
  invalidate(): void;
}

/** The runs of one model. */
export function createRuns(): Runs {
  let controller: AbortController | undefined;
  // Bumped by invalidate(): work started under an older generation must not write state.
  let generation = 0;
  return {
    begin() {
      const gen = generation;
      controller = new AbortController();
      return { signal: controller.signal, live: () => gen === generation };
    },
    abort: () => controller?.abort(),
    invalidate() {
      // Stryker disable next-line AssignmentOperator: any change makes older work stale; the direction does not matter.
      generation += 1;
      controller?.abort();
    },
  };
}

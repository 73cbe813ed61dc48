import { signal, type ReadonlySignal } from '@preact/signals';

/**
 * How long a streaming reply may be silent before the visitor is told it is still being worked on: longer than the
 * pauses of a model thinking mid-answer (a second or two), far shorter than the stream timeout (45 s by default).
 */
export const STALL_HINT_MS = 8000;

/** Watches a reply stream for silence. */
export interface StallWatch {
  /** True once the stream has been silent for `STALL_HINT_MS`. */
  stalled: ReadonlySignal<boolean>;
  /** Starts waiting afresh for the next chunk (`on`), or stops waiting. */
  watch(on: boolean): void;
}

/** A silence watch for the model's reply streams; only the model calls `watch`. */
export function createStallWatch(): StallWatch {
  const stalled = signal(false);
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    stalled,
    watch(on) {
      clearTimeout(timer);
      stalled.value = false;
      if (!on) return;
      timer = setTimeout(() => {
        stalled.value = true;
      }, STALL_HINT_MS);
    },
  };
}

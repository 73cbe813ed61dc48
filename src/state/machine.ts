import { signal, type ReadonlySignal } from '@preact/signals';

/**
 * A transition table: for each state, the state each event moves it to. An event a state does not list is refused:
 * it changes nothing, so a late or stray event (a request that ends after the visitor moved on) cannot undo a newer
 * state.
 */
export type Transitions<S extends string, E extends string> = Readonly<Record<S, Readonly<Partial<Record<E, S>>>>>;

/** A state that moves only through its table. */
export interface Machine<S extends string, E extends string> {
  /** The state now; `go` is its one writer. */
  readonly state: ReadonlySignal<S>;
  /** Moves on `event` if the table lists it for the state now; whether it did, so the caller acts only then. */
  go(event: E): boolean;
}

/** A machine over `table`, starting in `initial`. */
export function createMachine<S extends string, E extends string>(table: Transitions<S, E>, initial: S): Machine<S, E> {
  const state = signal(initial);
  return {
    state,
    go(event) {
      const to = table[state.peek()][event];
      if (to === undefined) return false;
      state.value = to;
      return true;
    },
  };
}

import { computed, signal, type ReadonlySignal } from '@preact/signals';

/**
 * Where the panel's open state is held: the launcher's widget model (mount/widget-model.ts), the one place it is
 * stored, before the chat exists and beside it. The chat reads it there and writes it there.
 */
export interface PanelStore {
  /** Whether the chat's panel is open. */
  readonly open: boolean;
  /**
   * The chat opened or closed its panel (it fires its `open` or `close` event); `remember: false` while the visitor
   * has not consented (state/consent.ts), so that nothing is stored, not even the panel's state.
   */
  setOpen(open: boolean, remember?: boolean): void;
}

/** The panel's open state as the chat reads it: `isOpen` is reactive, for the UI; `setOpen` writes the store. */
export interface PanelView {
  readonly isOpen: ReadonlySignal<boolean>;
  setOpen(open: boolean): void;
}

/**
 * The chat's view of `store`. While a chat lives, only it writes the store (the launcher writes it while there is
 * none: the frame that stands in while the chat file loads, the widget taken off the page), so a count of its own
 * writes is all `isOpen` needs to read the store again; the state itself stays in the store. The store remembers the
 * state only while `remember()` says so (the visitor's consent).
 */
export function createPanelView(store: PanelStore, remember: () => boolean): PanelView {
  const writes = signal(0);
  return {
    isOpen: computed(() => {
      // Read for its changes: each write through `setOpen` makes the store worth reading again.
      void writes.value;
      return store.open;
    }),
    setOpen(open) {
      store.setOpen(open, remember());
      writes.value += 1;
    },
  };
}

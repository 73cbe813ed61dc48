import { effect } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { createPanelView } from '../../../src/state/panel';
import { createPanelStore } from '../../helpers/model';

describe('panel: the open state, held by its store', () => {
  it('writes through to the store, and the view follows it', () => {
    const store = createPanelStore();
    const view = createPanelView(store, () => true);
    const seen: boolean[] = [];
    effect(() => {
      seen.push(view.isOpen.value);
    });
    view.setOpen(true);
    expect(store.open).toBe(true);
    view.setOpen(false);
    expect(store.open).toBe(false);
    expect(seen).toEqual([false, true, false]);
  });

  it('reads the store as it is when the view is made: a chat created for an open panel shows it open', () => {
    const store = createPanelStore();
    store.setOpen(true);
    expect(createPanelView(store, () => true).isOpen.value).toBe(true);
  });

  it('asks the store to remember the state only while `remember` says so (the consent)', () => {
    const calls: [boolean, boolean | undefined][] = [];
    let consented = false;
    const view = createPanelView(
      { open: false, setOpen: (open, remember) => void calls.push([open, remember]) },
      () => consented,
    );
    view.setOpen(true);
    consented = true;
    view.setOpen(false);
    expect(calls).toEqual([
      [true, false],
      [false, true],
    ]);
  });
});

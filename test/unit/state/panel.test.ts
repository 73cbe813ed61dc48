import { effect } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { createPanelView } from '../../../src/state/panel';
import { createPanelStore } from '../../helpers/model';

describe('panel: the open state, held by its store', () => {
  it('writes through to the store, and the view follows it', () => {
    const store = createPanelStore();
    const view = createPanelView(store);
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
    expect(createPanelView(store).isOpen.value).toBe(true);
  });
});

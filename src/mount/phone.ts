import { PHONE } from './viewport.js';

/** Keeps the page behind a phone's full-screen panel still; see `createPhoneFit`. */
export interface PhoneFit {
  /** Follows the panel's open state: locks the page while the panel is open on a phone-sized viewport. */
  setOpen(open: boolean): void;
  /** Releases everything, restoring the page as it was. */
  stop(): void;
}

/**
 * Locks the page behind the full-screen panel while it is open on a phone. (The panel keeps to the screen, not to
 * a layout viewport widened by a page wider than the screen, through the root that mount/viewport.ts sizes.)
 *
 * The page behind must not scroll under the panel: `overflow: hidden` stops neither a script's `scrollTo` nor, in
 * older iOS, touch scrolling, so the body is also pinned with `position: fixed` at its scroll offset. Every inline
 * style written is restored on release exactly as the page had it (value and priority), and so is the scroll
 * position. The media listener lives while the panel is open.
 */
export function createPhoneFit(root: HTMLElement): PhoneFit {
  const doc = root.ownerDocument;
  const win = doc.defaultView;
  const media = win?.matchMedia?.(PHONE);
  let open = false;
  let release: (() => void) | undefined;

  const lock = (view: Window) => {
    const { scrollX: x, scrollY: y } = view;
    const { documentElement: html, body } = doc;
    const bare = [html, body].filter((el) => !el.hasAttribute('style'));
    // Longhands, not `overflow`: restoring the shorthand would drop a page's own inline `overflow-x`.
    const writes = [
      { el: html, name: 'overflow-x', value: 'hidden' },
      { el: html, name: 'overflow-y', value: 'hidden' },
      { el: body, name: 'position', value: 'fixed' },
      { el: body, name: 'top', value: `${-y}px` },
      { el: body, name: 'left', value: `${-x}px` },
      { el: body, name: 'width', value: '100%' },
    ];
    const saved = writes.map(({ el, name, value }) => {
      const { style } = el;
      const before = { style, name, value: style.getPropertyValue(name), priority: style.getPropertyPriority(name) };
      // Important, so that a page's own `html { overflow: auto !important }` does not undo the lock.
      style.setProperty(name, value, 'important');
      return before;
    });
    return () => {
      for (const { style, name, value, priority } of saved) {
        if (value) style.setProperty(name, value, priority);
        else style.removeProperty(name);
      }
      // No empty style attribute is left where the page had none.
      for (const el of bare) if (!el.style.length) el.removeAttribute('style');
      // Instant: a page's `scroll-behavior: smooth` would otherwise animate the visitor back from the top.
      view.scrollTo({ left: x, top: y, behavior: 'instant' });
    };
  };

  const update = () => {
    const phone = open && win && media?.matches;
    if (phone && !release) release = lock(win);
    else if (!phone && release) {
      release();
      release = undefined;
    }
  };

  const setOpen = (next: boolean) => {
    open = next;
    if (open) media?.addEventListener('change', update);
    else media?.removeEventListener('change', update);
    update();
  };
  return { setOpen, stop: () => setOpen(false) };
}

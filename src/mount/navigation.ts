/** The event the history wrapper below fires on the window after a router's pushState or replaceState. */
const NAVIGATED = 'askbox:navigate';

/** The windows whose history this copy of Askbox has wrapped: once each, however many widgets watch. */
const wrapped = new WeakSet<Window>();

/**
 * Calls `onChange` after each same-document navigation in `view` (a single-page app's router calling
 * `history.pushState` or `replaceState`, back and forward), and returns how to stop. Page rules need nothing more.
 * - Where the Navigation API is (Chromium), its `currententrychange` event says it all, and the page's built-ins
 *   stay untouched.
 * - Elsewhere, `popstate` tells back and forward, and `pushState` and `replaceState` are wrapped, once per window
 *   and for good (another script may have wrapped ours since): each wrapper calls the method it found, with the
 *   page's `this` and arguments (its errors thrown as they were), then fires `askbox:navigate`. A router
 *   that wraps them after us still reaches ours.
 */
export function watchNavigation(view: Window, onChange: () => void): () => void {
  const navigation = (view as { navigation?: EventTarget }).navigation;
  const target = navigation ?? view;
  const type = navigation ? 'currententrychange' : NAVIGATED;
  if (!navigation && !wrapped.has(view)) {
    wrapped.add(view);
    const { history } = view;
    for (const name of ['pushState', 'replaceState'] as const) {
      const original = history[name];
      history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
        original.apply(this, args);
        view.dispatchEvent(new Event(NAVIGATED));
      };
    }
  }
  target.addEventListener(type, onChange);
  // Redundant with the Navigation API, and harmless: `onChange` acts on a change of path only.
  view.addEventListener('popstate', onChange);
  return () => {
    target.removeEventListener(type, onChange);
    view.removeEventListener('popstate', onChange);
  };
}

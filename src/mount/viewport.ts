/** The visual viewport's events on which the screen moves or changes size: pan, zoom, the soft keyboard. */
const EVENTS = ['resize', 'scroll'] as const;

/**
 * Keeps the visual viewport (the part of the page the visitor sees) written on `root` as `--_vx`, `--_vy`,
 * `--_vw` and `--_vh`, and its distance from the right edge of the page's initial containing block as `--_vr`,
 * for as long as the widget lives; returns the stop function.
 *
 * A fixed element is placed in the layout viewport, which a mobile browser widens to the page's content when that
 * overflows the screen (a wide table is enough), and within which the visitor pinch-zooms and pans: its corner can
 * lie far off-screen. On a phone, launcher.css makes the root this box and the containing block of the launcher and
 * the panel, so both keep to the screen. Written from the launcher's first frame (the chat file comes later), and
 * rewritten when the browser pans or zooms, or the soft keyboard shrinks the screen.
 */
export function followScreen(root: HTMLElement): () => void {
  const page = root.ownerDocument;
  const screen = page.defaultView?.visualViewport;
  if (!screen) return () => undefined;
  // In a right-to-left page that overflows (to the left), Chromium keeps the right edge of the widened layout
  // viewport at the initial containing block's (`clientWidth`) instead of at the layout viewport's own: measured
  // from its left, the screen would be off by the widening. launcher.css places the root from the right there.
  const fit = () =>
    void (root.style.cssText = `--_vx:${screen.offsetLeft}px;--_vy:${screen.offsetTop}px;--_vw:${screen.width}px;--_vh:${screen.height}px;--_vr:${page.documentElement.clientWidth - screen.offsetLeft - screen.width}px`);
  fit();
  for (const type of EVENTS) screen.addEventListener(type, fit);
  return () => {
    for (const type of EVENTS) screen.removeEventListener(type, fit);
  };
}

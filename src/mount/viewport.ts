/** The visual viewport's events on which the screen moves or changes size: pan, zoom, the soft keyboard. */
const EVENTS = ['resize', 'scroll'] as const;

/**
 * Keeps the visual viewport (the part of the page the visitor sees) written on `root` as `--_vv-x`, `--_vv-y`,
 * `--_vv-w` and `--_vv-h`, for as long as the widget lives; returns the stop function.
 *
 * A fixed element is placed in the layout viewport, which a mobile browser widens to the page's content when that
 * overflows the screen (a wide table is enough), and within which the visitor pinch-zooms and pans: its corner can
 * lie far off-screen. On a phone, launcher.css makes the root this box and the containing block of the launcher and
 * the panel, so both keep to the screen. Written from the launcher's first frame (the chat file comes later), and
 * rewritten when the browser pans or zooms, or the soft keyboard shrinks the screen.
 */
export function followScreen(root: HTMLElement): () => void {
  const screen = root.ownerDocument.defaultView?.visualViewport;
  if (!screen) return () => undefined;
  const fit = () =>
    void (root.style.cssText = `--_vv-x:${screen.offsetLeft}px;--_vv-y:${screen.offsetTop}px;--_vv-w:${screen.width}px;--_vv-h:${screen.height}px`);
  fit();
  for (const type of EVENTS) screen.addEventListener(type, fit);
  return () => {
    for (const type of EVENTS) screen.removeEventListener(type, fit);
  };
}

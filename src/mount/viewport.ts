/** The visual viewport's events on which the screen moves or changes size: pan, zoom, the soft keyboard. */
const EVENTS = ['resize', 'scroll'] as const;

/**
 * A phone, on which launcher.css keeps the widget to the screen and the panel covers it (phone.ts too): a
 * phone-sized layout viewport, or a touch screen whose shorter side is phone-sized. The second is a phone showing a
 * page without `<meta name="viewport">`, which it lays out 980 px wide and shows zoomed out: the layout width alone
 * would give it the desktop panel at 40 % scale. (`device-width` and `device-height`, the screen's size, are
 * deprecated in Media Queries 4 but every engine matches them; launcher.css and frame.css spell the same query.)
 */
export const PHONE =
  '(max-width: 480px), (pointer: coarse) and (max-device-width: 480px), (pointer: coarse) and (max-device-height: 480px)';

/**
 * How much larger than the page the widget is drawn: the visual viewport's width over the screen's (its side across,
 * in the viewport's orientation), so that a phone that shows a page zoomed out shows the widget at its own size; at
 * least 1, so that a visitor who zooms in zooms the widget too.
 */
function widgetScale(view: Window, screen: VisualViewport): number {
  const { width, height } = view.screen;
  const across = screen.width > screen.height ? Math.max(width, height) : Math.min(width, height);
  return across > 0 ? Math.max(1, screen.width / across) : 1;
}

/**
 * Keeps the visual viewport (the part of the page the visitor sees) written on `root` as `--_vx`, `--_vy`,
 * `--_vw` and `--_vh` (divided by `--_vs`, the scale the widget is drawn at: see `widgetScale`), and its distance
 * from the right edge of the page's initial containing block as `--_vr`, while on a phone (`PHONE`), for as long as
 * the widget lives; returns the stop function.
 *
 * A fixed element is placed in the layout viewport, which a mobile browser widens to the page's content when that
 * overflows the screen (a wide table is enough), and within which the visitor pinch-zooms and pans: its corner can
 * lie far off-screen. On a phone, launcher.css makes the root this box and the containing block of the launcher and
 * the panel, so both keep to the screen. Written from the launcher's first frame (the chat file comes later), and
 * rewritten when the browser pans or zooms, or the soft keyboard shrinks the screen.
 *
 * Only launcher.css's phone rules read these properties, so this starts once the viewport is phone-sized, which on a
 * desktop is likely never: reading the viewport's and the page's sizes forces a layout, which the page would pay for
 * at load and at every scroll. The media query's change event comes before the frame is drawn at the new size.
 */
export function followScreen(root: HTMLElement): () => void {
  const page = root.ownerDocument;
  const view = page.defaultView;
  const screen = view?.visualViewport;
  if (!screen) return () => undefined;
  // Without matchMedia (a page that broke it), the screen is followed whatever its size.
  const media = view.matchMedia?.(PHONE);
  // In a right-to-left page that overflows (to the left), Chromium keeps the right edge of the widened layout
  // viewport at the initial containing block's (`clientWidth`) instead of at the layout viewport's own: measured
  // from its left, the screen would be off by the widening. launcher.css places the root from the right there.
  // launcher.css scales the root by `--_vs` from its top-left corner: unscaled, it is the screen's size divided by
  // the scale, its left edge at the screen's, whichever side it is placed from.
  const fit = () => {
    const scale = widgetScale(view, screen);
    const width = screen.width / scale;
    root.style.cssText = `--_vx:${screen.offsetLeft}px;--_vy:${screen.offsetTop}px;--_vw:${width}px;--_vh:${screen.height / scale}px;--_vr:${page.documentElement.clientWidth - screen.offsetLeft - width}px;--_vs:${scale}`;
  };
  // Once phone-sized, for good: a viewport that turns phone-sized once (a rotation, a narrowed window) likely does again.
  const follow = () => {
    if (media && !media.matches) return;
    media?.removeEventListener('change', follow);
    for (const type of EVENTS) screen.addEventListener(type, fit);
    fit();
  };
  media?.addEventListener('change', follow);
  follow();
  return () => {
    media?.removeEventListener('change', follow);
    for (const type of EVENTS) screen.removeEventListener(type, fit);
  };
}

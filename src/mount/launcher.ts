import type { WidgetConfig } from '../config/schema.js';
import { LAUNCHER_PART } from '../styles/parts.js';
import { make, makeButton } from './dom.js';

/** The id of the panel the launcher opens: the chat's, or the frame standing in for it while the chat loads. */
export const PANEL_ID = 'askbox-panel';

/**
 * The part of the widget every page view pays for: a plain-DOM launcher button, built without Preact so that a
 * visitor who never opens the chat costs the page next to nothing. The panel renders into `slot` once loaded.
 */
export interface Launcher {
  /** The widget's root element: carries the position, scheme and open classes every rule keys on. */
  root: HTMLElement;
  button: HTMLButtonElement;
  /** Where the panel and the live region are rendered, before the launcher in document (and tab) order. */
  slot: HTMLElement;
  /** Opening clears the unread count. */
  setOpen(open: boolean): void;
  setScheme(scheme: 'light' | 'dark'): void;
  /** Counts a reply completed while the panel is closed: a badge, and its number in the launcher's name. */
  addUnread(): void;
  /**
   * Shows `bubble` (the greeting, mount/greeting-bubble.ts) before the closed launcher, counted as one unread while it is
   * there; without one, takes the shown one away. Opening the panel takes it away too, and then calls `gone`.
   */
  greet(bubble?: HTMLElement, gone?: () => void): void;
}

/**
 * Builds the launcher in `doc`, not yet placed anywhere; `onPress` runs on click, `onWarm` on hover, focus and touch.
 * With `config.launcher` false, or inline, the button is built but never placed: the page opens the chat through
 * the API, or the panel is always open.
 */
export function createLauncher(
  doc: Document,
  config: Pick<WidgetConfig, 'position' | 'text' | 'launcher' | 'launcherLabel' | 'locale' | 'dir' | 'mode'>,
  handlers: { onPress(): void; onWarm(): void },
): Launcher {
  const { text, launcherLabel } = config;
  const root = make(doc, 'div', '');
  // The UI's language, whatever the page's: a screen reader then reads German strings as German. Every rule is
  // written with logical properties, so the direction attribute mirrors the whole layout.
  root.lang = config.locale;
  root.dir = config.dir;
  const slot = make(doc, 'div', 'askbox__slot');
  const button = makeButton(doc, launcherLabel ? 'launcher launcher--label' : 'launcher');
  button.setAttribute('aria-controls', PANEL_ID);
  // Set here, not by the chat file: a page's `::part(launcher)` rule styles the launcher from its first paint.
  button.setAttribute('part', LAUNCHER_PART);
  // The icon is drawn by launcher.css (a clip path in its colour, the chat bubble or, open, the cross): an inline
  // <svg> would make every page view set up the browser's SVG interfaces for one shape.
  button.append(make(doc, 'span', 'launcher__icon'));
  // The label and the badge are seen; the button's name (below) says the same to assistive technology.
  if (launcherLabel) {
    const label = make(doc, 'span', 'launcher__label');
    label.textContent = launcherLabel;
    button.append(label);
  }
  const badge = make(doc, 'span', 'launcher__badge');
  badge.setAttribute('aria-hidden', 'true');
  button.append(badge);
  button.addEventListener('click', handlers.onPress);
  // Hover and focus come before a click; on a touch screen (no hover) the touch itself does, a frame or two ahead:
  // every browser that runs this script fires pointer events for a touch (`pointerenter`, `pointerdown`) before
  // `touchstart`, so no touch listener is needed.
  for (const type of ['pointerenter', 'focus', 'pointerdown'])
    button.addEventListener(type, handlers.onWarm, { once: true });
  root.append(slot);
  // Inline, the panel is always there: no launcher.
  const placed = config.launcher && config.mode === 'bubble';
  if (placed) root.append(button);

  let open = false;
  let scheme = 'light';
  let unread = 0;
  let greeting: HTMLElement | undefined;
  let onGone: (() => void) | undefined;
  const paint = () => {
    root.className = `askbox askbox--${config.mode} askbox--${config.position} askbox--${scheme}${open ? ' askbox--open' : ''}${placed ? '' : ' askbox--bare'}`;
    // One name, open or closed: `aria-expanded` says which. The visible label leads it (WCAG 2.5.3, label in name);
    // the unread count follows.
    const total = unread + (greeting ? 1 : 0);
    const count = total ? text.unread.replace('{count}', String(total)) : '';
    button.setAttribute('aria-label', [launcherLabel, text.launcher, count].filter(Boolean).join(', '));
    button.setAttribute('aria-expanded', String(open));
    badge.textContent = total ? String(total) : '';
  };
  paint();
  return {
    root,
    button,
    slot,
    setOpen: (next) => {
      open = next;
      if (open) {
        unread = 0;
        greeting?.remove();
        if (greeting) onGone?.();
        greeting = undefined;
      }
      paint();
    },
    setScheme: (next) => {
      scheme = next;
      paint();
    },
    addUnread: () => {
      if (!open) unread += 1;
      paint();
    },
    greet: (bubble, gone) => {
      greeting?.remove();
      greeting = bubble;
      onGone = gone;
      if (bubble) root.insertBefore(bubble, button);
      paint();
    },
  };
}

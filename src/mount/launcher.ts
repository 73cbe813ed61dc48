import type { WidgetConfig } from '../config/schema.js';
import { CHAT_PATH, CLOSE_PATH } from '../ui/icon-paths.js';

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
  setOpen(open: boolean): void;
  setScheme(scheme: 'light' | 'dark'): void;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Builds the launcher in `doc`, not yet placed anywhere; `onPress` runs on click, `onWarm` on hover and focus. */
export function createLauncher(
  doc: Document,
  config: Pick<WidgetConfig, 'position' | 'text' | 'locale' | 'dir'>,
  handlers: { onPress(): void; onWarm(): void },
): Launcher {
  const root = doc.createElement('div');
  // The UI's language, whatever the page's: a screen reader then reads German strings as German. Every rule is
  // written with logical properties, so the direction attribute mirrors the whole layout.
  root.lang = config.locale;
  root.dir = config.dir;
  const slot = doc.createElement('div');
  slot.className = 'askbox__slot';
  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'launcher';
  button.setAttribute('aria-controls', 'askbox-panel');
  const icon = doc.createElementNS(SVG_NS, 'svg');
  const path = doc.createElementNS(SVG_NS, 'path');
  const attributes = { class: 'icon', viewBox: '0 0 24 24', 'aria-hidden': 'true' };
  for (const [name, value] of Object.entries(attributes)) icon.setAttribute(name, value);
  icon.append(path);
  button.append(icon);
  button.addEventListener('click', handlers.onPress);
  for (const type of ['pointerenter', 'focus']) button.addEventListener(type, handlers.onWarm, { once: true });
  root.append(slot, button);

  let open = false;
  let scheme = 'light';
  const paint = () => {
    root.className = `askbox askbox--${config.position} askbox--${scheme}${open ? ' askbox--open' : ''}`;
    button.setAttribute('aria-label', open ? config.text.launcherClose : config.text.launcherOpen);
    button.setAttribute('aria-expanded', String(open));
    path.setAttribute('d', open ? CLOSE_PATH : CHAT_PATH);
  };
  paint();
  return {
    root,
    button,
    slot,
    setOpen: (next) => {
      open = next;
      paint();
    },
    setScheme: (next) => {
      scheme = next;
      paint();
    },
  };
}

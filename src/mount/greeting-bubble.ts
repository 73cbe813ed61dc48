import { localizeGreeting } from '../config/chat-text.js';
import type { LocalePack, WidgetConfig } from '../config/schema.js';
import css from '../styles/greeting.css?inline';
import { make, makeButton } from './dom.js';
import type { Launcher } from './launcher.js';
import type { WidgetModel } from './widget-model.js';

/** What the greeting's bubble is drawn with: see `showGreeting`. */
export interface BubbleDeps {
  config: WidgetConfig;
  model: WidgetModel;
  launcher: Launcher;
  /** The polite live region that reads the greeting, on the page since the greeting was scheduled. */
  live: HTMLElement;
  /** The language's locale pack, for the close button's name ({} for English). */
  pack: LocalePack;
  /** Opens the panel as the visitor's own open: focus moves into it. */
  open(): void;
  /** Adds a stylesheet to the widget's shadow root. */
  addSheet(sheet: string): void;
}

/**
 * Shows the greeting's bubble beside the closed launcher (which counts it in its unread badge until it goes) and
 * has the live region read it; focus stays where it is. Its words open the panel; its close button, or Escape
 * within it, dismisses it for the session, and focus that was in it goes to the launcher. Returns how to take it
 * away. This is the greeting's file (src/embed-greeting.ts), which the launcher loads when the greeting is due
 * (mount/greeting.ts), so that the launcher carries neither this nor its stylesheet.
 */
export function showGreeting(deps: BubbleDeps): () => void {
  const { config, model, launcher, live } = deps;
  const doc = launcher.root.ownerDocument;
  deps.addSheet(css);
  const bubble = make(doc, 'div', 'greeting');
  const hide = () => {
    launcher.greet();
    live.textContent = '';
  };
  const dismiss = () => {
    const focused = bubble.contains((bubble.getRootNode() as Document | ShadowRoot).activeElement);
    model.endGreeting();
    hide();
    if (focused) launcher.button.focus();
  };
  const words = makeButton(doc, 'greeting__text');
  words.textContent = config.greeting;
  words.addEventListener('click', deps.open);
  const close = makeButton(doc, 'greeting__close');
  close.setAttribute('aria-label', localizeGreeting(config, deps.pack));
  close.textContent = '×';
  close.addEventListener('click', dismiss);
  bubble.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') dismiss();
  });
  bubble.append(words, close);
  // Opening the panel takes the bubble away (and counts as the greeting's turn: WidgetModel.setOpen).
  launcher.greet(bubble, () => {
    live.textContent = '';
  });
  live.textContent = config.greeting;
  return hide;
}

/** `showGreeting`'s type: what the greeting's file hands to the launcher. */
export type ShowGreeting = typeof showGreeting;

import type { Theme } from '../config/schema.js';
import type { WidgetEvents } from '../state/events.js';

/** Control over one widget: what `mount()` returns, and what the script tag's `window.Askbox` offers. */
export interface WidgetHandle {
  open(): void;
  close(): void;
  toggle(): void;
  /** Opens the panel and sends `text` as the visitor. */
  send(text: string): Promise<void>;
  setTheme(theme: Theme): void;
  /** Subscribes to a lifecycle event; returns the unsubscribe function. */
  on<K extends keyof WidgetEvents>(type: K, listener: (detail: WidgetEvents[K]) => void): () => void;
  /**
   * Forgets the visitor's conversation, here and in storage, and closes the panel (logout on a shared device): the
   * next visitor sees nothing of it. The widget stays on the page, ready for a new conversation.
   */
  reset(): void;
  /** Aborts any reply in flight, disposes the state and removes the widget from the page. */
  destroy(): void;
}

/** A widget whose state and handle exist before it has a place on the page. */
export interface StartedWidget {
  handle: WidgetHandle;
  /**
   * Renders the widget, once, and keeps it in its place: `target` when given, else the inline mode's container
   * (waited for) or the page's `<body>`. Throws when the page will not take it (e.g. no shadow DOM).
   */
  attach(target?: HTMLElement): void;
  /** Creates the chat behind the launcher ahead of need (the launcher does so on hover and focus). */
  warm(): void;
}

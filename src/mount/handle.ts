import type { Identity } from '../config/identity.js';
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
   * Signs a visitor in (a single-page app's sign-in): `hash` is HMAC-SHA256 of `id` with the proxy's
   * `identitySecret`, computed by the site's server. The chat of whoever used it before closes; the person's
   * conversations come from the proxy, on any device. Not a valid pair: one console error, and the visitor is
   * anonymous. The same person again changes nothing.
   */
  identify(user: Identity): void;
  /**
   * Forgets the visitor (logout, or a shared device): their conversation, the list of earlier ones, ratings, drafts
   * and the panel's open state, here and in storage, and closes the panel; a signed-in person is signed out. The
   * widget stays on the page, a fresh anonymous one, ready for a new conversation.
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

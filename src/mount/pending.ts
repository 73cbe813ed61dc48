import type { UiText } from '../config/schema.js';
import { make, makeButton } from './dom.js';

/**
 * The panel's frame while the chat file loads, built by the launcher without Preact: a phone tap (no hover to load
 * ahead) opens it at once with a loading state, and a failed load leaves a short notice with Retry in it, not a
 * dead button.
 */
export interface PendingFrame {
  /** Shows the loading state; `focus` moves focus into the frame (a visitor's own open, not the page's). */
  loading(focus?: boolean): void;
  /**
   * Replaces the loading state with the failure notice and its Retry button (focused if focus was inside); nothing
   * when the frame is not on screen (the chat was loaded ahead of need, or the visitor closed the frame).
   */
  failed(): void;
  /** What had focus when the frame took it: where focus goes back to once the panel closes. */
  readonly opener: Element | null;
  /** Takes the frame away. */
  hide(): void;
}

/** What the frame says, and what its buttons do. */
export interface PendingFrameOptions {
  labels: { title: string; text: Pick<UiText, 'close' | 'retry' | 'loading' | 'loadFailed'> };
  /** Runs on its close button and Escape. */
  onClose(): void;
  /** Runs on Retry. */
  onRetry(): void;
}

/** Builds the frame into `root`, before `slot` (the panel takes its place there). */
export function createPendingFrame(
  root: HTMLElement,
  slot: HTMLElement,
  { labels, onClose, onRetry }: PendingFrameOptions,
): PendingFrame {
  const doc = root.ownerDocument;
  const { text } = labels;
  const frame = make(doc, 'div', 'panel pending');
  frame.setAttribute('role', 'dialog');
  frame.setAttribute('aria-label', labels.title);
  frame.tabIndex = -1;
  const close = makeButton(doc, 'pending__close');
  close.setAttribute('aria-label', text.close);
  close.textContent = '×';
  close.addEventListener('click', onClose);
  const body = make(doc, 'div', 'pending__body');
  frame.append(close, body);
  frame.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') onClose();
  });

  const fill = (role: string, message: string) => {
    const line = doc.createElement('p');
    line.setAttribute('role', role);
    line.textContent = message;
    body.replaceChildren(line);
    return line;
  };

  let opener: Element | null = null;
  return {
    get opener() {
      return opener;
    },
    loading(focus) {
      fill('status', text.loading).prepend(make(doc, 'span', 'pending__spinner'));
      if (!frame.isConnected) root.insertBefore(frame, slot);
      if (!focus) return;
      opener = doc.activeElement;
      frame.focus();
    },
    failed() {
      if (!frame.isConnected) return;
      const active = (frame.getRootNode() as Document | ShadowRoot).activeElement;
      const hadFocus = Boolean(active && frame.contains(active));
      fill('alert', text.loadFailed);
      const retry = makeButton(doc, 'pending__retry');
      retry.textContent = text.retry;
      retry.addEventListener('click', onRetry);
      body.append(retry);
      if (hadFocus) retry.focus();
    },
    hide() {
      frame.remove();
    },
  };
}

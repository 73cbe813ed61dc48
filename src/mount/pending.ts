import type { FrameText } from '../config/chat-text.js';
import type { LocalePack } from '../config/schema.js';
import { CLOSE_PART, HEADER_PART, PANEL_PART, TITLE_PART } from '../styles/parts.js';
import { make, makeButton } from './dom.js';
import { PANEL_ID } from './launcher.js';

/**
 * The panel's frame while the chat file loads, built by the launcher without Preact: a phone tap (no hover to load
 * ahead) opens it at once with a loading state, and a failed load leaves a notice with Retry in it, not a dead
 * button. Its header holds the bot's title and a close button, as the panel's does.
 */
export interface PendingFrame {
  /** Shows the loading state; `focus` moves focus into the frame (a visitor's own open, not the page's). */
  loading(focus?: boolean): void;
  /**
   * Replaces the loading state with the failure notice, in the language of `pack` when it came: what happened, what
   * to do, Retry (focused if focus was inside), and the site's contact when it gives one. Nothing when the frame is
   * not on screen (the chat was loaded ahead of need, or the visitor closed the frame).
   */
  failed(pack?: LocalePack): void;
  /** What had focus when the frame took it: where focus goes back to once the panel closes. */
  readonly opener: Element | null;
  /** Takes the frame away. */
  hide(): void;
}

/** What the frame says, and what its buttons do. */
export interface PendingFrameOptions {
  /** The bot's title and the frame's strings, in the language of `pack` when one came (else the launcher's). */
  labels(pack?: LocalePack): { title: string; text: FrameText };
  /** Where the site can be reached when the chat cannot (a page, or a `mailto:`); undefined for nowhere. */
  contact(): string | undefined;
  /** Runs on its close button and Escape. */
  onClose(): void;
  /** Runs on Retry. */
  onRetry(): void;
}

/** The id of the frame's title, which names the dialog (one frame per shadow root). */
const TITLE_ID = 'askbox-pending-title';

/** The frame's header, as the panel's: the bot's title (which names the dialog) and a close button. */
function createHead(doc: Document, onClose: () => void) {
  const head = make(doc, 'div', 'pending__head');
  head.setAttribute('part', HEADER_PART);
  const title = make(doc, 'h2', 'pending__title');
  title.id = TITLE_ID;
  title.setAttribute('part', TITLE_PART);
  const close = makeButton(doc, 'pending__close');
  close.setAttribute('part', CLOSE_PART);
  close.textContent = '×';
  close.addEventListener('click', onClose);
  head.append(title, close);
  return { head, title, close };
}

/** Builds the frame into `root`, before `slot` (the panel takes its place there). */
export function createPendingFrame(
  root: HTMLElement,
  slot: HTMLElement,
  { labels, contact, onClose, onRetry }: PendingFrameOptions,
): PendingFrame {
  const doc = root.ownerDocument;
  const frame = make(doc, 'div', 'panel pending');
  // What the launcher's `aria-controls` names, until the chat's panel takes the frame's place.
  frame.id = PANEL_ID;
  frame.setAttribute('part', PANEL_PART);
  frame.setAttribute('role', 'dialog');
  frame.setAttribute('aria-labelledby', TITLE_ID);
  frame.tabIndex = -1;
  const { head, title, close } = createHead(doc, onClose);
  const body = make(doc, 'div', 'pending__body');
  frame.append(head, body);
  frame.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') onClose();
  });

  /** Writes the title and the close button's name; returns the strings. */
  const label = (pack?: LocalePack) => {
    const said = labels(pack);
    title.textContent = said.title;
    close.setAttribute('aria-label', said.text.close);
    return said;
  };
  const line = (message: string, className = '') => {
    const p = make(doc, 'p', className);
    p.textContent = message;
    return p;
  };
  const hasFocus = () => {
    const active = (frame.getRootNode() as Document | ShadowRoot).activeElement;
    return Boolean(active && frame.contains(active));
  };

  let opener: Element | null = null;
  return {
    get opener() {
      return opener;
    },
    loading(focus) {
      const status = line(label().text.loading, 'pending__status');
      status.setAttribute('role', 'status');
      status.prepend(make(doc, 'span', 'pending__spinner'));
      // Retry, pressed inside the frame, keeps the opener of the first open.
      const retrying = hasFocus();
      body.replaceChildren(status);
      if (!frame.isConnected) root.insertBefore(frame, slot);
      if (!focus) return;
      if (!retrying) opener = doc.activeElement;
      frame.focus();
    },
    failed(pack) {
      if (!frame.isConnected) return;
      const hadFocus = hasFocus();
      const { text } = label(pack);
      const notice = make(doc, 'div', 'pending__notice');
      notice.setAttribute('role', 'alert');
      notice.append(line(text.loadFailed, 'pending__what'), line(text.loadFailedHint));
      const retry = makeButton(doc, 'pending__retry');
      retry.textContent = text.retry;
      retry.addEventListener('click', onRetry);
      body.replaceChildren(notice, retry);
      const href = contact();
      if (href) {
        const link = make(doc, 'a', 'pending__contact');
        link.href = href;
        link.textContent = text.limitContact;
        // A contact page opens beside the page the visitor is on; an email opens their mail program.
        if (!href.startsWith('mailto:')) {
          link.target = '_blank';
          link.rel = 'noopener';
        }
        body.append(link);
      }
      if (hadFocus) retry.focus();
    },
    hide() {
      frame.remove();
    },
  };
}

import type { Identity } from './identity.js';

/**
 * A locale pack: one language's strings by name. A UI string's key as in `text` (`send`), an error sentence's as
 * `errors.<kind>` (`errors.network`), then `title`, `welcome`, `placeholder` and the chat file's own strings
 * (`menu`, config/chat-text.ts). A key it lacks reads in English.
 */
export type LocalePack = Readonly<Record<string, string>>;

/** Where the launcher sits. */
export type Position = 'bottom-right' | 'bottom-left';
/** Colour scheme; `auto` follows the visitor's `prefers-color-scheme`. */
export type Theme = 'light' | 'dark' | 'auto';
/** Every theme, for validating input. */
export const THEMES: readonly Theme[] = ['light', 'dark', 'auto'];
/** The widget's writing direction: `rtl` mirrors the whole layout (corner, bubbles, lists, header, composer). */
export type Direction = 'ltr' | 'rtl';
/** `bubble`: a launcher in a corner opens the panel over the page; `inline`: the panel fills a container. */
export type Mode = 'bubble' | 'inline';

/** Every string the UI shows, so a site can translate or reword any of them. */
export interface UiText {
  launcher: string;
  close: string;
  newConversation: string;
  send: string;
  stop: string;
  inputLabel: string;
  conversationLabel: string;
  jumpToLatest: string;
  sources: string;
  thinking: string;
  stopped: string;
  retry: string;
  dismiss: string;
  replyFailed: string;
  flagged: string;
  you: string;
  assistant: string;
  tooLong: string;
  /** A 429 that says how long to wait; `{wait}` becomes e.g. "30 seconds". */
  rateLimitWait: string;
  /** The same, after the proxy's limit on new conversations (not messages) refused one. */
  conversationLimitWait: string;
  copyReply: string;
  copyCode: string;
  /** Announced (and shown) once a copy button has done its work. */
  copied: string;
  /** The label of the starter questions offered in an empty conversation. */
  starters: string;
  /** Shown, with Undo, after "new conversation" cleared the log. */
  cleared: string;
  undo: string;
  /** The notice once the service's message limit is reached (402): sending waits until a new conversation. */
  limitReached: string;
  /** The text of `limitLink` when the site gives none. */
  limitContact: string;
  /** Shown next to a streaming reply that has been silent for a while. */
  stillWorking: string;
  /** The accessible name of a code block in a reply, which scrolls sideways and so takes keyboard focus. */
  code: string;
  /** The accessible name of a table in a reply, for the same reason. */
  table: string;
  /** Appended to the closed launcher's name while replies wait unseen; `{count}` becomes their number. */
  unread: string;
  /** The panel's frame while the chat file loads (a phone tap opens it before the chat is there). */
  loading: string;
  /** The panel's frame when the chat file could not be loaded, above Retry. */
  loadFailed: string;
  /** Under `loadFailed`: what the visitor can do about it. */
  loadFailedHint: string;
  /** Under a message that waits for the connection to return before it is sent. */
  waiting: string;
  errors: Record<ErrorKindText, string>;
}

/** The error kinds the UI has a sentence for (see api/errors.ts). */
type ErrorKindText = 'config' | 'auth' | 'network' | 'http' | 'rate_limit' | 'stream' | 'not_found';

/** A validated widget configuration: what `parseConfig` returns and `mount()` runs on. */
export interface WidgetConfig {
  /** The Cody bot the conversation is created with. */
  botId: string;
  /** Base URL of the site owner's token proxy, without a trailing slash (e.g. `/askbox`). */
  proxyUrl: string;
  title: string;
  welcome: string;
  placeholder: string;
  position: Position;
  /** Open the panel as soon as the widget mounts. */
  open: boolean;
  /** Show the launcher button; without it the page opens the chat through the API (`Askbox.open()`). */
  launcher: boolean;
  /** A short teaser shown beside the closed launcher (not on phones), e.g. "Questions? Ask us"; "" for none. */
  launcherLabel: string;
  /** Accent colour, already validated as a CSS colour literal; undefined keeps the default. */
  accent: string | undefined;
  /** Text and icons on the accent, validated like `accent`; undefined derives white or black from the accent. */
  accentText: string | undefined;
  theme: Theme;
  /** The UI language's direction unless `data-dir` says otherwise. */
  dir: Direction;
  /** Focus mode: restrict the bot to these documents. */
  documentIds: readonly string[];
  conversationName: string;
  /** The visitor's notice when the message limit is reached; undefined: `text.limitReached`. */
  limitMessage: string | undefined;
  /** An http(s) page the limit notice links to (e.g. a contact form). */
  limitLink: string | undefined;
  /** The link's text; undefined: `text.limitContact`. */
  limitLinkText: string | undefined;
  /**
   * The settings as given, for those the chat file reads itself so that the launcher need not carry their rules:
   * `handoffUrl`, `handoffEmail` and `handoffParam` (config/handoff.ts).
   */
  input: Readonly<Record<string, unknown>>;
  /**
   * How the settings were written, so that console messages name them as written: `data-` before each attribute of
   * a script tag, `''` on `<askbox-chat>`; undefined for `mount()`'s keys.
   */
  attributePrefix?: string | undefined;
  /** Seconds a reply stream may stay silent before it counts as broken. */
  streamTimeout: number;
  /** Stream replies as they are written; false: ask for whole replies (`POST /messages`). */
  stream: boolean;
  /** Nonce for the `<style>` fallback on pages with a strict CSP. */
  styleNonce: string | undefined;
  text: UiText;
  /**
   * The language's locale pack (config/locale.ts): its strings by name, which the chat file resolves when it is
   * created (`localize`, config/chat-text.ts); {} when none is at hand (English, or the launcher before it loads one).
   */
  pack: LocalePack;
  /** The BCP 47 tag dates and numbers are formatted for; the UI strings are its language's (else English). */
  locale: string;
  /** The language of the UI strings: a supported one, else `en`. */
  language: string;
  /** Questions offered as buttons in an empty conversation; a click sends one. */
  starters: readonly string[];
  mode: Mode;
  /** Inline mode: the CSS selector of the container the panel fills (waited for if not there yet). */
  target: string | undefined;
  /** Tells apart widgets of one bot on one page: each keeps its own conversation. */
  instance: string | undefined;
  /** The stacking level of the launcher and panel; undefined keeps the stylesheet's (2147480000). */
  zIndex: number | undefined;
  /** Show the self-diagnosis overlay (also `?askbox-debug=1` on the page's URL). */
  debug: boolean;
  /** The launcher's distance from the page's side and bottom edges, in px. */
  offsetX: number;
  offsetY: number;
  /** Page rules (config/paths.ts): the paths the widget shows on ([] for all) and those it hides on (hiding wins). */
  showOn: readonly string[];
  hideOn: readonly string[];
  /**
   * The signed-in visitor (`data-user-id` and `data-user-hash`, or `user: {id, hash}`), checked by the proxy; undefined:
   * anonymous, the conversations kept in this browser.
   */
  user: Identity | undefined;
}

/**
 * What identifies a widget on a page and in storage: its bot, its proxy and its instance. A second tag (or element,
 * or `mount()`) with the same identity joins the first widget instead of mounting another.
 */
export const widgetKey = ({ botId, proxyUrl, instance }: WidgetConfig): string =>
  `${botId}@${proxyUrl}${instance ? `#${instance}` : ''}`;

/** The longest message the service accepts (POST /messages: `content` ≤ 2000 characters). */
export const MAX_MESSAGE_LENGTH = 2000;

/**
 * The length of a text as the service counts it, and every limit in the widget's settings: in characters (Unicode
 * code points), so an emoji, which is two UTF-16 units, counts once.
 */
export const messageLength = (text: string): number => [...text].length;
/** The counter appears once a draft reaches this length. */
export const COUNTER_THRESHOLD = 1800;
/** The range of `streamTimeout`, in seconds: long enough for a slow model, short enough not to look hung. */
export const STREAM_TIMEOUT_RANGE = [10, 300] as const;
/** The service accepts at most this many focus documents. */
export const MAX_DOCUMENT_IDS = 1000;

/** Every UI string, in one frozen object. */
export const DEFAULT_TEXT: UiText = /* @__PURE__ */ Object.freeze({
  launcher: 'Chat',
  close: 'Close',
  newConversation: 'Start a new conversation',
  send: 'Send message',
  stop: 'Stop generating',
  inputLabel: 'Message',
  conversationLabel: 'Conversation',
  jumpToLatest: 'Jump to the latest message',
  sources: 'Sources',
  thinking: 'Thinking…',
  stopped: 'Stopped.',
  retry: 'Retry',
  dismiss: 'Dismiss',
  replyFailed: 'The assistant could not answer this time.',
  flagged: 'This reply was flagged by the content policy.',
  you: 'You',
  assistant: 'Assistant',
  tooLong: 'Your message is too long.',
  rateLimitWait: 'You are sending messages too quickly. Please wait {wait} and try again.',
  conversationLimitWait: 'You are starting new conversations too quickly. Please wait {wait} and try again.',
  copyReply: 'Copy reply',
  copyCode: 'Copy code',
  copied: 'Copied',
  starters: 'Suggested questions',
  cleared: 'Conversation cleared.',
  undo: 'Undo',
  limitReached: "We can't answer new questions right now. Please try again later.",
  limitContact: 'Contact us',
  stillWorking: 'Still working…',
  code: 'Code',
  table: 'Table',
  unread: '{count} unread',
  loading: 'Loading…',
  loadFailed: 'The chat could not be loaded.',
  loadFailedHint: 'Please check your connection and try again.',
  waiting: 'Waiting for connection…',
  errors: /* @__PURE__ */ Object.freeze({
    // The site's own setup refused the chat (see state/fail.ts): the owner reads why in the console.
    config: "This chat isn't available right now.",
    auth: 'The chat service refused the request. Please try again later.',
    network: 'Could not reach the chat service. Check your connection and try again.',
    http: 'Something went wrong. Please try again.',
    rate_limit: 'Too many messages at once. Please wait a moment and try again.',
    stream: 'The reply was interrupted. Please try again.',
    not_found: 'This conversation is no longer available.',
  }),
});

/** Defaults for every optional setting, in one frozen object. */
export const DEFAULTS = /* @__PURE__ */ Object.freeze({
  title: 'Ask us anything',
  welcome: 'Hi! How can I help you today?',
  placeholder: 'Type your question…',
  position: 'bottom-right' as Position,
  open: false,
  launcher: true,
  theme: 'auto' as Theme,
  conversationName: 'Website visitor',
  streamTimeout: 45,
  stream: true,
  mode: 'bubble' as Mode,
  offsetX: 20,
  offsetY: 20,
});

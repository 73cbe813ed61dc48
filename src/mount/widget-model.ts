import type { Identity } from '../config/identity.js';
import { widgetKey, type Theme, type WidgetConfig } from '../config/schema.js';
import type { PanelStore } from '../state/panel.js';
import type { KeyValueStore } from '../state/storage.js';

/**
 * Where the chat behind the launcher is: not asked for yet, on its way (the chat file, and the strings of a language
 * other than English), at hand, or failed to load.
 */
export type ChatPhase = 'cold' | 'loading' | 'ready' | 'failed';

/**
 * The chat's transitions: the phases each phase may move to. Interest (hover, focus, an open, Retry) moves a cold or
 * failed chat to loading, and its load ends ready or failed; any other move changes nothing: a second hover while the
 * chat loads asks for nothing more, and a ready chat stays ready (`reset()` makes a new chat from what was loaded).
 */
export const CHAT_TRANSITIONS: Readonly<Record<ChatPhase, readonly ChatPhase[]>> = {
  cold: ['loading'],
  loading: ['ready', 'failed'],
  failed: ['loading'],
  ready: [],
};

/**
 * Where the panel stands: closed; asked to open while the chat loads (`pending`: the loading frame stands in for
 * it, and the chat opens once it comes); open (the chat's panel).
 */
type PanelState = 'closed' | 'pending' | 'open';

/**
 * A widget's state before and beside its chat: the chat's phase, the panel's state, the colour scheme. The panel's
 * state is held here only: the chat reads and writes it here (as its `PanelStore`), and the launcher, which has no
 * chat yet, too.
 */
export interface WidgetModel extends PanelStore {
  readonly chat: ChatPhase;
  /** Moves the chat to `phase` if `CHAT_TRANSITIONS` allows it; whether it did (so `loading` says to start a load). */
  go(phase: ChatPhase): boolean;
  readonly panel: PanelState;
  /** Whether the chat's panel is open (not merely asked for). */
  readonly open: boolean;
  /**
   * The chat opened or closed its panel (its `open` and `close` events). Remembered for the session from the first
   * one that departs from the page's own choice (`data-open`) on, never before (privacy); an inline panel is always
   * open, so nothing is remembered for it.
   */
  setOpen(open: boolean): void;
  /**
   * The launcher, with no chat, asks the panel to open while the chat loads (`pending`), or closes it: the frame
   * is closed, or the widget taken off the page. Not remembered: no `open` or `close` event fired.
   */
  setPanel(state: Exclude<PanelState, 'open'>): void;
  /** Whether the panel opens itself at load: the visitor's last choice within the session, else `data-open`. */
  opensAtLoad(): boolean;
  /** Forgets the remembered open state (`reset()`: the visitor is gone). */
  forget(): void;
  theme: Theme;
  /**
   * The signed-in visitor the next chat is created for (`identify()`; at first the config's), held in memory only;
   * undefined: anonymous.
   */
  user: Identity | undefined;
  /** The visitor's system colour scheme (`prefers-color-scheme`), which the `auto` theme follows. */
  system: 'light' | 'dark';
  /** The scheme the widget is drawn in. */
  scheme(): 'light' | 'dark';
}

/**
 * Whether an open state remembered for the session can matter to this page view: one reached from a page of its own
 * origin (whose sessionStorage it shares), or by a reload or back and forward, whatever its referrer. `referrer` is
 * `document.referrer`, `origin` the page's `location.origin`, `type` its `performance.navigation.type` (0 a plain
 * navigation, 1 a reload, 2 back or forward; read rather than the `getEntriesByType` entry, which costs more to
 * make). A plain navigation from elsewhere (a search engine, another site, a typed address, a bookmark) starts as the
 * page says (`data-open`), and the widget spares the page the read: a browser's first sessionStorage access is a
 * synchronous round trip to its storage process. A site sending `Referrer-Policy: no-referrer` gives its own links
 * no referrer, so there the panel reopens on reload and back or forward only. Where the type is unknown, the state
 * is read as before.
 */
export const mayRemember = (referrer: string, origin: string, type: number | undefined): boolean =>
  referrer.startsWith(origin + '/') || type !== 0;

/**
 * Creates a widget's model; `tab` keeps the open state for the browser session (sessionStorage), read at load when
 * `arrival` says it can matter (see `mayRemember`). Plain state with no subscriptions: the launcher carries no
 * signals library, and the widget repaints after each change it makes.
 */
export function createWidgetModel(config: WidgetConfig, tab: KeyValueStore, arrival: () => boolean): WidgetModel {
  const key = `open:${widgetKey(config)}`;
  const bubble = config.mode === 'bubble';
  /** Whether the remembered state is read: decided at the first read, and true once this page view stored one. */
  let remembers: boolean | undefined;
  let chat: ChatPhase = 'cold';
  let panel: PanelState = 'closed';
  const model: WidgetModel = {
    get chat() {
      return chat;
    },
    go: (phase) => {
      if (!CHAT_TRANSITIONS[chat].includes(phase)) return false;
      chat = phase;
      return true;
    },
    get panel() {
      return panel;
    },
    get open() {
      return panel === 'open';
    },
    setOpen: (open) => {
      panel = open ? 'open' : 'closed';
      if (!bubble || !(tab.get(key) || open !== config.open)) return;
      tab.set(key, open ? '1' : '0');
      remembers = true;
    },
    setPanel: (state) => {
      panel = state;
    },
    opensAtLoad: () => {
      if (!bubble) return false;
      remembers ??= arrival();
      // The remembered state, else data-open's.
      const remembered = remembers ? tab.get(key) : undefined;
      return (remembered || (config.open ? '1' : '0')) === '1';
    },
    forget: () => tab.remove(key),
    theme: config.theme,
    user: config.user,
    system: 'light',
    scheme: () => (model.theme === 'auto' ? model.system : model.theme),
  };
  return model;
}

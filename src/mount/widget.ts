import { pathAllowed } from '../config/paths.js';
import { THEMES, widgetKey, type WidgetConfig } from '../config/schema.js';
import type { Emit, WidgetEvents } from '../state/events.js';
import { conversationKey } from '../state/session.js';
import { createStorage, type KeyValueStore } from '../state/storage.js';
import css from '../styles/launcher.css?inline';
import { toThemeCss } from '../styles/theme.js';
import type { Chat, ChatDeps, CreateChat } from './chat.js';
import type { WidgetHandle } from './handle.js';
import { createLauncher, type Launcher } from './launcher.js';
import { watchNavigation } from './navigation.js';
import { createPendingFrame, type PendingFrame } from './pending.js';
import { keepPlaced } from './placement.js';
import { followSystemScheme } from './scheme.js';
import { addStyles, createShadowHost, type ShadowHost } from './shadow-host.js';
import { followScreen } from './viewport.js';

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

/** The languages the page and the visitor prefer, in order: the page's `<html lang>`, then the browser's. */
export function pageLanguages(doc: Document): string[] {
  return [doc.documentElement.lang, ...(doc.defaultView?.navigator.languages ?? [])].filter(Boolean);
}

const toggle = ({ model }: Chat) => (model.isOpen.value ? model.close() : model.open());

/**
 * Where the chat behind the launcher comes from: `createChat` itself (the ESM build imports it), or a promise of it
 * (the script tag loads the chat file on first interest; see mount/chat-loader.ts).
 */
type ChatSource = () => CreateChat | Promise<CreateChat>;

/** The chat's source, and replacements for the storage areas the widget uses by default (tests pass fakes). */
export interface WidgetDeps extends ChatDeps {
  chat: ChatSource;
  /** Where the conversation is kept (default: localStorage). */
  storage?: KeyValueStore;
  /** Where the panel's open state is kept for the browser session (default: sessionStorage). */
  tabStorage?: KeyValueStore;
}

/** A namespaced store over one of the page's storage areas, touched only when read or written. */
const areaStore = (area: 'localStorage' | 'sessionStorage') => createStorage(() => window[area], 'askbox:v1:');

/**
 * Starts a widget for a parsed config: its handle at once (so a page can call it straight away), its launcher when
 * `attach` is given a place. Everything behind the launcher (model, network, Preact, DOMPurify, markdown, the
 * panel's stylesheet) is created on the first sign of interest — hover or focus on the launcher, or a call that
 * needs it — so a visitor who never opens the chat costs the page next to nothing.
 *
 * On a page its rules keep it off (`showOn`, `hideOn`), the widget costs nothing: no element, no chat file, no
 * listener but the one for the page's navigation. A navigation that allows it draws it then; one that disallows it
 * takes the launcher and the panel away (the conversation stays stored, and comes back with them).
 */
export function startWidget(
  config: WidgetConfig,
  deps: WidgetDeps,
  complete?: () => Promise<WidgetConfig>,
): StartedWidget {
  const listeners = new Map<keyof WidgetEvents, Set<(detail: never) => void>>();
  const tab = deps.tabStorage ?? areaStore('sessionStorage');
  const openKey = `open:${widgetKey(config)}`;
  const inline = config.mode === 'inline';
  // True while the widget opens itself at load (data-open, or the remembered state): that is no engagement.
  let restoring = false;
  const emit: Emit = (type, detail) => {
    // The open state is stored from the visitor's first open or close on, never before (privacy), for the session.
    if ((type === 'open' || type === 'close') && !restoring) tab.set(openKey, type === 'open' ? '1' : '0');
    for (const listener of listeners.get(type) ?? []) {
      try {
        (listener as (d: typeof detail) => void)(detail);
      } catch (error) {
        // A listener of the host page must not break the widget.
        console.error('[askbox] an event listener threw', error);
      }
    }
  };
  const store = deps.storage ?? areaStore('localStorage');
  let theme = config.theme;
  let launcher: Launcher | undefined;
  let frame: PendingFrame | undefined;
  /** True from an open asked for before the chat was there until the chat opens or the visitor closes the frame. */
  let waiting = false;
  let shadow: ShadowHost | undefined;
  let chat: Chat | undefined;
  let destroyed = false;
  let unplace: (() => void) | undefined;
  /** Whether the page rules allow the widget on the page's current path. */
  let allowed = pathAllowed(config, location.pathname);
  let system: ReturnType<typeof followSystemScheme> | undefined;
  const paintScheme = () => launcher?.setScheme(theme === 'auto' ? (system?.current() ?? 'light') : theme);

  // The panel's stylesheet goes in once per widget, however many chats `reset()` makes.
  let styled = false;
  const show = () => {
    const root = shadow?.root;
    if (chat && launcher && root)
      chat.show(
        launcher,
        (sheet) => {
          if (!styled) addStyles(root, sheet, config.styleNonce);
          styled = true;
        },
        frame?.opener,
      );
  };
  /**
   * Opens the panel. `engaged` is false when the widget opens itself (inline, `data-open`, the remembered state):
   * nothing for the open state to remember then.
   */
  const openChat = ({ model }: Chat, engaged: boolean) => {
    restoring = !engaged;
    model.open();
    restoring = false;
  };
  /** The complete config (with the UI strings of a language other than English) and `createChat`, once both are in. */
  let ready: { full: WidgetConfig; make: CreateChat } | undefined;
  let preparing: Promise<{ full: WidgetConfig; make: CreateChat }> | undefined;
  const prepare = () => {
    if (ready) return ready;
    const source = deps.chat();
    if (!complete && typeof source === 'function') return (ready = { full: config, make: source });
    // A failed load is tried again on the next call (Retry, or a later open).
    preparing ??= Promise.all([complete?.() ?? config, source]).then(
      ([full, make]) => (ready = { full, make }),
      (error: unknown) => {
        preparing = undefined;
        throw error;
      },
    );
    return preparing;
  };
  /**
   * Runs `action` on the chat, creating it first if need be; a failure to start is one console error. A `quiet`
   * action (the widget opening itself) runs before the new chat is first drawn, so that it draws open and focus
   * stays where it is; any other after, so that the panel opening moves focus in.
   */
  const run = <T>(action: (loaded: Chat) => T, loaded?: NonNullable<typeof ready>, quiet = false): T | undefined => {
    if (destroyed || !allowed) return undefined;
    try {
      if (!chat && loaded) {
        const made = loaded.make(loaded.full, emit, { client: deps.client, storage: store });
        chat = made;
        frame?.hide();
        // Inline, the panel is open from its first frame: nothing to announce, and focus stays where it is.
        if (inline) openChat(made, false);
        const result = quiet ? action(made) : undefined;
        show();
        if (quiet) return result;
      }
      return chat && action(chat);
    } catch (error) {
      console.error('[askbox] The chat widget could not start:', error);
      return undefined;
    }
  };
  /**
   * `run`, at once when the chat and its config are at hand, else once they have come (the chat file, the UI strings
   * of a language other than English); calls made meanwhile run in order. `opening` shows the panel's frame with a
   * loading state meanwhile, and the failure notice if the chat file cannot be loaded (the loader logs why).
   */
  const use = <T>(
    action: (loaded: Chat) => T,
    opening?: { focus: boolean; quiet?: boolean },
  ): T | undefined | Promise<T | undefined> => {
    // Off this page (page rules), calls do nothing: the widget is not here.
    if (destroyed || !allowed) return undefined;
    if (chat) return run(action);
    const got = prepare();
    if (!(got instanceof Promise)) return run(action, got, opening?.quiet);
    if (opening || inline) {
      waiting = true;
      frame?.loading(Boolean(opening?.focus));
      launcher?.setOpen(true);
    }
    return got.then(
      (loaded) => {
        // Closed while it loaded: the chat is created, but does not open.
        const wanted = !opening || waiting;
        if (opening) waiting = false;
        return run(wanted ? action : () => undefined, loaded, opening?.quiet);
      },
      () => {
        if (frame?.shown) frame.failed();
        return undefined;
      },
    );
  };

  const warm = () => void use(() => undefined);
  const open = (engaged: boolean) =>
    use((loaded) => openChat(loaded, engaged), { focus: engaged && !inline, quiet: !engaged });
  /** Closes the frame shown while the chat loads: a load that completes later then opens nothing. */
  const closeFrame = () => {
    waiting = false;
    frame?.hide();
    launcher?.setOpen(false);
  };

  const handle: WidgetHandle = {
    open: () => void open(true),
    // An inline panel is part of the page: it does not close.
    close: () => void (inline || (chat ? chat.model.close() : waiting && closeFrame())),
    toggle: () => {
      if (inline) return;
      if (chat) return void toggle(chat);
      if (waiting) return closeFrame();
      void open(true);
    },
    send: async (text) => {
      if (typeof text !== 'string') return void console.error('[askbox] send() takes the message text as a string');
      await use(
        async ({ model }) => {
          model.open();
          await model.send(text);
        },
        { focus: false },
      );
    },
    setTheme: (next) => {
      if (!THEMES.includes(next)) return void console.error(`[askbox] setTheme() takes one of ${THEMES.join(', ')}`);
      theme = next;
      paintScheme();
    },
    on: (type, listener) => {
      const set = listeners.get(type) ?? new Set();
      listeners.set(type, set);
      set.add(listener as (detail: never) => void);
      return () => set.delete(listener as (detail: never) => void);
    },
    reset: () => {
      const wasOpen = chat?.model.isOpen.value;
      chat?.destroy();
      chat = undefined;
      if (wasOpen && !inline) emit('close', undefined);
      store.remove(conversationKey(config));
      tab.remove(openKey);
      // A frame waiting for the chat file goes too: the open it waited for belonged to the visitor now gone.
      closeFrame();
      if (inline && shadow) warm();
    },
    destroy: () => {
      if (destroyed) return;
      destroyed = true;
      stopWatching?.();
      remove();
      listeners.clear();
    },
  };
  /** Opens the panel as it was: within the session the visitor's last choice wins over data-open. */
  const restore = () => {
    const remembered = tab.get(openKey);
    if (!inline && (remembered ? remembered === '1' : config.open)) void open(false);
  };
  /** Takes the widget off the page: the chat and every element and listener but the navigation's. */
  const remove = () => {
    chat?.destroy();
    chat = undefined;
    waiting = false;
    styled = false;
    system?.stop();
    unplace?.();
    shadow?.destroy();
    system = unplace = shadow = launcher = frame = undefined;
  };
  /** Draws the widget in its place; set by `attach`. */
  let place: (() => void) | undefined;
  let stopWatching: (() => void) | undefined;
  restore();
  return {
    handle,
    warm,
    attach: (target) => {
      if (destroyed || place) return;
      const doc = target?.ownerDocument ?? document;
      const view = doc.defaultView ?? window;
      if (config.showOn.length + config.hideOn.length > 0)
        stopWatching = watchNavigation(view, () => {
          if (allowed === pathAllowed(config, view.location.pathname)) return;
          allowed = !allowed;
          if (allowed) {
            place?.();
            restore();
          } else remove();
        });
      place = () => drawIn(doc, target);
      if (allowed) place();
    },
  };

  /** Builds the launcher, its frame and the shadow host in `doc`, and keeps them in `target` or their place. */
  function drawIn(doc: Document, target?: HTMLElement) {
    system = followSystemScheme(paintScheme);
    launcher = createLauncher(doc, config, {
      onPress: handle.toggle,
      onWarm: warm,
    });
    paintScheme();
    frame = createPendingFrame(
      launcher.root,
      launcher.slot,
      { title: config.title, text: config.text },
      {
        onClose: () => {
          closeFrame();
          launcher?.button.focus();
        },
        onRetry: () => void open(true),
      },
    );
    if (waiting) frame.loading(false);
    shadow = createShadowHost(doc, {
      css: css + toThemeCss(config),
      nonce: config.styleNonce,
      content: launcher.root,
    });
    const selector = !target && inline ? config.target : undefined;
    const stopFollowing = followScreen(launcher.root);
    const stopPlacing = keepPlaced(
      shadow.host,
      () => target ?? (selector ? doc.querySelector(selector) : doc.body),
      Boolean(selector),
      () =>
        console.error(`[askbox] data-target "${selector}" matches no element yet: the chat appears once one is added`),
    );
    unplace = () => {
      stopPlacing();
      stopFollowing();
    };
    // Inline, the panel is on screen from the start, and so the chat behind it.
    if (inline) warm();
    show();
  }
}

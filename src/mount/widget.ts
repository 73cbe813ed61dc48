import { pathAllowed } from '../config/paths.js';
import { THEMES, type WidgetConfig } from '../config/schema.js';
import type { Emit, WidgetEvents } from '../state/events.js';
import { storageKey, VISITOR_KEYS } from '../state/session.js';
import css from '../styles/launcher.css?inline';
import { toThemeCss } from '../styles/theme.js';
import type { Chat, CreateChat } from './chat.js';
import { areaStore, type ChatStrings, type WidgetDeps } from './deps.js';
import type { StartedWidget, WidgetHandle } from './handle.js';
import { createLauncher, type Launcher } from './launcher.js';
import { watchNavigation } from './navigation.js';
import { createPendingFrame, type PendingFrame } from './pending.js';
import { keepPlaced } from './placement.js';
import { followSystemScheme } from './scheme.js';
import { addStyles, createShadowHost } from './shadow-host.js';
import { followScreen } from './viewport.js';
import { createWidgetModel } from './widget-model.js';

/** The languages the page and the visitor prefer, in order: the page's `<html lang>`, then the browser's. */
export function pageLanguages(doc: Document): string[] {
  return [doc.documentElement.lang, ...(doc.defaultView?.navigator.languages ?? [])].filter(Boolean);
}

/**
 * Starts a widget for a parsed config: its handle at once (so a page can call it straight away), its launcher when
 * `attach` is given a place. Everything behind the launcher (model, network, Preact, DOMPurify, markdown, the
 * panel's stylesheet) is created on the first sign of interest — hover or focus on the launcher, or a call that
 * needs it — so a visitor who never opens the chat costs the page next to nothing. Its state is a `WidgetModel`.
 *
 * On a page its rules keep it off (`showOn`, `hideOn`), the widget costs nothing: no element, no chat file, no
 * listener but the one for the page's navigation. A navigation that allows it draws it then; one that disallows it
 * takes the launcher and the panel away (the conversation stays stored, and comes back with them).
 */
export function startWidget(config: WidgetConfig, deps: WidgetDeps): StartedWidget {
  const inline = config.mode === 'inline';
  const model = createWidgetModel(config, deps.tabStorage ?? areaStore('sessionStorage'));
  const listeners = new Map<keyof WidgetEvents, Set<(detail: never) => void>>();
  const emit: Emit = (type, detail) => {
    if (type === 'open' || type === 'close') model.setOpen(type === 'open');
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
  let launcher: Launcher | undefined;
  let frame: PendingFrame | undefined;
  /** Adds the panel's stylesheet next to the launcher's: once per drawing, however many chats `reset()` makes. */
  let addSheet: ((css: string) => void) | undefined;
  /** Takes the drawing off the page, with every listener it added. */
  let undraw: (() => void) | undefined;
  let chat: Chat | undefined;
  /** `createChat` with the config in the UI's language: at hand once the model's chat is ready. */
  let make: (() => Chat) | undefined;
  /** The chat's load under way, or the last one: it never rejects, and leaves the model's chat ready or failed. */
  let loading: Promise<void> | undefined;
  let destroyed = false;
  /** Whether the page rules allow the widget on the page's current path. */
  let allowed = pathAllowed(config, location.pathname);
  const paint = () => launcher?.setScheme(model.scheme());
  const show = () => launcher && addSheet && chat?.show(launcher, addSheet, frame?.opener);
  const take = (create: CreateChat, strings?: ChatStrings) => {
    // The strings join the config when the chat is created: the widget keeps one config.
    make = () => create({ ...config, ...strings }, emit, { client: deps.client, storage: store });
    model.go('ready');
  };
  const load = (source = deps.chat()) =>
    typeof source === 'function' && !deps.strings
      ? take(source)
      : (loading = Promise.all([source, deps.strings?.()]).then(
          (got) => take(...got),
          () => void model.go('failed'),
        ));
  /**
   * Runs `action` on the chat, creating it first if need be; a failure to start is one console error. A chat the
   * widget opens itself (inline, `data-open`, the remembered state) is created open, so that it draws open and focus
   * stays where it is; the visitor's own open comes after the first draw, and moves focus in.
   */
  const run = <T>(action: (loaded: Chat) => T, itself = false): T | undefined => {
    try {
      if (!chat && make && !destroyed && allowed) {
        chat = make();
        frame?.hide();
        if (itself || inline) chat.model.open();
        show();
      }
      return chat && action(chat);
    } catch (error) {
      console.error('[askbox] The chat widget could not start:', error);
      return undefined;
    }
  };
  /**
   * `run`, at once when the model's chat is ready, else once its load ends (calls made meanwhile run in order). An
   * `opening` call opens the panel's frame meanwhile, loading, then the failure notice with Retry if the load fails
   * (the loader logs why); closed meanwhile, the chat is created but does not open. Off the page, nothing.
   */
  const use = <T>(action: (loaded: Chat) => T, opening?: { focus: boolean; itself?: boolean }) => {
    if (destroyed || !allowed) return undefined;
    if (model.go('loading')) load();
    if (model.chat === 'ready') return run(action, opening?.itself);
    if (opening || inline) {
      model.open = true;
      frame?.loading(opening?.focus);
      launcher?.setOpen(true);
    }
    return loading?.then(() =>
      model.chat === 'failed'
        ? frame?.failed()
        : run(!opening || model.open ? action : () => undefined, opening?.itself),
    );
  };
  const warm = () => void use(() => undefined);
  const open = (engaged: boolean) =>
    use((loaded) => loaded.model.open(), { focus: engaged && !inline, itself: !engaged });
  /** Closes the frame shown while the chat loads: a load that completes later then opens nothing. */
  const closeFrame = () => {
    model.open = false;
    frame?.hide();
    launcher?.setOpen(false);
  };
  /** Takes the widget off the page: the chat and every element and listener but the navigation's. */
  const remove = () => {
    chat?.destroy();
    chat = undefined;
    model.open = false;
    undraw?.();
    undraw = addSheet = launcher = frame = undefined;
  };

  const handle: WidgetHandle = {
    open: () => void open(true),
    // An inline panel is part of the page: it does not close.
    close: () => void (inline || (chat ? chat.model.close() : closeFrame())),
    toggle: () => void (inline || (model.open ? handle.close() : open(true))),
    send: async (text) => {
      if (typeof text !== 'string') return void console.error('[askbox] send() takes the message text as a string');
      await use(
        async (loaded) => {
          loaded.model.open();
          await loaded.model.send(text);
        },
        { focus: false },
      );
    },
    setTheme: (next) => {
      if (!THEMES.includes(next)) return void console.error(`[askbox] setTheme() takes one of ${THEMES.join(', ')}`);
      model.theme = next;
      paint();
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
      // The conversation, the list of earlier ones and the ratings: the next visitor on this device sees none.
      for (const kind of VISITOR_KEYS) store.remove(storageKey(kind, config));
      model.forget();
      // A frame waiting for the chat file goes too: the open it waited for belonged to the visitor now gone.
      closeFrame();
      if (inline && launcher) warm();
    },
    destroy: () => {
      if (destroyed) return;
      destroyed = true;
      stopRules?.();
      remove();
      listeners.clear();
    },
  };
  /** Opens the panel as it was: within the session the visitor's last choice wins over data-open. */
  const restore = () => void (model.opensAtLoad() && open(false));
  let stopRules: (() => void) | undefined;
  let attached = false;
  restore();
  return {
    handle,
    warm,
    attach: (target) => {
      if (destroyed || attached) return;
      attached = true;
      const doc = target?.ownerDocument ?? document;
      const view = doc.defaultView ?? window;
      if (config.showOn.length + config.hideOn.length > 0)
        stopRules = watchNavigation(view, () => {
          if (allowed === pathAllowed(config, view.location.pathname)) return;
          allowed = !allowed;
          if (!allowed) return remove();
          draw(doc, target);
          restore();
        });
      if (allowed) draw(doc, target);
    },
  };

  /** Draws the launcher and its frame in `doc`, kept in `target` or their place, and shows the chat if it is there. */
  function draw(doc: Document, target?: HTMLElement) {
    launcher = createLauncher(doc, config, { onPress: handle.toggle, onWarm: warm });
    frame = createPendingFrame(launcher.root, launcher.slot, config, {
      onClose: () => {
        closeFrame();
        launcher?.button.focus();
      },
      onRetry: () => void open(true),
    });
    const shadow = createShadowHost(doc, {
      css: css + toThemeCss(config),
      nonce: config.styleNonce,
      content: launcher.root,
    });
    const selector = !target && inline ? config.target : undefined;
    const stopScheme = followSystemScheme((scheme) => {
      model.system = scheme;
      paint();
    });
    const stopFollowing = followScreen(launcher.root);
    const stopPlacing = keepPlaced(
      shadow.host,
      () => target ?? (selector ? doc.querySelector(selector) : doc.body),
      Boolean(selector),
      () =>
        console.error(`[askbox] data-target "${selector}" matches no element yet: the chat appears once one is added`),
    );
    let styled = false;
    addSheet = (sheet) => {
      if (!styled) addStyles(shadow.root, sheet, config.styleNonce);
      styled = true;
    };
    undraw = () => {
      stopScheme();
      stopFollowing();
      stopPlacing();
      shadow.destroy();
    };
    paint();
    if (model.open && !chat) frame.loading();
    // Inline, the panel is on screen from the start, and so the chat behind it.
    if (inline) warm();
    show();
  }
}

import { parseIdentity, sameIdentity, IDENTITY_RULE } from '../config/identity.js';
import { THEMES, type WidgetConfig } from '../config/schema.js';
import type { Emit, WidgetEvents } from '../state/events.js';
import { storageKey, VISITOR_KEYS } from '../state/session.js';
import { areaStore, type WidgetDeps } from './deps.js';
import type { StartedWidget, WidgetHandle } from './handle.js';
import { createChatSource } from './chat-source.js';
import { drawWidget, type Drawing } from './drawing.js';
import { createLazyChat, type LazyChat } from './lazy-chat.js';
import { followPageRules } from './page-rules.js';
import { createWidgetModel, mayRemember, type WidgetModel } from './widget-model.js';
import type { KeyValueStore } from '../state/storage.js';

/**
 * The languages the page and the visitor prefer, in order: the page's `<html lang>`, then the browser's (an empty
 * `lang` is no language: `resolveLocale` passes it by). Read as they are iterated, afresh each time, so that the
 * browser's are not read when the page's language settles the locale: the first read of `navigator` sets up its
 * interface, a cost every page view would pay for nothing.
 */
export function pageLanguages(doc: Document): Iterable<string> {
  return {
    *[Symbol.iterator]() {
      yield doc.documentElement.lang;
      yield* doc.defaultView?.navigator.languages ?? [];
    },
  };
}

/** The widget's lifecycle events: `emit` calls the page's listeners, which `on` adds and `clear` drops. */
function createEvents() {
  const listeners = new Map<keyof WidgetEvents, Set<(detail: never) => void>>();
  const emit: Emit = (type, detail) => {
    for (const listener of listeners.get(type) ?? []) {
      try {
        (listener as (d: typeof detail) => void)(detail);
      } catch (error) {
        // A listener of the host page must not break the widget.
        console.error('[askbox] an event listener threw', error);
      }
    }
  };
  const on: WidgetHandle['on'] = (type, listener) => {
    const set = listeners.get(type) ?? new Set();
    listeners.set(type, set);
    set.add(listener as (detail: never) => void);
    return () => set.delete(listener as (detail: never) => void);
  };
  return { emit, on, clear: () => listeners.clear() };
}

interface VisitorDeps {
  config: WidgetConfig;
  model: WidgetModel;
  chat: LazyChat;
  /** Where the chat keeps an anonymous visitor's conversation. */
  store: KeyValueStore;
}

/** The handle's `identify` and `reset`: who the visitor is, and forgetting them (see `WidgetHandle`). */
function createVisitorActions({ config, model, chat, store }: VisitorDeps): Pick<WidgetHandle, 'identify' | 'reset'> {
  return {
    identify: (given) => {
      const user = parseIdentity(given);
      if (!user)
        console.error(`[askbox] identify() takes { id, hash }, which ${IDENTITY_RULE}; the visitor is anonymous`);
      // The chat is the person's: another person (or none) gets a new one, created as the panel is next wanted.
      if (!sameIdentity(user, model.user))
        chat.reset(() => {
          model.user = user;
        });
    },
    reset: () =>
      chat.reset(() => {
        // The conversation, the list of earlier ones and the ratings: the next visitor on this device sees none.
        for (const kind of VISITOR_KEYS) store.remove(storageKey(kind, config));
        model.forget();
        model.user = undefined;
      }),
  };
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
  const model = createWidgetModel(config, deps.tabStorage ?? areaStore('sessionStorage'), () =>
    mayRemember(document.referrer, location.origin, performance.navigation?.type),
  );
  const { emit, on, clear } = createEvents();
  const store = deps.storage ?? areaStore('localStorage');
  const source = createChatSource({ config, deps, model, emit, storage: store });
  const chat = createLazyChat({ config, model, source, emit });
  const handle: WidgetHandle = {
    open: () => chat.open(true),
    // An inline panel is part of the page: it does not close.
    close: () => {
      if (!inline) chat.close();
    },
    toggle: () => {
      if (inline) return;
      if (model.panel === 'closed') chat.open(true);
      else chat.close();
    },
    send: async (text) => {
      if (typeof text !== 'string') return void console.error('[askbox] send() takes the message text as a string');
      await chat.use(
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
      drawing?.paint();
    },
    on,
    ...createVisitorActions({ config, model, chat, store }),
    destroy: () => {
      stopRules?.();
      // Off the page for good: no later navigation, load or call brings it back.
      attached = true;
      drawing = undefined;
      chat.place(undefined);
      clear();
    },
  };
  /** Draws the widget in `doc`, kept in `target` or its place (see `drawWidget`), and puts the chat in it. */
  const draw = (doc: Document, target?: HTMLElement) => {
    const handlers = { ...handle, warm: chat.warm, close: chat.close };
    drawing = drawWidget({ doc, target, config, model, handlers });
    chat.place(drawing);
  };
  /** Opens the panel as it was: within the session the visitor's last choice wins over data-open. */
  const restore = () => {
    if (model.opensAtLoad()) chat.open(false);
  };
  /** The launcher and its frame, while on the page. */
  let drawing: Drawing | undefined;
  let stopRules: (() => void) | undefined;
  /** Whether `attach()` has run, or `destroy()` made it moot. */
  let attached = false;
  restore();
  return {
    handle,
    warm: chat.warm,
    attach: (target) => {
      if (attached) return;
      attached = true;
      const doc = target?.ownerDocument ?? document;
      stopRules = followPageRules(config, doc.defaultView ?? window, (allowed, navigated) => {
        if (!allowed) {
          drawing = undefined;
          return chat.place(undefined);
        }
        draw(doc, target);
        if (navigated) restore();
      });
    },
  };
}

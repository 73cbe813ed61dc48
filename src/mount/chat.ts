import { effect, signal, type Signal } from '@preact/signals';
import { h, render } from 'preact';
import { createChatClient, type ChatClient } from '../api/client.js';
import { localize, toChatText } from '../config/chat-text.js';
import { parseHandoff } from '../config/handoff.js';
import type { WidgetConfig } from '../config/schema.js';
import { ChatModel, type ChatModelInstance } from '../state/model.js';
import type { Addons } from '../render/rich.js';
import { createSanitizer } from '../render/sanitize.js';
import { createTimeFormat } from '../render/time.js';
import type { Emit } from '../state/events.js';
import type { PanelStore } from '../state/panel.js';
import type { KeyValueStore } from '../state/storage.js';
import css from '../styles/panel.css?inline';
import conversationsCss from '../styles/conversations.css?inline';
import { App } from '../ui/App.js';
import { Widget, type WidgetContext } from '../ui/context.js';
import { copyText } from './clipboard.js';
import { downloadText } from './download.js';
import type { Launcher } from './launcher.js';
import { createPhoneFit } from './phone.js';

const CONNECTION = ['online', 'offline'];

/** Keeps `online` in step with `view`'s connection (`navigator.onLine`, its events); returns the stop function. */
function followConnection(view: Window | null, online: Signal<boolean>): () => void {
  const onConnection = () => {
    online.value = view?.navigator.onLine !== false;
  };
  onConnection();
  for (const type of CONNECTION) view?.addEventListener(type, onConnection);
  return () => {
    for (const type of CONNECTION) view?.removeEventListener(type, onConnection);
  };
}

/**
 * Sends a thumbs-down still waiting for its comment as the visitor leaves the page (`pagehide`, also on going into the
 * back/forward cache), with `keepalive`, so that it is not lost with the page; returns the stop function.
 */
function flushOnLeave(view: Window | null, model: ChatModelInstance): () => void {
  const leave = () => model.feedback.flush();
  view?.addEventListener('pagehide', leave);
  return () => view?.removeEventListener('pagehide', leave);
}

/** What the chat follows in the panel's window: the connection, and the visitor leaving; returns the stop function. */
function watchWindow(view: Window | null, { online, model }: { online: Signal<boolean>; model: ChatModelInstance }) {
  const stops = [followConnection(view, online), flushOnLeave(view, model)];
  return () => {
    for (const stop of stops) stop();
  };
}

interface WidgetContextDeps {
  model: ChatModelInstance;
  config: WidgetConfig;
  /** Where the panel is drawn: the clipboard and downloads work from there. */
  slot: HTMLElement;
  addons: Addons | undefined;
}

/** What every component of the widget shares (ui/context.ts). */
function createWidgetContext({ model, config, slot, addons }: WidgetContextDeps): WidgetContext {
  return {
    model,
    config,
    sanitize: createSanitizer(window, config.text),
    addons,
    copy: (text: string) => copyText(slot, text),
    formatTime: createTimeFormat(config.locale),
    chatText: toChatText(config.pack, config.input),
    handoff: parseHandoff(config.input),
    download: (name: string, text: string) => downloadText(slot, name, text),
  };
}

/** Adds the add-ons' stylesheet (the code's token colours) next to the panel's when they arrive; returns the stop. */
function followAddonStyles(addons: Addons | undefined, addStyles: (css: string) => void): () => void {
  return effect(() => {
    const sheet = addons?.css.value;
    if (sheet) addStyles(sheet);
  });
}

/** `createChat`'s type: what the chat file hands to the launcher. */
export type CreateChat = typeof createChat;

/** Replacements for the network the chat uses by default (tests pass fakes), and what it may load later. */
export interface ChatDeps {
  client?: ChatClient;
  /** The highlighter and math add-ons next to the chat file (embed-chat.ts); without, code and math stay plain. */
  addons?: Addons | undefined;
}

/** What the launcher gives the chat it creates: where it keeps the conversation, and the panel's open state. */
export interface ChatHome extends ChatDeps {
  storage: KeyValueStore;
  panel: PanelStore;
}

/** The loaded chat: everything behind the launcher, evaluated on the visitor's first sign of interest. */
export interface Chat {
  model: ChatModelInstance;
  /**
   * Renders the panel into the launcher's slot and keeps the launcher in step with it; once. `addStyles` installs
   * the panel's stylesheet next to the launcher's (passed in, so that the bundle's lazy half need not carry it).
   */
  show(launcher: Launcher, addStyles: (css: string) => void, opener?: Element | null): void;
  destroy(): void;
}

/**
 * Creates the chat behind the launcher. For the script tag this module, with Preact, signals, DOMPurify, the markdown
 * parser and the panel's stylesheet, is the chat file (src/embed-chat.ts), which the launcher loads on the visitor's
 * first sign of interest; the ESM build imports it.
 */
export function createChat(given: WidgetConfig, emit: Emit, home: ChatHome): Chat {
  // The UI strings, resolved now: the script tag's launcher holds only those it draws (see LAUNCHER_TEXT).
  const config = localize(given);
  // Set from the panel's window once shown; the model sends what the connection held back when it returns.
  const online = signal(true);
  const model = new ChatModel({
    client:
      home.client ??
      createChatClient({
        proxyUrl: config.proxyUrl,
        idleMs: config.streamTimeout * 1000,
        stream: config.stream,
        user: config.user,
      }),
    storage: home.storage,
    config,
    emit,
    online,
    panel: home.panel,
  });
  let hide: (() => void) | undefined;
  return {
    model,
    show(launcher, addStyles, openedFrom) {
      if (hide) return;
      addStyles(css + conversationsCss);
      const phone = createPhoneFit(launcher.root);
      // Where focus goes back to when the panel closes from inside: the launcher, or without one, whatever had
      // focus when the panel opened (e.g. the page's own "Chat with us" button that called Askbox.open()).
      let opener: Element | null = openedFrom ?? null;
      const stop = effect(() => {
        const open = model.isOpen.value;
        const active = launcher.root.ownerDocument.activeElement;
        // Focus inside the widget (the frame shown while the chat loaded), or nowhere, is not where it came from.
        const ours =
          active === (launcher.root.getRootNode() as ShadowRoot).host || active === active?.ownerDocument.body;
        if (open && active && !ours) opener = active;
        launcher.setOpen(open);
        // Inline, the panel is part of the page, on a phone too.
        phone.setOpen(open && config.mode === 'bubble');
      });
      const stopUnread = effect(() => {
        if (model.announcement.value) launcher.addUnread();
      });
      const stopAddonStyles = followAddonStyles(home.addons, addStyles);
      const stopWatching = watchWindow(launcher.root.ownerDocument.defaultView, { online, model });
      // Closed from inside (Escape, the close button), focus goes back to the launcher or where it came from.
      const close = () => {
        model.close();
        (launcher.button.isConnected ? launcher.button : (opener as HTMLElement | null))?.focus();
      };
      // Escape closes the panel wherever focus is in the widget, the launcher included (the self-diagnosis overlay
      // keeps its own Escape to itself).
      const onEscape = (event: KeyboardEvent) => {
        if (event.key === 'Escape' && model.isOpen.value && config.mode === 'bubble') close();
      };
      launcher.root.addEventListener('keydown', onEscape);
      render(
        h(
          Widget.Provider,
          { value: createWidgetContext({ model, config, slot: launcher.slot, addons: home.addons }) },
          h(App, { close }),
        ),
        launcher.slot,
      );
      hide = () => {
        stopWatching();
        stopAddonStyles();
        launcher.root.removeEventListener('keydown', onEscape);
        stop();
        stopUnread();
        phone.stop();
        render(null, launcher.slot);
      };
    },
    destroy() {
      hide?.();
      model[Symbol.dispose]();
    },
  };
}

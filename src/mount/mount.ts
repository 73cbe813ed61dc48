import { computed, signal } from '@preact/signals';
import { h, render } from 'preact';
import { createChatClient } from '../api/client.js';
import { ChatError } from '../api/errors.js';
import { parseConfig } from '../config/parse.js';
import { THEMES, type Theme, type WidgetConfig } from '../config/schema.js';
import { ChatModel } from '../state/chat-model.js';
import type { WidgetEvents } from '../state/events.js';
import { createStorage } from '../state/storage.js';
import css from '../styles/widget.css?inline';
import { toThemeCss } from '../styles/theme.js';
import { App } from '../ui/App.js';
import { Widget } from '../ui/context.js';
import { createShadowHost } from './shadow-host.js';

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
  /** Aborts any reply in flight, disposes the state and removes the widget from the page. */
  destroy(): void;
}

/** Raw options for `mount()`: the same keys as `WidgetConfig`, as values or `data-*`-style strings. */
export type MountOptions = Partial<Record<keyof WidgetConfig, unknown>>;

/** A widget whose state and handle exist before it has a place on the page. */
export interface StartedWidget {
  handle: WidgetHandle;
  /** Renders the widget into `target`, once; throws when the page will not take it (e.g. no shadow DOM). */
  attach(target: HTMLElement): void;
}

/**
 * Mounts a widget into `target` (default: `document.body`) and returns its handle.
 * Throws one `ChatError('config')` listing every problem when the options are invalid, and warns once in the
 * console about keys it does not know.
 *
 * @example
 * const chat = mount({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox', title: 'Help', text: { send: 'Senden' } });
 * chat.on('reply', ({ message }) => console.log(message.text));
 */
export function mount(options: MountOptions, target: HTMLElement = document.body): WidgetHandle {
  const parsed = parseConfig(options);
  if (parsed.issues) {
    throw new ChatError(
      'config',
      `Invalid Askbox config: ${parsed.issues.map((i) => `${i.key} ${i.message}`).join('; ')}`,
    );
  }
  if (parsed.unknown.length > 0) console.warn(`[askbox] mount() ignored unknown options: ${parsed.unknown.join(', ')}`);
  const widget = startWidget(parsed.config);
  try {
    widget.attach(target);
  } catch (error) {
    widget.handle.destroy();
    throw error;
  }
  return widget.handle;
}

/**
 * Starts a widget for a parsed config: its model and handle at once (so a page can call it straight away), its
 * DOM when `attach` is given a place. The script tag uses this to answer calls made before `<body>` exists.
 */
export function startWidget(config: WidgetConfig): StartedWidget {
  const listeners = new Map<keyof WidgetEvents, Set<(detail: never) => void>>();
  const model = new ChatModel({
    client: createChatClient({ proxyUrl: config.proxyUrl }),
    storage: createStorage(() => window.localStorage, 'askbox:v1:'),
    config,
    emit: (type, detail) => {
      for (const listener of listeners.get(type) ?? []) {
        try {
          (listener as (d: typeof detail) => void)(detail);
        } catch (error) {
          // A listener of the host page must not break the widget.
          console.error('[askbox] an event listener threw', error);
        }
      }
    },
  });
  const theme = signal<Theme>(config.theme);
  const system = followSystemScheme();
  // `auto` is resolved here, so the stylesheet writes its dark values once, for one class.
  const scheme = computed(() => (theme.value === 'auto' ? system.scheme.value : theme.value));
  let shadow: ReturnType<typeof createShadowHost> | undefined;
  let destroyed = false;
  if (config.open) model.open();

  const handle: WidgetHandle = {
    open: () => model.open(),
    close: () => model.close(),
    toggle: () => (model.isOpen.value ? model.close() : model.open()),
    send: async (text) => {
      if (typeof text !== 'string') return void console.error('[askbox] send() takes the message text as a string');
      model.open();
      await model.send(text);
    },
    setTheme: (next) => {
      if (!THEMES.includes(next)) return void console.error(`[askbox] setTheme() takes one of ${THEMES.join(', ')}`);
      theme.value = next;
    },
    on: (type, listener) => {
      const set = listeners.get(type) ?? new Set();
      listeners.set(type, set);
      set.add(listener as (detail: never) => void);
      return () => set.delete(listener as (detail: never) => void);
    },
    destroy: () => {
      if (destroyed) return;
      destroyed = true;
      if (shadow) render(null, shadow.container);
      model[Symbol.dispose]();
      system.stop();
      listeners.clear();
      shadow?.destroy();
    },
  };
  return {
    handle,
    attach: (target) => {
      if (destroyed || shadow) return;
      shadow = createShadowHost(target, { css: css + toThemeCss(config), nonce: config.styleNonce });
      render(h(Widget.Provider, { value: { model, config, scheme } }, h(App, {})), shadow.container);
    },
  };
}

/**
 * The visitor's colour scheme, kept current while the widget lives. A page without matchMedia (or one that broke
 * it) reads as light.
 */
function followSystemScheme() {
  const scheme = signal<'light' | 'dark'>('light');
  let media: MediaQueryList | undefined;
  const update = () => {
    scheme.value = media?.matches ? 'dark' : 'light';
  };
  try {
    media = window.matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', update);
  } catch {
    media = undefined;
  }
  update();
  return { scheme, stop: () => media?.removeEventListener('change', update) };
}

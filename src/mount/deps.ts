import type { WidgetConfig } from '../config/schema.js';
import { createStorage, type KeyValueStore } from '../state/storage.js';
import type { ChatDeps, CreateChat } from './chat.js';
import type { ShowGreeting } from './greeting-bubble.js';

/**
 * The locale pack of a language not English, which the script tag's launcher loads with the chat: the chat resolves
 * its strings by name when it is created (`localize`, config/chat-text.ts).
 */
export type ChatStrings = Pick<WidgetConfig, 'pack'>;

/** Where the chat comes from, and replacements for the storage areas the widget uses by default (tests pass fakes). */
export interface WidgetDeps extends ChatDeps {
  /**
   * `createChat` itself (the ESM build imports it), or a promise of it (the script tag loads the chat file on first
   * interest; see mount/chat-loader.ts).
   */
  chat: () => CreateChat | Promise<CreateChat>;
  /**
   * The greeting's bubble: `showGreeting` itself (the ESM build), or a promise of it (the script tag loads the
   * greeting's file when a greeting is due; see mount/greeting.ts). None: no greeting is shown.
   */
  greeting?: () => ShowGreeting | Promise<ShowGreeting>;
  /** The locale pack of a language other than English, loaded with the chat (none: English, or the config's own). */
  strings?: () => Promise<ChatStrings | undefined>;
  /** Where the conversation is kept (default: localStorage). */
  storage?: KeyValueStore;
  /** Where the panel's open state is kept for the browser session (default: sessionStorage). */
  tabStorage?: KeyValueStore;
}

/** A namespaced store over one of the page's storage areas, touched only when read or written. */
export const areaStore = (area: 'localStorage' | 'sessionStorage'): KeyValueStore =>
  createStorage(() => window[area], 'askbox:v1:');

import type { WidgetConfig } from '../config/schema.js';
import type { ChatStrings } from './deps.js';
import { make } from './dom.js';
import type { ShowGreeting } from './greeting-bubble.js';
import type { Launcher } from './launcher.js';
import { followPageRules } from './page-rules.js';
import type { WidgetModel } from './widget-model.js';

/** What the greeting is scheduled with: see `scheduleGreeting`. */
export interface GreetingDeps {
  config: WidgetConfig;
  model: WidgetModel;
  launcher: Launcher;
  /** Opens the panel as the visitor's own open: focus moves into it. */
  open(): void;
  /** Adds a stylesheet to the widget's shadow root. */
  addSheet(sheet: string): void;
  /** The greeting's bubble: `showGreeting` itself (the ESM build), or the greeting's file, loaded when due. */
  load?: (() => ShowGreeting | Promise<ShowGreeting>) | undefined;
  /** The language's locale pack, for the close button's name; none: the config's (English, or the site's own). */
  strings?: (() => Promise<ChatStrings | undefined>) | undefined;
}

/**
 * The greeting (`data-greeting`): after `greetingDelay` seconds on a page its own page rules allow (the widget's
 * have let the widget on), a short bubble beside the closed launcher (mount/greeting-bubble.ts), unless the greeting
 * has had its turn this session (`WidgetModel.greeted`: dismissed, or the panel opened). Its live region is on the
 * page from the start, empty, so that screen readers read the words when they come. It sends nothing: the chat shows
 * the same words as the bot's first line of a new conversation (mount/chat.ts). The bubble and its stylesheet come
 * when due, with the language's pack (which the chat then reuses); a greeting that cannot load stays away (one console
 * error says why). Returns how to take it off the page.
 */
export function scheduleGreeting(deps: GreetingDeps): () => void {
  const { config, model, launcher, load } = deps;
  const view = launcher.root.ownerDocument.defaultView;
  if (!config.greeting || !load || !view || config.mode !== 'bubble' || !config.launcher) return () => undefined;
  // Empty, an inline element takes no room before the bubble's stylesheet hides it.
  const live = make(view.document, 'span', 'greeting__live');
  live.setAttribute('role', 'status');
  launcher.root.append(live);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let hide: (() => void) | undefined;
  const show = async () => {
    if (model.greeted()) return;
    const [draw, strings] = await Promise.all([load(), deps.strings?.()]);
    // Its turn may have passed while it loaded: the panel opened, or the widget left the page.
    if (stopped || model.panel !== 'closed') return;
    hide = draw({ ...deps, live, pack: strings?.pack ?? {} });
  };
  const rules = { showOn: config.greetingShowOn, hideOn: config.greetingHideOn };
  const stopRules = followPageRules(rules, view, (allowed) => {
    clearTimeout(timer);
    hide?.();
    // A file that failed to load has been named in the console by its loader.
    if (allowed) timer = setTimeout(() => void show().catch(() => undefined), config.greetingDelay * 1000);
  });
  return () => {
    stopped = true;
    clearTimeout(timer);
    stopRules?.();
    hide?.();
    live.remove();
  };
}

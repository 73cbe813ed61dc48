import { parsePack } from './config/locale.js';
import type { LocalePack, WidgetConfig } from './config/schema.js';
import { IDENTITY_RULE } from './config/identity.js';
import { parseLauncherConfig } from './config/parse.js';
import { attributeOf, describeUnknown } from './config/unknown.js';
import { defineElement, elementInput } from './mount/element.js';
import { chatLoadFailures, loadChat } from './mount/chat-loader.js';
import type { WidgetHandle } from './mount/handle.js';
import { createRegistry, type Registry } from './mount/registry.js';
import { pageLanguages, startWidget } from './mount/widget.js';

/**
 * The one global Askbox sets. It controls the page's first widget; `get(instance)` gives the others (by their
 * `data-instance`, else their bot id), and `version` names the script.
 */
export interface AskboxGlobal extends WidgetHandle {
  readonly version: string;
  get(instance: string): WidgetHandle | undefined;
}

declare global {
  interface Window {
    Askbox?: AskboxGlobal;
  }
}

// Read while this script runs: `document.currentScript` is null once any callback runs.
const current = document.currentScript;

/**
 * Our own <script> element. `currentScript` is null under loaders that inject and wrap scripts (Rocket Loader,
 * some tag managers), so fall back to the tag whose src names this file, then to any tag with our attributes.
 */
function findScript(): HTMLScriptElement | null {
  if (current instanceof HTMLScriptElement) return current;
  const scripts = [...document.querySelectorAll<HTMLScriptElement>('script[src]')];
  return (
    scripts.find((s) => /\/askbox(\.min)?\.js([?#]|$)/.test(s.src)) ??
    document.querySelector<HTMLScriptElement>('script[data-bot-id],script[data-proxy-url]')
  );
}

/**
 * Attributes that optimisers, consent managers and SPA routers put on script tags (`data-cfasync`, `data-cookieconsent`,
 * `data-no-optimize`, `data-turbo-track`, `data-astro-rerun`…): theirs, not typos of ours, so no warning.
 */
const FOREIGN =
  /^(cfasync|cookie|category|consent|no[A-Z]|pagespeed|turbo|astro|swup|wp|rocket|nitro|lazy|usercentrics)/;

/**
 * The tag's `data-*` attributes as config keys (`data-bot-id` → `botId`), every one of them, so that parseConfig
 * can name the unknown ones. The `nonce` attribute is hidden from getAttribute after parsing; the property keeps it.
 */
function readAttributes(script: HTMLScriptElement): Record<string, unknown> {
  const { nonce, ...input } = script.dataset;
  for (const key of Object.keys(input)) if (FOREIGN.test(key)) delete input[key];
  return { ...input, styleNonce: script.nonce || nonce || undefined };
}

/**
 * A locale pack: the UI strings of one language, fetched next to this script on the visitor's first sign of
 * interest, so that the script carries one language (English) and each page pays for at most one more.
 */
async function loadPack(url: URL): Promise<LocalePack> {
  const response = await fetch(url, { credentials: 'omit' });
  if (!response.ok) throw new Error(`${url.href} answered ${response.status}`);
  const pack = parsePack(await response.json());
  if (!pack) throw new Error(`${url.href} is not an Askbox locale pack`);
  return pack;
}

/**
 * The methods of `window.Askbox` that act on the first widget; the page may queue any of them before the script has
 * run (see README, "Calling Askbox before it loads").
 */
const METHODS = ['open', 'close', 'toggle', 'send', 'setTheme', 'on', 'identify', 'reset', 'destroy'] as const;

/**
 * The calls the loader snippet queued before the script ran: `window.Askbox = window.Askbox || { q: [] }` with stub
 * methods that push `[method, arguments]`. Anything else in its place yields nothing.
 */
function queuedCalls(stub: unknown): unknown[] {
  const queue = stub && typeof stub === 'object' && Object.hasOwn(stub, 'q') ? (stub as { q: unknown }).q : undefined;
  return Array.isArray(queue) ? queue : [];
}

/** Replays queued calls on the live widget, in order; a queued `on()` thus receives every later event. */
function replay(api: AskboxGlobal, calls: unknown[]) {
  for (const call of calls) {
    const [method, args] = Array.isArray(call) ? call : [];
    const known = METHODS.find((name) => name === method);
    if (!known || !args || typeof args !== 'object' || !('length' in args)) {
      console.error('[askbox] A queued call is not one of', METHODS.join(', '), call);
      continue;
    }
    try {
      (api[known] as (...values: unknown[]) => unknown)(...Array.from(args as ArrayLike<unknown>));
    } catch (error) {
      console.error(`[askbox] The queued ${known}() call failed:`, error);
    }
  }
}

/**
 * Loads the self-diagnosis overlay (`?askbox-debug=1`, or `data-debug`), dist/askbox-debug.js next to this script,
 * as a script carrying the page's nonce. The CSP violations seen from now on, and the chat file's failures to load,
 * are handed to it when it asks (`askbox:debug`), so it adds no global either. See README, "Self-diagnosis".
 */
function loadDebug(base: string, nonce = '') {
  const seen: Event[] = [];
  document.addEventListener('securitypolicyviolation', (event) => seen.push(event));
  document.addEventListener('askbox:debug', (event) =>
    Object.assign((event as CustomEvent<object>).detail, { seen, failures: chatLoadFailures }),
  );
  const tag = document.createElement('script');
  tag.src = new URL('askbox-debug.js', base).href;
  tag.nonce = nonce;
  tag.addEventListener('error', () => console.error(`[askbox] The self-diagnosis could not be loaded from ${tag.src}`));
  document.head.append(tag);
}

/**
 * The event with which a copy of this script hands its tag to a copy already running widgets (so that there is one
 * registry and one global): `detail.tag` is the tag, and the running copy sets `detail.taken`.
 */
const TAG_EVENT = 'askbox:tag';

/**
 * Where a widget's raw settings come from: `what` names the source in console messages, `prefix` is the one its
 * attributes carry (`data-` on the script tag, none on `<askbox-chat>`), and `target` is the element it is placed in.
 */
interface SettingsSource {
  input: Record<string, unknown>;
  what: string;
  prefix: string;
  target?: HTMLElement;
}

/**
 * The config a source's settings make, or nothing when they do not make one: each issue is named, with the
 * attribute it comes from, in one console error. Unknown attributes are named as written, each with the attribute
 * it is likely a typo of, in one warning, and do not stop it.
 */
function readSettings(source: SettingsSource, languages: Iterable<string>): WidgetConfig | undefined {
  const { input, what, prefix, target } = source;
  const parsed = parseLauncherConfig(input, { languages, inlineTarget: Boolean(target) });
  const named = (key: string) => attributeOf(key, prefix);
  if (parsed.issues) {
    const lines = parsed.issues.map((issue) => `\n  - ${named(issue.key)} ${issue.message}`);
    console.error(`[askbox] The chat widget was not loaded because its ${what} is misconfigured:${lines.join('')}`);
  }
  // Named whatever else is wrong: a typo (`data-botid`) is often the cause of an issue (`data-bot-id` missing).
  else if (parsed.userRefused)
    console.error(
      `[askbox] The ${what}'s ${named('userId')} and ${named('userHash')} ${IDENTITY_RULE}; the visitor is anonymous`,
    );
  if (parsed.unknown.length > 0)
    console.warn(`[askbox] The ${what} has attributes Askbox does not know: ${describeUnknown(parsed, named)}`);
  return parsed.config && { ...parsed.config, attributePrefix: prefix };
}

/** Whether the config's `target` is a selector the page can use (one console error when not); an element needs none. */
function hasUsableTarget(config: WidgetConfig, source: SettingsSource): boolean {
  try {
    if (config.target && !source.target) document.querySelector(config.target);
    return true;
  } catch {
    console.error(`[askbox] The ${source.what}'s ${source.prefix}target "${config.target}" is not a CSS selector`);
    return false;
  }
}

/**
 * How the chat gets its UI strings: nothing to fetch in English; in another language its pack, fetched from `base`
 * with the chat, which reads its strings by name when created. A pack that fails to load leaves the chat in English.
 */
function localeStrings(config: WidgetConfig, base: string) {
  if (config.language === 'en') return undefined;
  const warn = (error: unknown) =>
    void console.warn(
      `[askbox] The ${config.language} UI strings could not be loaded, so the chat speaks English:`,
      error,
    );
  return () => loadPack(new URL(`askbox-locales/${config.language}.json`, base)).then((pack) => ({ pack }), warn);
}

/**
 * `window.Askbox`: the version, `get(instance)`, and the METHODS acting on the registry's first widget. A handle kept
 * past the last widget's destroy() does nothing, rather than throw into the page.
 */
function createGlobal(registry: Registry): AskboxGlobal {
  const api: Record<string, unknown> = { version: __ASKBOX_VERSION__, get: registry.get };
  for (const method of METHODS)
    api[method] = (...args: unknown[]) =>
      (registry.first()?.[method] as ((...values: unknown[]) => unknown) | undefined)?.(...args);
  return Object.freeze(api) as unknown as AskboxGlobal;
}

/**
 * Boots the widgets: this script's tag, every tag a later copy of the script hands over, and every `<askbox-chat>`
 * element. Never throws into the host page: every failure is one console error.
 * - A copy that finds another copy running widgets hands its tag over and does nothing more.
 * - A tag or element with the identity of a live widget (bot, proxy, `data-instance`) joins it: one widget.
 * - A tag without any `data-*` setting mounts nothing: it loads Askbox for `<askbox-chat>` elements.
 * - `window.Askbox` exists while a widget does. When the first one starts, it replaces the loader snippet's stand-in
 *   and the calls queued there are replayed on it.
 */
function boot() {
  const script = findScript();
  const handover = { tag: script, taken: false };
  document.dispatchEvent(new CustomEvent(TAG_EVENT, { detail: handover }));
  if (handover.taken) return;
  const booted = new WeakSet<HTMLScriptElement>();
  let debugging = false;
  const onTag = (event: Event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    if (detail && typeof detail === 'object' && 'tag' in detail && detail.tag instanceof HTMLScriptElement) {
      bootTag(detail.tag);
      (detail as typeof handover).taken = true;
    }
  };
  const registry = createRegistry(() => {
    document.removeEventListener(TAG_EVENT, onTag);
    if (window.Askbox === askbox) delete window.Askbox;
  });
  const askbox = createGlobal(registry);
  const languages = pageLanguages(document);
  // The chat file, the locale packs and the self-diagnosis are fetched from next to this script.
  const base = script?.src || document.baseURI;

  /**
   * Starts a widget from raw settings, placed in the source's target (an `<askbox-chat>`) or where its mode says.
   * Returns how to destroy it; nothing when it did not start (one console error says why) or joined a live widget.
   */
  function start(source: SettingsSource) {
    const config = readSettings(source, languages);
    if (!config || registry.find(config) || !hasUsableTarget(config, source)) return;
    const chat = () => loadChat(new URL(__ASKBOX_CHAT_FILE__, base).href, __ASKBOX_CHAT_INTEGRITY__, config.styleNonce);
    const { handle, attach } = startWidget(config, { chat, strings: localeStrings(config, base) });
    try {
      attach(source.target);
    } catch (error) {
      handle.destroy();
      return void console.error('[askbox] The chat widget could not start:', error);
    }
    const { destroy } = registry.add(config, handle);
    if (!debugging && (config.debug || /\baskbox-debug=1\b/.test(location.search))) {
      debugging = true;
      loadDebug(base, config.styleNonce);
    }
    const stub: unknown = window.Askbox;
    // The first widget brings the global, unless another copy of the script (an older one…) has its own there.
    if (stub !== askbox && !(stub && typeof stub === 'object' && 'version' in stub)) {
      window.Askbox = askbox;
      document.addEventListener(TAG_EVENT, onTag);
      replay(askbox, queuedCalls(stub));
    }
    return destroy;
  }

  function bootTag(tag: HTMLScriptElement) {
    if (booted.has(tag)) return;
    booted.add(tag);
    const input = readAttributes(tag);
    if (Object.keys(input).some((key) => key !== 'styleNonce')) start({ input, what: '<script> tag', prefix: 'data-' });
  }

  if (script) bootTag(script);
  defineElement((element) =>
    start({
      input: { styleNonce: script?.nonce || undefined, ...elementInput(element) },
      what: '<askbox-chat> element',
      prefix: '',
      target: element,
    }),
  );
}

try {
  boot();
} catch (error) {
  console.error('[askbox] The chat widget could not start:', error);
}

import { parsePack } from './config/locale.js';
import { parseConfig, type ConfigIssue } from './config/parse.js';
import type { WidgetHandle } from './mount/handle.js';
import { pageLanguages, startWidget } from './mount/widget.js';

/** The one global Askbox sets: the widget's handle, and the script's version. */
export interface AskboxGlobal extends WidgetHandle {
  readonly version: string;
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
  const scripts = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]'));
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

/** The attribute a config key comes from: `botId` → `data-bot-id`, `text.sendd` → `data-text` key `sendd`. */
function attributeOf(key: string): string {
  const [name = key, ...rest] = key.split('.');
  const attribute = `data-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  return rest.length > 0 ? `${attribute} key "${rest.join('.')}"` : attribute;
}

function describe(issues: ConfigIssue[]): string {
  const lines = issues.map((issue) => `  - ${attributeOf(issue.key)} ${issue.message}`);
  return `[askbox] The chat widget was not loaded because its <script> tag is misconfigured:\n${lines.join('\n')}`;
}

/**
 * A locale pack: the UI strings of one language, fetched next to this script on the visitor's first sign of
 * interest, so that the script carries one language (English) and each page pays for at most one more.
 */
async function loadPack(url: URL): Promise<string> {
  const response = await fetch(url, { credentials: 'omit' });
  if (!response.ok) throw new Error(`${url.href} answered ${response.status}`);
  const lines = parsePack(await response.json());
  if (!lines) throw new Error(`${url.href} is not an Askbox locale pack`);
  return lines.join('\n');
}

/** The methods the page may queue before the script has run (see README, "Calling Askbox before it loads"). */
const QUEUEABLE = ['open', 'close', 'toggle', 'send', 'setTheme', 'on'] as const;

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
    const known = QUEUEABLE.find((name) => name === method);
    if (!known || !args || typeof args !== 'object' || !('length' in args)) {
      console.error('[askbox] A queued call is not one of', QUEUEABLE.join(', '), call);
      continue;
    }
    try {
      (api[known] as (...values: unknown[]) => unknown)(...Array.from(args as ArrayLike<unknown>));
    } catch (error) {
      console.error(`[askbox] The queued ${known}() call failed:`, error);
    }
  }
}

function whenBodyReady(fn: () => void) {
  if (document.body) fn();
  else document.addEventListener('DOMContentLoaded', fn, { once: true });
}

/**
 * Boots the widget from the script tag. Never throws into the host page: every failure is one console error.
 * A second copy of the script finds `window.Askbox` and does nothing; the loader snippet's stand-in is replaced, and
 * the calls it queued are replayed.
 */
function boot() {
  const existing: unknown = window.Askbox;
  if (existing && typeof existing === 'object' && 'version' in existing) return;
  const script = findScript();
  const input = script ? readAttributes(script) : {};
  const languages = pageLanguages(document);
  const parsed = parseConfig(input, { languages });
  if (parsed.issues) {
    console.error(describe(parsed.issues));
    return;
  }
  if (parsed.unknown.length > 0) {
    console.warn(
      `[askbox] The <script> tag has attributes Askbox does not know: ${parsed.unknown.map(attributeOf).join(', ')}`,
    );
  }
  const { config } = parsed;
  const complete =
    config.language === 'en'
      ? undefined
      : () =>
          loadPack(new URL(`askbox-locales/${config.language}.json`, script?.src || document.baseURI))
            .then((table) => parseConfig(input, { languages, tables: { [config.language]: table } }).config ?? config)
            .catch((error: unknown) => {
              console.warn(
                `[askbox] The ${config.language} UI strings could not be loaded, so the chat speaks English:`,
                error,
              );
              return config;
            });
  const { handle, attach } = startWidget(config, {}, complete);
  const api: AskboxGlobal = Object.freeze({
    ...handle,
    version: __ASKBOX_VERSION__,
    destroy: () => {
      handle.destroy();
      if (window.Askbox === api) delete window.Askbox;
    },
  });
  window.Askbox = api;
  replay(api, queuedCalls(existing));
  // The widget answers calls at once; it appears once <body> exists (a tag in <head> without defer runs before).
  whenBodyReady(() => {
    try {
      attach(document.body);
    } catch (error) {
      api.destroy();
      console.error('[askbox] The chat widget could not start:', error);
    }
  });
}

try {
  boot();
} catch (error) {
  console.error('[askbox] The chat widget could not start:', error);
}

import { parseConfig, type ConfigIssue } from './config/parse';
import type { WidgetConfig } from './config/schema';
import { mount, type WidgetHandle } from './mount/mount';

/** The one global Askbox sets: a small facade over the mounted widget. */
export interface AskboxGlobal extends Omit<WidgetHandle, 'send'> {
  readonly version: string;
  send(text: string): Promise<void>;
}

declare global {
  interface Window {
    Askbox?: AskboxGlobal;
  }
}

const ATTRIBUTES: Partial<Record<keyof WidgetConfig, string>> = {
  botId: 'data-bot-id',
  proxyUrl: 'data-proxy-url',
  title: 'data-title',
  welcome: 'data-welcome',
  placeholder: 'data-placeholder',
  position: 'data-position',
  open: 'data-open',
  accent: 'data-accent',
  theme: 'data-theme',
  documentIds: 'data-document-ids',
  conversationName: 'data-conversation-name',
};

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

function readAttributes(script: HTMLScriptElement): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, attribute] of Object.entries(ATTRIBUTES)) {
    const value = script.getAttribute(attribute);
    if (value !== null) input[key] = value;
  }
  // The `nonce` attribute is hidden from getAttribute after parsing; the property keeps it.
  input.styleNonce = script.nonce || script.getAttribute('data-nonce') || undefined;
  return input;
}

function describe(issues: ConfigIssue[]): string {
  const lines = issues.map((issue) => `  - ${ATTRIBUTES[issue.key] ?? issue.key} ${issue.message}`);
  return `[askbox] The chat widget was not loaded because its <script> tag is misconfigured:\n${lines.join('\n')}`;
}

function whenBodyReady(fn: () => void) {
  if (document.body) fn();
  else document.addEventListener('DOMContentLoaded', fn, { once: true });
}

/**
 * Boots the widget from the script tag. Never throws into the host page: every failure is one console error.
 * A second copy of the script finds `window.Askbox` and does nothing.
 */
function boot() {
  if (window.Askbox) return;
  const script = findScript();
  const parsed = parseConfig(script ? readAttributes(script) : {});
  if (parsed.issues) {
    console.error(describe(parsed.issues));
    return;
  }
  let handle: WidgetHandle | undefined;
  // Calls made before <body> exists (a tag in <head> without defer) wait for the mount.
  const queue: Array<(h: WidgetHandle) => void> = [];
  const call = (fn: (h: WidgetHandle) => void) => (handle ? fn(handle) : void queue.push(fn));
  const api: AskboxGlobal = {
    version: __ASKBOX_VERSION__,
    open: () => call((h) => h.open()),
    close: () => call((h) => h.close()),
    toggle: () => call((h) => h.toggle()),
    send: (text: string) => new Promise<void>((resolve) => call((h) => void h.send(text).then(resolve, resolve))),
    setTheme: (theme: Parameters<WidgetHandle['setTheme']>[0]) => call((h) => h.setTheme(theme)),
    on: (type, listener) => {
      let off: (() => void) | undefined;
      call((h) => {
        off = h.on(type, listener);
      });
      return () => off?.();
    },
    destroy: () => {
      call((h) => h.destroy());
      if (window.Askbox === api) delete window.Askbox;
    },
  };
  window.Askbox = Object.freeze(api);
  whenBodyReady(() => {
    try {
      handle = mount(parsed.config);
      for (const fn of queue.splice(0)) fn(handle);
    } catch (error) {
      if (window.Askbox === api) delete window.Askbox;
      console.error('[askbox] The chat widget could not start:', error);
    }
  });
}

try {
  boot();
} catch (error) {
  console.error('[askbox] The chat widget could not start:', error);
}

import { proxyEndpoint } from '../api/endpoint.js';
import { addStyles } from '../mount/shadow-host.js';
import { CHAT_FAILED } from '../mount/chat-loader.js';
import {
  checkChatFile,
  checkCsp,
  checkOverlap,
  checkProxy,
  checkStorage,
  checkTags,
  overlaps,
  type Check,
  type HealthResult,
} from './checks.js';

/**
 * The self-diagnosis overlay, dist/askbox-debug.js: loaded by askbox.js only with `?askbox-debug=1` or `data-debug`
 * (see `loadDebug` in src/embed.ts), from next to itself. It reads the page (the widgets' tags and elements, their
 * hosts, the storage areas, fixed elements), asks each proxy's health route, and shows what it found in the first
 * widget's shadow root. It adds no global: askbox.js hands over the CSP violations it has seen through an event.
 */

/**
 * What askbox.js fills in when the overlay asks (`askbox:debug` on document): the CSP violations it has seen, and the
 * chat file's failures to load (a live list: askbox.js adds to it and dispatches `askbox:chat-failed`).
 */
interface Handover {
  seen?: SecurityPolicyViolationEvent[];
  failures?: readonly string[];
}

const violation = (event: SecurityPolicyViolationEvent) =>
  `${event.effectiveDirective} ${event.blockedURI || 'inline'}`;

const ASK = 'askbox:debug';

/** Every widget's settings on the page: the script tags' `data-*` and the `<askbox-chat>` elements' attributes. */
function widgetSettings(): Array<Record<string, string | undefined>> {
  const tags = [...document.querySelectorAll<HTMLScriptElement>('script[data-bot-id]')].map((tag) => ({
    ...tag.dataset,
  }));
  const elements = [...document.querySelectorAll('askbox-chat')].map((element) => ({
    botId: element.getAttribute('bot-id') ?? undefined,
    proxyUrl: element.getAttribute('proxy-url') ?? undefined,
    instance: element.getAttribute('instance') ?? undefined,
  }));
  return [...tags, ...elements];
}

async function health(proxyUrl: string, botId: string): Promise<HealthResult> {
  try {
    const url = proxyEndpoint(proxyUrl, `/health?bot_id=${encodeURIComponent(botId)}`);
    const response = await fetch(url, { credentials: 'omit' });
    return { status: response.status, body: await response.json().catch(() => undefined) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function blockedStorage(): string[] {
  return (['localStorage', 'sessionStorage'] as const).filter((area) => {
    try {
      window[area].setItem('askbox:debug', '1');
      window[area].removeItem('askbox:debug');
      return false;
    } catch {
      return true;
    }
  });
}

/** The page's fixed elements that overlap a launcher, named as a site owner finds them in the inspector. */
function coveringElements(hosts: readonly Element[]): string[] {
  const launchers = hosts.flatMap((host) => [...(host.shadowRoot?.querySelectorAll('.launcher') ?? [])]);
  const named = new Set<string>();
  for (const element of document.body.querySelectorAll('*')) {
    if (hosts.includes(element) || getComputedStyle(element).position !== 'fixed') continue;
    const box = element.getBoundingClientRect();
    if (launchers.some((launcher) => overlaps(box, launcher.getBoundingClientRect())))
      named.add(
        element.localName + (element.id ? `#${element.id}` : '') + [...element.classList].map((c) => `.${c}`).join(''),
      );
  }
  return [...named];
}

const MARKS: Record<Check['level'], string> = { ok: 'OK', warn: 'Warning', fail: 'Problem' };

const CSS = `.debug{position:fixed;inset-block-start:16px;inset-inline-start:16px;z-index:var(--_z);box-sizing:border-box;width:min(440px,calc(100vw - 32px));max-height:calc(100dvh - 32px);overflow:auto;padding:16px;background:var(--_surface);color:var(--_text);border:1px solid var(--_border);border-radius:12px;box-shadow:var(--_shadow);font:13px/1.5 system-ui,sans-serif}
.debug h2{margin:0 0 8px;font-size:15px}
.debug ul{margin:0 0 12px;padding:0;list-style:none}
.debug li{margin:0 0 6px;padding-inline-start:8px;border-inline-start:4px solid}
.debug__ok{border-color:#1a7f37!important}.debug__warn{border-color:#9a6700!important}.debug__fail{border-color:#cf222e!important}
.debug b{font-weight:700}
.debug button{font:inherit;padding:4px 12px;border:1px solid var(--_border);border-radius:6px;background:transparent;color:inherit;cursor:pointer}`;

/** Runs the checks and shows them in the first widget's shadow root; closes with its button or Escape. */
async function run(): Promise<void> {
  const handover: Handover = {};
  document.dispatchEvent(new CustomEvent(ASK, { detail: handover }));
  const violations = (handover.seen ?? []).map(violation);
  const hosts = [...document.querySelectorAll('askbox-widget')];
  const root = hosts[0]?.shadowRoot;
  const home = root?.querySelector('.askbox');
  if (!root || !home) {
    console.error('[askbox] Self-diagnosis: no Askbox widget on this page (see the console for its error).');
    return;
  }
  addStyles(root, CSS, document.querySelector<HTMLScriptElement>('script[src*="askbox-debug"]')?.nonce);
  const settings = widgetSettings();
  const targets = new Map(
    settings
      .filter((s) => s.botId && s.proxyUrl)
      .map((s) => [`${s.proxyUrl} ${s.botId}`, { proxyUrl: s.proxyUrl ?? '', botId: s.botId ?? '' }]),
  );
  const proxies = await Promise.all(
    [...targets.values()].map(async ({ proxyUrl, botId }) =>
      checkProxy({ proxyUrl, botId, origin: location.origin }, await health(proxyUrl, botId)),
    ),
  );
  const panel = document.createElement('section');
  panel.className = 'debug';
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-labelledby', 'askbox-debug-title');
  const render = () => {
    const checks: Check[] = [
      { level: 'ok', text: `Askbox ${__ASKBOX_VERSION__}.` },
      ...proxies.flat(),
      checkChatFile(handover.failures ?? []),
      checkCsp(violations),
      checkStorage(blockedStorage()),
      checkTags(settings),
      checkOverlap(coveringElements(hosts)),
    ];
    const title = document.createElement('h2');
    title.id = 'askbox-debug-title';
    title.textContent = 'Askbox self-diagnosis';
    const list = document.createElement('ul');
    for (const check of checks) {
      const item = document.createElement('li');
      item.className = `debug__${check.level}`;
      const mark = document.createElement('b');
      mark.textContent = `${MARKS[check.level]}: `;
      item.append(mark, check.text);
      list.append(item);
    }
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = 'Close';
    close.addEventListener('click', () => panel.remove());
    panel.replaceChildren(title, list, close);
  };
  render();
  // Escape closes the overlay only, not the chat panel around it as well.
  panel.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    panel.remove();
  });
  // Violations keep coming (a blocked request when the visitor chats): the report follows them.
  document.addEventListener('securitypolicyviolation', (event) => {
    violations.push(violation(event));
    if (panel.isConnected) render();
  });
  document.addEventListener(CHAT_FAILED, () => void (panel.isConnected && render()));
  home.append(panel);
  panel.querySelector('button')?.focus();
}

void run();

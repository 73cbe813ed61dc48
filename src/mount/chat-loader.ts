import type { CreateChat } from './chat.js';

/**
 * The event with which the chat file, while it runs, hands `createChat` to the launcher that loaded it: dispatched on
 * its own `<script>` element (else on the document), so that it adds no global.
 */
export const CHAT_EVENT = 'askbox:chat';

/** The same for the greeting's file, which hands over `showGreeting` (mount/greeting-bubble.ts). */
export const GREETING_EVENT = 'askbox:greeting';

/** Dispatched on document after a new failure to load the chat file, for the self-diagnosis overlay. */
export const CHAT_FAILED = 'askbox:chat-failed';

/** Every failed load so far, as its console message: the self-diagnosis overlay lists them. */
export const chatLoadFailures: string[] = [];

/** The loads under way or done, by URL: one request however many widgets ask, a new one after a failure (Retry). */
const loads = new Map<string, Promise<unknown>>();

/**
 * A script the launcher loads: its URL and Subresource Integrity, the event it hands its one export with, and what
 * it is in a failure's message ("chat", "greeting").
 */
interface PinnedScript {
  url: string;
  integrity: string;
  event: string;
  what: string;
}

/**
 * Loads a pinned script once per page, as a classic script pinned by `integrity` (`crossorigin="anonymous"`, so
 * that the browser checks it on a CDN too) and carrying the page's nonce, after Sentry's `lazyLoadIntegration`.
 * Resolves with what it hands over; rejects with an Error saying why (a 404, an integrity mismatch, the page's CSP,
 * the network), which is also logged once as a console error.
 */
export function loadScript<T>(script: PinnedScript, nonce = ''): Promise<T> {
  const { url, what } = script;
  let load = loads.get(url);
  if (!load) {
    load = inject(script, nonce).catch((error: unknown) => {
      loads.delete(url);
      // Whatever went wrong, the message names the file: `inject` rejects with the reason alone.
      const failure = new Error(
        `The ${what} could not be loaded from ${url}: ${error instanceof Error ? error.message : String(error)}`,
      );
      // One console error per distinct failure: a Retry that fails the same way says nothing new.
      if (!chatLoadFailures.includes(failure.message)) {
        chatLoadFailures.push(failure.message);
        console.error(`[askbox] ${failure.message}`);
        document.dispatchEvent(new Event(CHAT_FAILED));
      }
      throw failure;
    });
    loads.set(url, load);
  }
  return load as Promise<T>;
}

/** Loads the chat file (see `loadScript`): resolves with its `createChat`. */
export const loadChat = (url: string, integrity: string, nonce = ''): Promise<CreateChat> =>
  loadScript({ url, integrity, event: CHAT_EVENT, what: 'chat' }, nonce);

function inject({ url, integrity, event: handover, what }: PinnedScript, nonce: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let made: unknown;
    let blocked = false;
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (event.blockedURI === url) blocked = true;
    };
    document.addEventListener('securitypolicyviolation', onViolation);
    const tag = document.createElement('script');
    // The file hands its export to its own element, or to the document where `document.currentScript` is hidden
    // (Rocket Loader-style loaders): listened for on both while it loads.
    const take = (event: Event) => {
      made ??= (event as CustomEvent<unknown>).detail;
    };
    tag.addEventListener(handover, take);
    document.addEventListener(handover, take);
    const done = () => {
      document.removeEventListener('securitypolicyviolation', onViolation);
      document.removeEventListener(handover, take);
      tag.remove();
    };
    tag.addEventListener('load', () => {
      done();
      if (made) resolve(made);
      else reject(new Error(`it ran but is not the ${what} file of this version of askbox.js`));
    });
    tag.addEventListener('error', () => {
      void diagnose(url, integrity, () => blocked).then((reason) => {
        done();
        reject(new Error(reason));
      });
    });
    tag.src = url;
    tag.integrity = integrity;
    tag.crossOrigin = 'anonymous';
    if (nonce) tag.nonce = nonce;
    document.head.append(tag);
  });
}

/**
 * Why a script failed, which its `error` event does not say: a CSP violation for the URL, or the browser being
 * offline; else asked again with fetch, whose status tells a missing file, and whose success (the same bytes, or
 * CORS would have failed it too) leaves the integrity check: the file is not the one this askbox.js was built with.
 */
async function diagnose(url: string, integrity: string, blocked: () => boolean): Promise<string> {
  const csp = "the page's Content-Security-Policy blocked it (script-src)";
  if (!navigator.onLine) return 'the browser is offline';
  try {
    const response = await fetch(url, { credentials: 'omit', mode: 'cors' });
    if (blocked()) return csp;
    return response.ok
      ? `its integrity check failed: it is not the file this askbox.js was built with (${integrity})`
      : `the server answered ${response.status}`;
  } catch {
    return blocked() ? csp : 'the request failed (network error, or a CDN without CORS headers)';
  }
}

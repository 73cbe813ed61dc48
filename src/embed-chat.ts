import { unknownTextKeys } from './config/chat-text.js';
import { attributeOf, describeUnknown } from './config/unknown.js';
import { CHAT_EVENT } from './mount/chat-loader.js';
import { createAddons, scriptAddons } from './mount/addons.js';
import { createChat, type CreateChat } from './mount/chat.js';

/** The address of a chat file, as the build names it (dist/askbox-chat.<hash>.js). */
const CHAT_FILE = /\/askbox-chat\.[\w-]+\.js([?#]|$)/;

/**
 * Where this file was loaded from: its add-ons sit next to it. Under loaders that hide `document.currentScript`,
 * the `<script>` the launcher added for it, which stays in the document until this file has run.
 */
const base =
  (document.currentScript as HTMLScriptElement | null)?.src ??
  [...document.querySelectorAll<HTMLScriptElement>('script[src]')].find((script) => CHAT_FILE.test(script.src))?.src;

/**
 * `createChat` with the add-ons next to this file, after one warning naming the text keys (`data-text-*` attributes, `data-text` keys) that no UI
 * string has, as the site owner wrote them, each with the one it is likely a typo of: the launcher leaves them to this
 * file, which knows its own strings' keys.
 */
const create: CreateChat = (config, emit, home) => {
  const unknown = unknownTextKeys(config.input);
  const prefix = config.attributePrefix;
  const named = (key: string) => (prefix === undefined ? key : attributeOf(key, prefix));
  if (unknown.unknown.length > 0)
    console.warn(`[askbox] Askbox has no UI strings for these text keys: ${describeUnknown(unknown, named)}`);
  const addons = base
    ? createAddons(scriptAddons({ files: __ASKBOX_ADDONS__, base, nonce: config.styleNonce }))
    : undefined;
  return createChat(config, emit, { ...home, addons });
};

/**
 * The chat file's entry (dist/askbox-chat.<hash>.js): everything behind the launcher. askbox.js loads it on the
 * visitor's first sign of interest and pins it by its sha384; run, it hands `createChat` to the `<script>` element
 * that loaded it, or to the document under loaders that hide `document.currentScript` (see `loadChat` in
 * mount/chat-loader.ts), and defines nothing else.
 */
(document.currentScript ?? document).dispatchEvent(new CustomEvent(CHAT_EVENT, { detail: create }));

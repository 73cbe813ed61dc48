import { CHAT_EVENT } from './mount/chat-loader.js';
import { createChat } from './mount/chat.js';

/**
 * The chat file's entry (dist/askbox-chat.<hash>.js): everything behind the launcher. askbox.js loads it on the
 * visitor's first sign of interest and pins it by its sha384; run, it hands `createChat` to the `<script>` element
 * that loaded it, or to the document under loaders that hide `document.currentScript` (see `loadChat` in
 * mount/chat-loader.ts), and defines nothing else.
 */
(document.currentScript ?? document).dispatchEvent(new CustomEvent(CHAT_EVENT, { detail: createChat }));

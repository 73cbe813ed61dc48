import { GREETING_EVENT } from './mount/chat-loader.js';
import { showGreeting } from './mount/greeting-bubble.js';

/**
 * The greeting's entry (dist/askbox-greeting.<hash>.js): the bubble beside the closed launcher and its stylesheet.
 * askbox.js loads it, pinned by its sha384, only where `data-greeting` is set and only when the greeting is due
 * (mount/greeting.ts); run, it hands `showGreeting` to the `<script>` element that loaded it, or to the document
 * under loaders that hide `document.currentScript`, and defines nothing else.
 */
(document.currentScript ?? document).dispatchEvent(new CustomEvent(GREETING_EVENT, { detail: showGreeting }));

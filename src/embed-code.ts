import { CODE_ADDON } from './addons/code.js';
import { announceAddon } from './addons/event.js';

/**
 * The code add-on's entry (dist/askbox-code.<hash>.js): highlight.js with the common languages and its token
 * colours. The chat file loads it, pinned by its sha256, only when a reply holds a fenced code block.
 */
announceAddon(CODE_ADDON);

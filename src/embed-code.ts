import { announceAddon } from './addons/event.js';
import { highlight } from './addons/highlight.js';
import { highlightBlocks } from './render/rich.js';
import { CODE_ALLOWLIST } from './render/rich-allowlist.js';
import css from './styles/code.css?inline';

/**
 * The code add-on's entry (dist/askbox-code.<hash>.js): highlight.js with the common languages and its token colours. The chat file loads
 * it, pinned by its sha256, only when a reply holds a fenced code block.
 */
announceAddon({ kind: 'code', render: (html) => highlightBlocks(html, highlight), allowlist: CODE_ALLOWLIST, css });

import { highlightBlocks } from '../render/rich.js';
import { CODE_ALLOWLIST } from '../render/rich-allowlist.js';
import css from '../styles/code.css?inline';
import type { AddonDetail } from './event.js';
import { highlight } from './highlight.js';

/** The code add-on: highlight.js with the common languages, the allowlist of its output, and its token colours. */
export const CODE_ADDON: AddonDetail = {
  kind: 'code',
  render: (html) => highlightBlocks(html, highlight),
  allowlist: CODE_ALLOWLIST,
  css,
};

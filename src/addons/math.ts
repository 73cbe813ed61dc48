import { typesetMath } from '../render/rich.js';
import { MATH_ALLOWLIST } from '../render/rich-allowlist.js';
import type { AddonDetail } from './event.js';
import { typeset } from './typeset.js';

/** The math add-on: Temml, TeX to MathML, and the allowlist of its output. */
export const MATH_ADDON: AddonDetail = {
  kind: 'math',
  render: (html) => typesetMath(html, typeset),
  allowlist: MATH_ALLOWLIST,
};

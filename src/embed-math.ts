import { announceAddon } from './addons/event.js';
import { typeset } from './addons/typeset.js';
import { typesetMath } from './render/rich.js';
import { MATH_ALLOWLIST } from './render/rich-allowlist.js';

/**
 * The math add-on's entry (dist/askbox-math.<hash>.js): Temml, TeX to MathML. The chat file loads it, pinned by its
 * sha384, only when a reply holds `$…$` or `$$…$$` math.
 */
announceAddon({ kind: 'math', render: (html) => typesetMath(html, typeset), allowlist: MATH_ALLOWLIST });

import { announceAddon } from './addons/event.js';
import { MATH_ADDON } from './addons/math.js';

/**
 * The math add-on's entry (dist/askbox-math.<hash>.js): Temml, TeX to MathML. The chat file loads it, pinned by its
 * sha256, only when a reply holds `$…$` or `$$…$$` math.
 */
announceAddon(MATH_ADDON);

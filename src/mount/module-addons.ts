import type { AddonDetail } from '../addons/event.js';
import type { AddonKind } from '../render/rich.js';
import type { AddonLoader } from './addons.js';

/**
 * The add-ons as modules of the ESM build: the site's bundler splits each (with highlight.js or Temml) into a chunk
 * of its own, which the browser fetches only when a reply holds code or math, as the script tag's files are.
 */
const MODULES: Record<AddonKind, () => Promise<AddonDetail>> = {
  code: () => import('../addons/code.js').then((module) => module.CODE_ADDON),
  math: () => import('../addons/math.js').then((module) => module.MATH_ADDON),
};

/** Loads an add-on module; one that fails to load (a chunk gone after a deploy, offline) logs one warning. */
export const moduleAddons: AddonLoader = (kind) =>
  MODULES[kind]().catch((error: unknown) => {
    console.warn(`[askbox] Not loaded: the ${kind} add-on (${String(error)})`);
    return undefined;
  });

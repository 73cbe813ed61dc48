import { signal } from '@preact/signals';
import { ADDON_EVENT, type AddonDetail } from '../addons/event.js';
import type { AddonKind, Addons, LoadedRenderers } from '../render/rich.js';

/** An add-on file as the build pins it: its name next to the chat file, and its Subresource Integrity. */
interface AddonFile {
  file: string;
  integrity: string;
}

interface AddonsDeps {
  /** The add-on files, by kind (the build's `__ASKBOX_ADDONS__`). */
  files: Readonly<Record<AddonKind, AddonFile>>;
  /** The URL the files' names are relative to: the chat file's own. */
  base: string;
  /** The page's CSP nonce, for the `<script>` elements. */
  nonce?: string | undefined;
}

/**
 * The renderers loaded, and the kinds asked for, on this page: an add-on is pure (markup in, markup out), so one
 * load serves every widget on the page, and a failed one is not tried again.
 */
const ready = signal<LoadedRenderers>({});
const css = signal('');
const asked = new Set<AddonKind>();

/** An add-on file to load: which kind, its address and its Subresource Integrity. */
interface AddonScript {
  kind: AddonKind;
  url: string;
  integrity: string;
}

/**
 * Loads an add-on file as the launcher loads the chat file: a classic script pinned by `integrity`
 * (`crossorigin="anonymous"`) with the page's nonce, which hands its renderer to its own element, or to the document
 * under loaders that hide `document.currentScript` (there, two add-ons loading at once are told apart by kind).
 * Resolves with it, or with nothing, after one warning naming the file, when it did not run (blocked, integrity
 * mismatch, not found).
 */
function inject({ kind, url, integrity }: AddonScript, nonce = ''): Promise<AddonDetail | undefined> {
  return new Promise((resolve) => {
    const tag = document.createElement('script');
    let detail: AddonDetail | undefined;
    const take = (event: Event) => {
      const given = (event as CustomEvent<AddonDetail>).detail;
      if (given?.kind === kind) detail ??= given;
    };
    tag.addEventListener(ADDON_EVENT, take);
    document.addEventListener(ADDON_EVENT, take);
    const settle = () => {
      document.removeEventListener(ADDON_EVENT, take);
      tag.remove();
      if (!detail) console.warn(`[askbox] Not loaded: ${url}`);
      resolve(detail);
    };
    tag.addEventListener('load', settle);
    tag.addEventListener('error', settle);
    tag.src = url;
    tag.integrity = integrity;
    tag.crossOrigin = 'anonymous';
    // No nonce is an empty one.
    tag.nonce = nonce;
    document.head.append(tag);
  });
}

/** Loads an add-on: resolves with what it hands over, or with nothing when it did not load (after one warning). */
export type AddonLoader = (kind: AddonKind) => Promise<AddonDetail | undefined>;

/**
 * The add-on files next to the chat file, each loaded as a classic script pinned by its hash. A file that fails to
 * load logs one warning naming it.
 */
export function scriptAddons({ files, base, nonce }: AddonsDeps): AddonLoader {
  return (kind) => inject({ kind, url: new URL(files[kind].file, base).href, integrity: files[kind].integrity }, nonce);
}

/**
 * Creates a widget's add-ons, loaded by `load`. One that fails to load leaves replies as they are without it (plain
 * code, the TeX source); the widget works on.
 */
export function createAddons(load: AddonLoader): Addons {
  return {
    ready,
    css,
    need(kind) {
      if (asked.has(kind)) return;
      asked.add(kind);
      void load(kind).then((detail) => {
        if (!detail) return;
        css.value += detail.css ?? '';
        ready.value = { ...ready.value, [detail.kind]: detail };
      });
    },
  };
}

import type { AddonKind, Renderer } from '../render/rich.js';

/**
 * The event with which an add-on file, while it runs, hands its renderer to the chat that loaded it: dispatched on
 * its own `<script>` element (else on the document), as the chat file hands itself to the launcher, adding no global.
 */
export const ADDON_EVENT = 'askbox:addon';

/** An add-on event's detail. */
export interface AddonDetail extends Renderer {
  kind: AddonKind;
  /** The add-on's own stylesheet (the code add-on's token colours), for the widget's shadow root. */
  css?: string;
}

/** Hands `detail` to whoever loaded the running add-on file. */
export function announceAddon(detail: AddonDetail): void {
  (document.currentScript ?? document).dispatchEvent(new CustomEvent(ADDON_EVENT, { detail }));
}

/** The custom element's tag: `<askbox-chat bot-id="…" proxy-url="…" mode="inline">`. */
const ELEMENT_TAG = 'askbox-chat';

/** Attributes that are the element's own HTML (or a framework's), not the widget's config. */
const HTML_ATTRIBUTE = /^(id|class|style|hidden|slot|part|tabindex|role|aria-.*|data-.*|on.*)$/;

/** The element's config attributes as config keys: `bot-id="…"` → `{ botId: "…" }`, `text-send` → `textSend`. */
export function elementInput(element: Element): Record<string, string> {
  const input: Record<string, string> = {};
  for (const { name, value } of element.attributes)
    if (!HTML_ATTRIBUTE.test(name)) input[name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = value;
  return input;
}

/**
 * Defines `<askbox-chat>`, once per page: each element runs a widget, `start(element)`, for as long as it
 * is on the page, and `start` returns how to end it.
 * - Changing an attribute re-configures the widget: it is ended and started again with the new attributes (the
 *   conversation, kept in storage, continues), once for all the changes a script makes in one go.
 * - Removing the element ends its widget. Moving it (a framework re-parenting it) does not: the end waits a
 *   microtask and is called off if the element is back on the page.
 */
export function defineElement(start: (element: HTMLElement) => (() => void) | undefined): void {
  if (!window.customElements || customElements.get(ELEMENT_TAG)) return;
  class AskboxChat extends HTMLElement {
    #end: (() => void) | undefined;
    readonly #watch = new MutationObserver(() => {
      this.#stop();
      this.#run();
    });

    connectedCallback() {
      if (!this.#end) this.#run();
    }

    disconnectedCallback() {
      queueMicrotask(() => {
        if (!this.isConnected) this.#stop();
      });
    }

    #run() {
      this.#end = start(this) ?? (() => undefined);
      this.#watch.observe(this, { attributes: true });
    }

    #stop() {
      this.#watch.disconnect();
      this.#end?.();
      this.#end = undefined;
    }
  }
  customElements.define(ELEMENT_TAG, AskboxChat);
}

/**
 * An element of `doc` with its class: the launcher and the frame build their few elements by hand (no Preact before
 * the chat file), and one helper for it costs the launcher less than each building them in full.
 */
export function make<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  className: string,
): HTMLElementTagNameMap[K] {
  const element = doc.createElement(tag);
  element.className = className;
  return element;
}

/** A button of `doc` with its class, of type `button`: inside a page's form it would otherwise submit the form. */
export function makeButton(doc: Document, className: string): HTMLButtonElement {
  const button = make(doc, 'button', className);
  button.type = 'button';
  return button;
}

/** Where the host belongs: see `keepPlaced`. */
export interface Placement {
  /** The place: the page's `<body>` for the bubble, an inline mode's container. */
  find: () => Element | null | undefined;
  /** Whether the place can appear, or move, anywhere in the document (an inline container). */
  deep: boolean;
  /** Runs once if the place is still missing when the page has loaded. */
  onMissing: () => void;
}

/**
 * Keeps the widget's host element in its place on the page: `find()` names that place (the page's `<body>` for the
 * bubble, an inline mode's container), and the host is put (back) into it whenever it is not there.
 *
 * - Single-page apps swap `<body>` (Turbo, Astro view transitions) or its content (htmx boosted links). The host,
 *   with its shadow root, model and open panel, moves into the new one, so the conversation simply continues.
 * - An inline container that is not on the page yet (a CMS block rendered after the script) is waited for.
 *   `onMissing` runs once if it is still missing when the page has loaded; the wait goes on.
 *
 * A bubble watches only `<html>`'s and `<body>`'s own children, so the page's other changes cost it nothing; an
 * inline container can appear, or move, anywhere, so that watch spans the document. Returns the stop function.
 */
export function keepPlaced(host: HTMLElement, { find, deep, onMissing }: Placement): () => void {
  const doc = host.ownerDocument;
  const view = doc.defaultView;
  const observer = new MutationObserver(() => place());
  function place() {
    const target = find();
    if (target && host.parentNode !== target) target.append(host);
    // A new <body> is watched as the old one was; observing a node again only renews the options.
    if (!deep && doc.body) observer.observe(doc.body, { childList: true });
  }
  const check = () => {
    if (!host.isConnected) onMissing();
  };
  observer.observe(doc.documentElement, { childList: true, subtree: deep });
  place();
  if (doc.readyState === 'complete') check();
  else view?.addEventListener('load', check, { once: true });
  return () => {
    observer.disconnect();
    view?.removeEventListener('load', check);
  };
}

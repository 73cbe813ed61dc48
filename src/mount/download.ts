/** How long the download's `blob:` URL lives: the browser reads it when the click is handled, not at once. */
const URL_LIFETIME_MS = 10_000;

/**
 * Saves `text` as a file named `name` for the visitor: a `blob:` URL on a hidden `<a download>` placed in `near`
 * and clicked. A download link is no fetch, worker or frame, so a strict CSP (`default-src 'none'`) lets it through.
 */
export function downloadText(near: Element, name: string, text: string): void {
  const doc = near.ownerDocument;
  const view = doc.defaultView!;
  const url = view.URL.createObjectURL(new view.Blob([text], { type: 'text/markdown;charset=utf-8' }));
  const link = doc.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  near.append(link);
  link.click();
  link.remove();
  view.setTimeout(() => view.URL.revokeObjectURL(url), URL_LIFETIME_MS);
}

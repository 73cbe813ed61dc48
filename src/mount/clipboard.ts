/**
 * Copies `text` for the visitor: with the Clipboard API where the page allows it, else (a page served over http, an
 * iframe without the permission, an older browser) through a selected, read-only textarea placed in `near` and
 * `execCommand('copy')`. Focus returns to where it was. Resolves whether the text was copied.
 */
export async function copyText(near: Element, text: string): Promise<boolean> {
  const doc = near.ownerDocument;
  try {
    await doc.defaultView!.navigator.clipboard.writeText(text);
    return true;
  } catch {
    const root = near.getRootNode() as Document | ShadowRoot;
    const focused = root.activeElement;
    const area = doc.createElement('textarea');
    area.value = text;
    area.readOnly = true;
    area.className = 'sr-only';
    near.append(area);
    area.select();
    try {
      return doc.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
      if (focused instanceof HTMLElement) focused.focus();
    }
  }
}

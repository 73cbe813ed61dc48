import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADDON_EVENT, type AddonDetail } from '../../../src/addons/event';
import { scriptAddons } from '../../../src/mount/addons';
import { CODE_ALLOWLIST, MATH_ALLOWLIST } from '../../../src/render/rich-allowlist';

/**
 * The script tag's add-on files, loaded next to the chat file (Chromium runs them for real: test/e2e/code-math.spec.ts
 * and, under a hidden `document.currentScript`, test/e2e/embed.spec.ts). Here the browser's part is played by hand:
 * the `<script>` elements are caught as they are added, and their files' events and `load` dispatched in the order
 * a test needs.
 */
afterEach(() => {
  vi.restoreAllMocks();
});

const FILES = {
  code: { file: 'askbox-code.c0de.js', integrity: 'sha256-code' },
  math: { file: 'askbox-math.ma7h.js', integrity: 'sha256-math' },
};
const CODE: AddonDetail = { kind: 'code', render: (html) => html, allowlist: CODE_ALLOWLIST };
const MATH: AddonDetail = { kind: 'math', render: (html) => html, allowlist: MATH_ALLOWLIST };

/** A loader whose `<script>` elements are kept instead of added to the document. */
function loader(nonce?: string) {
  const added: HTMLScriptElement[] = [];
  vi.spyOn(document.head, 'append').mockImplementation((...nodes) => {
    added.push(...(nodes as HTMLScriptElement[]));
  });
  const load = scriptAddons({ files: FILES, base: 'https://cdn.example/askbox/askbox-chat.ch47.js', nonce });
  return { load, added };
}

const handOver = (target: EventTarget, detail: AddonDetail) =>
  target.dispatchEvent(new CustomEvent(ADDON_EVENT, { detail }));

describe('the add-on files next to the chat file', () => {
  it('loads each pinned by its hash, next to the chat file, with the page’s nonce, and takes what it hands its tag', async () => {
    const { load, added } = loader('n0nce');
    const code = load('code');
    const [tag] = added;
    expect([tag?.src, tag?.integrity, tag?.crossOrigin, tag?.nonce]).toEqual([
      'https://cdn.example/askbox/askbox-code.c0de.js',
      'sha256-code',
      'anonymous',
      'n0nce',
    ]);
    handOver(tag!, CODE);
    tag!.dispatchEvent(new Event('load'));
    expect(await code).toBe(CODE);
  });

  it('sets no nonce where the page has none, and warns of nothing once a file has handed its renderer over', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { load, added } = loader();
    const code = load('code');
    expect(added[0]?.nonce).toBe('');
    handOver(added[0]!, CODE);
    added[0]!.dispatchEvent(new Event('load'));
    expect(await code).toBe(CODE);
    expect(warn).not.toHaveBeenCalled();
  });

  it('under a loader that hides document.currentScript, takes each file’s renderer from the document by its kind', async () => {
    const { load, added } = loader();
    const code = load('code');
    const math = load('math');
    // A page's own event of that name, with no renderer in it, is no add-on's.
    expect(() => document.dispatchEvent(new CustomEvent(ADDON_EVENT))).not.toThrow();
    // Both files ran before either's load event, each handing its renderer to the document: math first.
    handOver(document, MATH);
    handOver(document, CODE);
    for (const tag of added) tag.dispatchEvent(new Event('load'));
    expect([await code, await math]).toEqual([CODE, MATH]);
  });

  it('resolves with nothing, after one warning naming the file, when it ran but handed nothing over', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { load, added } = loader();
    const code = load('code');
    added[0]!.dispatchEvent(new Event('error'));
    expect(await code).toBeUndefined();
    expect(warn.mock.calls).toEqual([['[askbox] Not loaded: https://cdn.example/askbox/askbox-code.c0de.js']]);
  });
});

// @vitest-environment jsdom
// DOMPurify's own test environment (see test/unit/render/sanitize.dom.test.ts): happy-dom's parser drops block tags.
import { signal } from '@preact/signals';
import { act, render } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { AddonKind, Addons, LoadedRenderers } from '../../../src/render/rich';
import { CODE_ALLOWLIST, MATH_ALLOWLIST } from '../../../src/render/rich-allowlist';
import { createSanitizer } from '../../../src/render/sanitize';
import { Markdown } from '../../../src/ui/Markdown';
import { Widget, type WidgetContext } from '../../../src/ui/context';

/** A code add-on that marks each `const` as a keyword, and counts its calls. */
function fakeCodeAddon() {
  const calls: string[] = [];
  const code = {
    render: (html: string) => {
      calls.push(html);
      return html.replaceAll('const', '<span class="hljs-keyword">const</span>');
    },
    allowlist: CODE_ALLOWLIST,
  };
  return { calls, code };
}

/** A widget context with just what Markdown reads, and add-ons whose loads are recorded. */
function setup(loaded: LoadedRenderers = {}) {
  const asked: AddonKind[] = [];
  const ready = signal(loaded);
  const addons: Addons = { ready, css: signal(''), need: (kind) => void asked.push(kind) };
  const context = {
    sanitize: createSanitizer(window, { code: 'Code', table: 'Table' }),
    addons,
    config: { text: { copyCode: 'Copy code' } },
  } as unknown as WidgetContext;
  const view = render(<span />);
  const draw = (text: string, streaming: boolean) =>
    view.rerender(
      <Widget.Provider value={context}>
        <Markdown text={text} streaming={streaming} />
      </Widget.Provider>,
    );
  return { asked, ready, draw, container: view.container };
}

afterEach(() => document.body.replaceChildren());

const FENCE = '```js\nconst a = 1;\n```';

describe('Markdown with the add-ons', () => {
  it('asks for nothing for a plain reply', () => {
    const { asked, draw } = setup();
    draw('Just **words**.', false);
    expect(asked).toEqual([]);
  });

  it('asks for the code add-on while a fence streams, and highlights the block once, when it is finished', () => {
    const addon = fakeCodeAddon();
    const { asked, draw, container } = setup({ code: addon.code });
    draw('```js\nconst a', true);
    expect(asked).toEqual(['code']);
    // The growing block stays plain: no highlighting per token.
    draw('```js\nconst a = 1;', true);
    expect(addon.calls).toEqual([]);
    expect(container.querySelector('.hljs-keyword')).toBeNull();
    draw(`${FENCE}\n\nAnd`, true);
    draw(`${FENCE}\n\nAnd more words`, true);
    draw(`${FENCE}\n\nAnd more words.`, false);
    expect(addon.calls).toHaveLength(1);
    expect(container.querySelector('pre code .hljs-keyword')?.textContent).toBe('const');
  });

  it('sanitises a block with the allowlists of the add-ons that went through it only', () => {
    // A code add-on that also wrote MathML, with the math add-on loaded: the block had no math, so none stays.
    const code = {
      render: () => '<pre><code><span class="hljs-keyword">const</span><math><mi>x</mi></math></code></pre>',
      allowlist: CODE_ALLOWLIST,
    };
    const math = { render: (html: string) => html, allowlist: MATH_ALLOWLIST };
    const { draw, container } = setup({ code, math });
    draw(FENCE, false);
    expect(container.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(container.querySelector('math, mi')).toBeNull();
  });

  it('upgrades a finished block in place when its add-on arrives', () => {
    const addon = fakeCodeAddon();
    const { ready, draw, container } = setup();
    draw(FENCE, false);
    const pre = container.querySelector('.md__block--code');
    expect(container.querySelector('.hljs-keyword')).toBeNull();
    act(() => {
      ready.value = { code: addon.code };
    });
    expect(container.querySelector('pre code .hljs-keyword')?.textContent).toBe('const');
    // The same block element, its content replaced: the reply does not reflow around a new node.
    expect(container.querySelector('.md__block--code')).toBe(pre);
  });
});

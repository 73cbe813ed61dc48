import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Addons } from '../../../src/render/rich';

/**
 * The add-ons of the ESM build (`mount()`): modules the site's bundler splits off, loaded when a reply needs one, as
 * the script tag's chat file loads its add-on files. Imported afresh per test: the add-ons loaded are the page's.
 */
afterEach(() => {
  vi.doUnmock('../../../src/addons/math');
  vi.doUnmock('../../../src/mount/chat');
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.resetModules();
  document.body.replaceChildren();
});

const FENCE = '<pre><code data-lang="js">const a = 1;</code></pre>';

describe('the ESM build’s add-ons', () => {
  it('loads each as the module its file runs: the same renderer and allowlist', async () => {
    const { moduleAddons } = await import('../../../src/mount/module-addons');
    const { CODE_ADDON } = await import('../../../src/addons/code');
    const { MATH_ADDON } = await import('../../../src/addons/math');
    const code = await moduleAddons('code');
    expect(code).toBe(CODE_ADDON);
    expect(code?.render(FENCE)).toContain('<span class="hljs-keyword">const</span>');
    const math = await moduleAddons('math');
    expect(math).toBe(MATH_ADDON);
    expect(math?.render('<code data-math="inline">x^2</code>')).toContain('<msup>');
  });

  it('warns once, naming the add-on, when its module cannot load, and leaves replies as they are', async () => {
    vi.doMock('../../../src/addons/math', () => {
      throw new Error('chunk gone after a deploy');
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { moduleAddons } = await import('../../../src/mount/module-addons');
    const { createAddons } = await import('../../../src/mount/addons');
    const addons = createAddons(moduleAddons);
    addons.need('math');
    addons.need('math');
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/^\[askbox\] Not loaded: the math add-on \(/);
    expect(addons.ready.value).toEqual({});
  });

  it('are ready once loaded, their stylesheet added, and a failed load adds nothing', async () => {
    const { createAddons } = await import('../../../src/mount/addons');
    const { CODE_ALLOWLIST } = await import('../../../src/render/rich-allowlist');
    const code = { kind: 'code' as const, render: (html: string) => html, allowlist: CODE_ALLOWLIST, css: '.x{}' };
    const addons = createAddons(async (kind) => (kind === 'code' ? code : undefined));
    expect(addons.css.value).toBe('');
    addons.need('math');
    addons.need('code');
    await vi.waitFor(() => expect(addons.ready.value).toEqual({ code }));
    expect(addons.css.value).toBe('.x{}');
  });

  it('are handed to the chat that mount() creates, which loads one when asked', async () => {
    let handed: Addons | undefined;
    vi.doMock('../../../src/mount/chat', async (original) => {
      const actual = await original<typeof import('../../../src/mount/chat')>();
      return {
        ...actual,
        createChat: ((config, emit, home) => {
          handed = home.addons;
          return actual.createChat(config, emit, home);
        }) satisfies typeof actual.createChat,
      };
    });
    // The inline panel asks the proxy for its conversation: no proxy answers here.
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    );
    const { mount } = await import('../../../src/mount/mount');
    const { CODE_ADDON } = await import('../../../src/addons/code');
    const container = document.createElement('div');
    document.body.append(container);
    const handle = mount({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox', mode: 'inline' }, container);
    await vi.waitFor(() => expect(handed).toBeDefined());
    handed?.need('code');
    await vi.waitFor(() => expect(handed?.ready.value.code).toBe(CODE_ADDON));
    handle.destroy();
    // The whole widget, imported afresh: seconds on two busy cores.
  }, 30_000);
});

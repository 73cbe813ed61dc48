import { afterEach, describe, expect, it, vi } from 'vitest';
import { isChatError } from '../../../src/api/errors';
import { parseConfig } from '../../../src/config/parse';
import { mount } from '../../../src/mount/mount';
import { createChat } from '../../../src/mount/chat';
import { startWidget } from '../../../src/mount/widget';
import { HOST_TAG } from '../../../src/mount/shadow-host';

const minimal = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };
const shadowRoot = () => document.body.querySelector(HOST_TAG)?.shadowRoot;
const rendered = async () => {
  await vi.waitFor(() => expect(shadowRoot()?.querySelector('.launcher')).toBeTruthy());
  return shadowRoot();
};

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
  // The open state a test leaves in this window's sessionStorage must not reopen the next test's widget.
  sessionStorage.clear();
});

describe('mount()', () => {
  it('shows the text overrides and warns once, naming the options it does not know', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const handle = mount({ ...minimal, colour: 'red', text: { launcher: 'Hilfe', sendd: 'x' } } as never);
    const root = await rendered();
    expect(root?.querySelector('.launcher')?.getAttribute('aria-label')).toBe('Hilfe');
    expect(warn.mock.calls).toEqual([
      ['[askbox] mount() ignored unknown options: colour, text.sendd (did you mean text.send?)'],
    ]);
    handle.destroy();
    expect(document.body.querySelector(HOST_TAG)).toBeNull();
  });

  it('takes page rules as showOn and hideOn (a string or an array), and follows pushState', () => {
    history.replaceState(null, '', '/checkout/cart');
    const handle = mount({ ...minimal, showOn: ['/products*', '/checkout/*'], hideOn: '/checkout/*' });
    expect(document.body.querySelector(HOST_TAG)).toBeNull();
    history.pushState(null, '', '/products');
    expect(shadowRoot()?.querySelector('.launcher')).toBeTruthy();
    history.pushState(null, '', '/checkout/pay');
    expect(document.body.querySelector(HOST_TAG)).toBeNull();
    handle.destroy();
    history.pushState(null, '', '/products');
    expect(document.body.querySelector(HOST_TAG)).toBeNull();
    history.replaceState(null, '', '/');
  });

  it('throws one config error naming every problem, and mounts nothing', () => {
    let thrown: unknown;
    try {
      mount({ proxyUrl: 'nope', text: { send: 1 } });
    } catch (error) {
      thrown = error;
    }
    expect(isChatError(thrown) && thrown.kind).toBe('config');
    expect(String(thrown)).toMatch(/botId is required.*proxyUrl "nope".*text text\.send must be/);
    expect(document.body.querySelector(HOST_TAG)).toBeNull();
  });
});

describe('mount(): embedding', () => {
  it('returns the live widget for a second mount of it (React StrictMode), and mounts again after destroy()', async () => {
    const first = mount(minimal);
    expect(mount({ ...minimal, title: 'Again' })).toBe(first);
    await rendered();
    expect(document.body.querySelectorAll(HOST_TAG)).toHaveLength(1);
    const other = mount({ ...minimal, instance: 'docs' });
    expect(other).not.toBe(first);
    expect(document.body.querySelectorAll(HOST_TAG)).toHaveLength(2);
    first.destroy();
    const again = mount(minimal);
    expect(again).not.toBe(first);
    again.destroy();
    other.destroy();
    expect(document.body.querySelector(HOST_TAG)).toBeNull();
  });

  it('fills a given container inline, without a target selector, and opens it there with no launcher', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const handle = mount({ ...minimal, mode: 'inline' }, container);
    const root = container.querySelector(HOST_TAG)?.shadowRoot;
    await vi.waitFor(() => expect(root?.querySelector('[role="region"]')).toBeTruthy());
    expect(root?.querySelector('.launcher')).toBeNull();
    handle.close();
    handle.toggle();
    expect(root?.querySelector('[role="region"]')).toBeTruthy();
    handle.destroy();
  });
});

describe('startWidget()', () => {
  it('answers calls before it has a place on the page, and shows their effect once attached', async () => {
    const { config } = parseConfig(minimal);
    if (!config) throw new Error('bad config');
    const widget = startWidget(config, { chat: () => createChat });
    widget.handle.open();
    expect(document.body.querySelector(HOST_TAG)).toBeNull();
    widget.attach(document.body);
    widget.attach(document.body);
    const root = await rendered();
    expect(document.body.querySelectorAll(HOST_TAG)).toHaveLength(1);
    await vi.waitFor(() => expect(root?.querySelector('[role="dialog"]')).toBeTruthy());
    widget.handle.destroy();
    widget.attach(document.body);
    expect(document.body.querySelector(HOST_TAG)).toBeNull();
  });
});

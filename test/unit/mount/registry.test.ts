import { describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../../src/config/parse';
import type { WidgetHandle } from '../../../src/mount/handle';
import { createRegistry } from '../../../src/mount/registry';
import { toThemeCss } from '../../../src/styles/theme';

const config = (input: Record<string, unknown> = {}) => {
  const parsed = parseConfig({ botId: 'bot000000001', proxyUrl: '/askbox', ...input });
  if (!parsed.config) throw new Error('bad config');
  return parsed.config;
};

const handle = (): WidgetHandle => ({
  open: vi.fn(),
  close: vi.fn(),
  toggle: vi.fn(),
  send: vi.fn(async () => undefined),
  setTheme: vi.fn(),
  on: vi.fn(() => () => true),
  identify: vi.fn(),
  reset: vi.fn(),
  destroy: vi.fn(),
});

describe('createRegistry', () => {
  it('lists widgets by identity: finds a live one, names them by instance or bot, and keeps the first first', () => {
    const registry = createRegistry();
    expect([registry.first(), registry.find(config()), registry.get('bot000000001')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const support = registry.add(config(), handle());
    const sales = registry.add(config({ instance: 'sales' }), handle());
    expect(registry.first()).toBe(support);
    expect(registry.find(config({ title: 'Other title' }))).toBe(support);
    expect(registry.find(config({ instance: 'sales' }))).toBe(sales);
    expect(registry.find(config({ instance: 'docs' }))).toBeUndefined();
    expect([registry.get('bot000000001'), registry.get('sales'), registry.get('docs')]).toEqual([
      support,
      sales,
      undefined,
    ]);
  });

  it('takes a destroyed widget off the list, once, and says when the last one is gone', () => {
    const onEmpty = vi.fn();
    const registry = createRegistry(onEmpty);
    const started = handle();
    const first = registry.add(config(), started);
    const second = registry.add(config({ instance: 'sales' }), handle());
    first.destroy();
    expect(started.destroy).toHaveBeenCalledOnce();
    expect([registry.first(), registry.find(config()), onEmpty.mock.calls.length]).toEqual([second, undefined, 0]);
    // A stale handle's second destroy() must not take a newer widget of the same identity off the list.
    const again = registry.add(config(), handle());
    first.destroy();
    expect(registry.find(config())).toBe(again);
    second.destroy();
    again.destroy();
    expect([registry.first(), onEmpty.mock.calls.length]).toEqual([undefined, 1]);
  });
});

describe('toThemeCss', () => {
  it('writes the configured colours, stacking level and offsets as custom properties on the host', () => {
    expect(toThemeCss(config())).toBe(':host{--askbox-offset-x:20px;--askbox-offset-y:20px}');
    expect(
      toThemeCss(config({ accent: '#0b57d0', accentText: 'white', zIndex: '10', offsetX: '0', offsetY: '90' })),
    ).toBe(
      ':host{--askbox-accent:#0b57d0;--askbox-on-accent:white;--askbox-z-index:10;--askbox-offset-x:0px;--askbox-offset-y:90px}',
    );
  });

  it('makes an inline widget a block that fills its container', () => {
    expect(toThemeCss(config({ mode: 'inline', target: '#x' }))).toBe(
      ':host{--askbox-offset-x:20px;--askbox-offset-y:20px}:host{display:block!important;height:100%!important}',
    );
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Parse from '../../../src/config/parse';
import { WIDGET_RULES } from '../../../src/protocol/contract';
import { SETTING_CASES } from '../../fixtures/widget-settings';

// Imported afresh for each test: module-level constants are built when a module loads, and a runner that keeps
// modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once
// per file, so that Stryker counts the load towards the test that checks it.
let parseConfig: typeof Parse.parseConfig;
beforeEach(async () => {
  vi.resetModules();
  ({ parseConfig } = await import('../../../src/config/parse'));
});

const accepts = (input: Record<string, unknown>) =>
  parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox', ...input }).issues === undefined;

describe("the widget's input rules (src/protocol/contract.ts WIDGET_RULES)", () => {
  it.each(SETTING_CASES.map((c) => [c.field, c.value.slice(0, 24), c] as const))(
    'parseConfig: %s %s',
    (_field, _value, c) => {
      const result = parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox', [c.field]: c.value });
      expect(result.issues ?? [], JSON.stringify(result.issues)).toHaveLength(c.ok ? 0 : 1);
    },
  );

  // parse.ts keeps its own literals (the contract's names would cost the bundle bytes): held to the contract here.
  it.each([
    ['title', WIDGET_RULES.titleMax],
    ['welcome', WIDGET_RULES.welcomeMax],
    ['placeholder', WIDGET_RULES.placeholderMax],
    ['launcherLabel', WIDGET_RULES.launcherLabelMax],
    ['conversationName', WIDGET_RULES.conversationNameMax],
    ['greeting', WIDGET_RULES.greetingMax],
    ['consent', WIDGET_RULES.consentMax],
  ])('%s takes exactly the contract length, %i characters', (field, max) => {
    expect(accepts({ [field]: '😀'.repeat(max) })).toBe(true);
    expect(accepts({ [field]: 'x'.repeat(max + 1) })).toBe(false);
  });

  it('takes a greeting delay within the contract range, its default the contract one', () => {
    const { min, max } = WIDGET_RULES.greetingDelay;
    for (const seconds of [min, max, 2.5])
      expect(accepts({ greetingDelay: String(seconds) }), String(seconds)).toBe(true);
    for (const seconds of [min - 0.01, max + 0.01, 'soon']) expect(accepts({ greetingDelay: seconds })).toBe(false);
    expect(parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox' }).config?.greetingDelay).toBe(
      WIDGET_RULES.greetingDelay.default,
    );
  });

  it('refuses exactly the colours the contract pattern refuses', () => {
    const pattern = new RegExp(WIDGET_RULES.colorPattern, 'i');
    const samples = [
      ...SETTING_CASES.filter((c) => c.field === 'accent').map((c) => c.value),
      '#abcd',
      '#ABCDEF12',
      'hsl(1 2% 3%)',
      'oklch(0.5 0.1 200 / 50%)',
      'rgb(1,2,3);',
      'url(x)',
      'ab',
      'red blue',
      '#',
      '#12',
      '#123456789',
      'lab(',
      'transparent',
      'RGB(1, 2, 3)',
      'a'.repeat(31),
    ];
    for (const value of samples) expect(accepts({ accent: value }), value).toBe(pattern.test(value));
  });
});

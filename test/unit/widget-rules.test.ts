import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse';
import { SETTING_CASES } from '../fixtures/widget-settings';

describe("the widget's input rules (src/protocol/contract.ts WIDGET_RULES)", () => {
  it.each(SETTING_CASES.map((c) => [c.field, c.value.slice(0, 24), c] as const))(
    'parseConfig: %s %s',
    (_field, _value, c) => {
      const result = parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox', [c.field]: c.value });
      expect(result.issues ?? [], JSON.stringify(result.issues)).toHaveLength(c.ok ? 0 : 1);
    },
  );
});

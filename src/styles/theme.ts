import type { WidgetConfig } from '../config/schema.js';

/**
 * The config-driven part of the stylesheet. The colours were validated as plain colour literals by `parseConfig`,
 * which is what makes interpolating them into CSS safe.
 */
export function toThemeCss(config: Pick<WidgetConfig, 'accent' | 'accentText'>): string {
  const { accent, accentText } = config;
  const tokens = (accent ? `--askbox-accent:${accent};` : '') + (accentText ? `--askbox-on-accent:${accentText}` : '');
  return tokens && `:host{${tokens}}`;
}

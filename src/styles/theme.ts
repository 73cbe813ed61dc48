import type { WidgetConfig } from '../config/schema.js';

/**
 * The config-driven part of the stylesheet. The accent was validated as a plain colour literal by `parseConfig`,
 * which is what makes interpolating it into CSS safe.
 */
export function toThemeCss(config: Pick<WidgetConfig, 'accent'>): string {
  return config.accent ? `:host{--askbox-accent:${config.accent}}` : '';
}

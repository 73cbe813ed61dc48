import type { WidgetConfig } from '../config/schema.js';

/**
 * The config-driven part of the stylesheet. The colours were validated as plain colour literals and the numbers as
 * numbers by `parseConfig`, which is what makes interpolating them into CSS safe. An inline widget's host is a
 * block that fills its container (`:host` has `all: initial !important`, which this later rule overrides).
 */
export function toThemeCss(
  config: Pick<WidgetConfig, 'accent' | 'accentText' | 'zIndex' | 'offsetX' | 'offsetY' | 'mode'>,
): string {
  const { accent, accentText, zIndex, offsetX, offsetY } = config;
  const tokens =
    (accent ? `--askbox-accent:${accent};` : '') +
    (accentText ? `--askbox-on-accent:${accentText};` : '') +
    (zIndex === undefined ? '' : `--askbox-z-index:${zIndex};`) +
    `--askbox-offset-x:${offsetX}px;--askbox-offset-y:${offsetY}px`;
  return `:host{${tokens}}${config.mode === 'inline' ? ':host{display:block!important;height:100%!important}' : ''}`;
}

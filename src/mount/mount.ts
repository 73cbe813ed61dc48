import { ChatError } from '../api/errors.js';
import { parseConfig } from '../config/parse.js';
import { TABLES } from '../config/locales/index.js';
import type { WidgetConfig } from '../config/schema.js';
import type { WidgetHandle } from './handle.js';
import { pageLanguages, startWidget } from './widget.js';

export type { WidgetHandle } from './handle.js';

/** Raw options for `mount()`: the same keys as `WidgetConfig`, as values or `data-*`-style strings. */
export type MountOptions = Partial<Record<keyof WidgetConfig, unknown>>;

/**
 * Mounts a widget into `target` (default: `document.body`) and returns its handle.
 * Throws one `ChatError('config')` listing every problem when the options are invalid, and warns once in the
 * console about keys it does not know.
 *
 * @example
 * const chat = mount({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox', title: 'Help', text: { send: 'Senden' } });
 * chat.on('reply', ({ message }) => console.log(message.text));
 */
export function mount(options: MountOptions, target: HTMLElement = document.body): WidgetHandle {
  const parsed = parseConfig(options, { languages: pageLanguages(target.ownerDocument), tables: TABLES });
  if (parsed.issues) {
    throw new ChatError(
      'config',
      `Invalid Askbox config: ${parsed.issues.map((i) => `${i.key} ${i.message}`).join('; ')}`,
    );
  }
  if (parsed.unknown.length > 0) console.warn(`[askbox] mount() ignored unknown options: ${parsed.unknown.join(', ')}`);
  const widget = startWidget(parsed.config);
  try {
    widget.attach(target);
  } catch (error) {
    widget.handle.destroy();
    throw error;
  }
  return widget.handle;
}

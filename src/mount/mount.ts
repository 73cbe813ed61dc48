import { ChatError } from '../api/errors.js';
import { IDENTITY_RULE } from '../config/identity.js';
import { parseConfig } from '../config/parse.js';
import { TABLES } from '../config/locales/index.js';
import { describeUnknown } from '../config/unknown.js';
import type { HandoffKey } from '../config/handoff.js';
import type { WidgetConfig } from '../config/schema.js';
import type { SiteStyleKey } from '../config/stylesheet.js';
import { createAddons } from './addons.js';
import { createChat, type CreateChat } from './chat.js';
import { showGreeting } from './greeting-bubble.js';
import type { WidgetHandle } from './handle.js';
import { moduleAddons } from './module-addons.js';
import { createRegistry } from './registry.js';
import { pageLanguages, startWidget } from './widget.js';

export type { WidgetHandle } from './handle.js';

/**
 * Raw options for `mount()`: the same keys as `WidgetConfig`, as values or `data-*`-style strings, and those the chat
 * reads itself (`handoffUrl`…, `stylesheet`, and `css`, the site's CSS adopted after the widget's own).
 */
export type MountOptions = Partial<Record<keyof WidgetConfig | HandoffKey | SiteStyleKey, unknown>>;

/** `createChat` with the add-ons (highlighted code, math) as modules of this build, loaded when a reply needs one. */
const createWithAddons: CreateChat = (config, emit, home) =>
  createChat(config, emit, { ...home, addons: createAddons(moduleAddons) });

/** The widgets `mount()` has started and not destroyed. */
const mounted = createRegistry();

/**
 * Mounts a widget and returns its handle. The widget goes into `target` when given (inline mode: the container it
 * fills), else into `document.body`, or inline into the element `options.target` selects (waited for).
 * - Mounting a widget that is already mounted (same bot, proxy and `instance`; e.g. React StrictMode running an
 *   effect twice) returns the live widget's handle and mounts nothing more.
 * - Throws one `ChatError('config')` listing every problem when the options are invalid, and warns once in the
 *   console about keys it does not know.
 *
 * @example
 * const chat = mount({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox', title: 'Help', text: { send: 'Senden' } });
 * chat.on('reply', ({ message }) => console.log(message.text));
 * @example
 * useEffect(() => mount({ botId, proxyUrl: '/askbox', mode: 'inline' }, container.current).destroy, []);
 */
export function mount(options: MountOptions, target?: HTMLElement): WidgetHandle {
  const doc = target?.ownerDocument ?? document;
  const parsed = parseConfig(options, { languages: pageLanguages(doc), tables: TABLES, inlineTarget: Boolean(target) });
  if (parsed.issues) {
    throw new ChatError(
      'config',
      `Invalid Askbox config: ${parsed.issues.map((i) => `${i.key} ${i.message}`).join('; ')}`,
    );
  }
  if (parsed.userRefused) console.error(`[askbox] mount()'s user ${IDENTITY_RULE}; the visitor is anonymous`);
  if (parsed.unknown.length > 0) console.warn(`[askbox] mount() ignored unknown options: ${describeUnknown(parsed)}`);
  const { config } = parsed;
  const live = mounted.find(config);
  if (live) return live;
  const widget = startWidget(config, { chat: () => createWithAddons, greeting: () => showGreeting });
  try {
    widget.attach(target);
  } catch (error) {
    widget.handle.destroy();
    throw error;
  }
  return mounted.add(config, widget.handle);
}

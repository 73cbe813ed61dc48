/**
 * Askbox's ESM entry: mount the chat widget from code.
 *
 * @example
 * import { mount } from 'askbox';
 * const chat = mount({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox' });
 * chat.open();
 */
export { mount, type MountOptions, type WidgetHandle } from './mount/mount.js';
export { parseConfig, type ConfigIssue, type ParseResult } from './config/parse.js';
export { DEFAULT_TEXT, type Position, type Theme, type UiText, type WidgetConfig } from './config/schema.js';
export { ChatError, isChatError, type ChatErrorKind } from './api/errors.js';
export type { WidgetEvents } from './state/events.js';
export type { ChatMessage, Source } from './state/messages.js';
export type { Identity } from './config/identity.js';

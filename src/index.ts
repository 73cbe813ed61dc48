/**
 * Askbox's ESM entry: mount the chat widget from code.
 *
 * @example
 * import { mount } from 'askbox';
 * const chat = mount({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox' });
 * chat.open();
 */
export { mount, type MountOptions, type WidgetHandle } from './mount/mount';
export { parseConfig, type ConfigIssue, type ParseResult } from './config/parse';
export { DEFAULT_TEXT, type Position, type Theme, type UiText, type WidgetConfig } from './config/schema';
export { ChatError, isChatError, type ChatErrorKind } from './api/errors';
export type { WidgetEvents } from './state/chat-model';
export type { ChatMessage, Source } from './state/messages';

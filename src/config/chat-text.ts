import { DEFAULT_TEXT } from './schema.js';

/**
 * The strings of the panel's header menu and what it leads to (feedback, export, delete, a way to a person). They
 * live in the chat file, not in the launcher: a locale table carries them as its last lines, after `lineKeys()`'s,
 * and the launcher hands those lines on untouched (`WidgetConfig.chatLines`).
 */
export const CHAT_TEXT = /* @__PURE__ */ Object.freeze({
  menu: 'More actions',
  copyConversation: 'Copy conversation',
  downloadConversation: 'Download conversation',
  deleteConversation: 'Delete this conversation',
  deleteConfirm: 'Delete this conversation for good? It cannot be brought back.',
  deleteAction: 'Delete',
  cancel: 'Cancel',
  deleteFailed: 'The conversation could not be deleted. Nothing was lost; please try again.',
  deleted: 'Conversation deleted.',
  rateUp: 'Helpful',
  rateDown: 'Not helpful',
  rated: 'Thanks for your feedback.',
  feedbackFailed: 'Your feedback could not be sent.',
  comment: 'What was wrong? (optional)',
  sendComment: 'Send',
  skip: 'Skip',
  talkToPerson: 'Talk to a person',
  conversations: 'Conversations',
  back: 'Back to the chat',
  current: 'Current',
  noConversations: 'No conversations yet.',
});

/** The chat file's own UI strings, one per key of `CHAT_TEXT`. */
export type ChatText = { readonly [K in keyof typeof CHAT_TEXT]: string };

/** `input.text`: an object, or its JSON from a `data-text` attribute; {} for anything else. */
function textObject(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  try {
    const given: unknown = typeof input.text === 'string' ? JSON.parse(input.text) : input.text;
    if (given && typeof given === 'object') return given as Record<string, unknown>;
  } catch {
    // The launcher has refused a `data-text` that is not JSON already.
  }
  return {};
}

/** `textFooBar`, the key a `data-text-foo-bar` attribute arrives as, for the string `fooBar`. */
const attribute = (key: string) => `text${key[0]!.toUpperCase()}${key.slice(1)}`;

/**
 * The strings of `lines` (a locale table's last lines, in the order of `CHAT_TEXT`'s keys), English where missing,
 * each overridden as the launcher's strings are (config/text.ts): by `input.text` (an object, or its JSON) and,
 * winning over it, by one attribute per string (`data-text-delete-action` arrives as `textDeleteAction`). An
 * override must be a non-empty string of at most 500 characters; anything else is passed over.
 */
export function toChatText(lines: readonly string[], input: Readonly<Record<string, unknown>> = {}): ChatText {
  const given = textObject(input);
  const text: Record<string, string> = {};
  Object.keys(CHAT_TEXT).forEach((key, index) => {
    // SECURITY: own keys only, never a lookup on a prototype.
    const value = input[attribute(key)] ?? (Object.hasOwn(given, key) ? given[key] : undefined);
    text[key] =
      typeof value === 'string' && value.trim() && value.length <= 500
        ? value
        : lines[index]?.trim() || CHAT_TEXT[key as keyof ChatText];
  });
  return text as ChatText;
}

/**
 * The text keys of `input` that name no UI string, the launcher's (`DEFAULT_TEXT`) nor the chat file's: e.g.
 * `textSendd`, `text.sendd`, `text.errors.htp`, likely typos worth one warning. The launcher leaves them to the
 * chat file, which knows both.
 */
export function unknownTextKeys(input: Readonly<Record<string, unknown>>): string[] {
  const { errors, ...strings } = DEFAULT_TEXT;
  const names = [...Object.keys(strings), ...Object.keys(CHAT_TEXT)];
  // `errors.network` arrives as `textErrorsNetwork`.
  const attributes = [...names, ...Object.keys(errors).map((key) => `errors${attribute(key).slice(4)}`)].map(attribute);
  const given = textObject(input);
  return [
    ...Object.keys(input).filter((key) => /^text[A-Z]/.test(key) && !attributes.includes(key)),
    ...Object.keys(given)
      .filter((key) => key !== 'errors' && !names.includes(key))
      .map((key) => `text.${key}`),
    ...Object.keys(Object(given.errors))
      .filter((key) => !Object.hasOwn(errors, key))
      .map((key) => `text.errors.${key}`),
  ];
}

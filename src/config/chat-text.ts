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

/** The strings of `lines` (a locale table's last lines, in the order of `CHAT_TEXT`'s keys), English where missing. */
export function toChatText(lines: readonly string[]): ChatText {
  const text: Record<string, string> = {};
  Object.keys(CHAT_TEXT).forEach((key, index) => {
    text[key] = lines[index]?.trim() || CHAT_TEXT[key as keyof ChatText];
  });
  return text as ChatText;
}

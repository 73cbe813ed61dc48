import type { ChatMessage } from './messages.js';

/** What a transcript is written with: the panel's title and words, and the visitor's time format. */
export interface TranscriptLabels {
  title: string;
  you: string;
  assistant: string;
  sources: string;
  formatTime: (time: number) => string;
}

/** Brackets would end a link's text early. */
const linkText = (text: string) => text.replace(/[[\]\\]/g, '\\$&');

/**
 * The conversation as Markdown, in the visitor's language and times: a heading, then each message under its
 * author and time, a reply's sources as links. The visitor's own text is kept as they wrote it.
 */
export function toMarkdown(messages: readonly ChatMessage[], labels: TranscriptLabels): string {
  const parts = [`# ${labels.title}`];
  for (const message of messages) {
    if (message.role === 'assistant' && !message.text) continue;
    const who = message.role === 'user' ? labels.you : labels.assistant;
    parts.push(`**${who}** · ${labels.formatTime(message.time)}\n\n${message.text.trim()}`);
    if (message.sources.length > 0)
      parts.push(
        `${labels.sources}:\n\n${message.sources
          .map((s) => (s.url ? `- [${linkText(s.title)}](<${s.url}>)` : `- ${s.title}`))
          .join('\n')}`,
      );
  }
  return `${parts.join('\n\n')}\n`;
}

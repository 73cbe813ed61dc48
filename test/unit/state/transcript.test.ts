import { describe, expect, it } from 'vitest';
import { localMessage, type ChatMessage } from '../../../src/state/messages';
import { toMarkdown, type TranscriptLabels } from '../../../src/state/transcript';

const LABELS: TranscriptLabels = {
  title: 'Northwind help',
  you: 'You',
  assistant: 'Assistant',
  sources: 'Sources',
  formatTime: (time) => `t${time}`,
};

/** A complete message, with what a transcript reads changed by `extra`. */
const message = (role: ChatMessage['role'], text: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  ...localMessage(role, text, 'done'),
  ...extra,
});

describe('the conversation as Markdown', () => {
  it('writes a heading, then each message under its author and time, and a reply’s sources as links', () => {
    const transcript = toMarkdown(
      [
        message('user', '  How do *returns* work?\n', { time: 1 }),
        message('assistant', 'Within **30 days**.', {
          time: 2,
          sources: [
            { id: 'd1', title: 'Returns [EU] \\ policy', url: 'https://docs.test/returns' },
            { id: 'd2', title: 'Internal memo', url: undefined },
          ],
        }),
        // A reply that brought no text (stopped before its first word) is left out; a question never is.
        message('assistant', '', { time: 3 }),
        message('user', '', { time: 4 }),
      ],
      LABELS,
    );
    expect(transcript).toBe(
      [
        '# Northwind help',
        '**You** · t1\n\nHow do *returns* work?',
        '**Assistant** · t2\n\nWithin **30 days**.',
        'Sources:\n\n- [Returns \\[EU\\] \\\\ policy](<https://docs.test/returns>)\n- Internal memo',
        '**You** · t4\n\n',
      ].join('\n\n') + '\n',
    );
  });

  it('is the heading alone for an empty conversation', () => {
    expect(toMarkdown([], LABELS)).toBe('# Northwind help\n');
  });
});

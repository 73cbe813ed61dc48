import { describe, expect, it } from 'vitest';
import { createMarkdownStream, toPlainText } from '../../src/render/markdown';

const REPLY =
  'Intro paragraph with **bold** text.\n\n- one\n- two\n\n```js\nconst a = 1;\nconst b = 2;\n```\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\nBye.';

describe('createMarkdownStream', () => {
  it('renders the usual reply markdown', () => {
    const html = createMarkdownStream(document).update(REPLY, true).join('');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(html).toContain('<pre><code>const a = 1;\nconst b = 2;');
    expect(html).toMatch(/<thead><tr><th>\s*a\s*<\/th>/);
    expect(html).toMatch(/<tbody><tr><td>\s*1\s*<\/td>/);
  });

  it('never changes a finished block while the reply grows (no flicker)', () => {
    const stream = createMarkdownStream(document);
    const settled = new Map<number, string>();
    for (let end = 1; end <= REPLY.length; end++) {
      const blocks = stream.update(REPLY.slice(0, end), false);
      // Every block but the last is finished: once seen, it must stay byte-identical.
      blocks.slice(0, -1).forEach((html, index) => {
        const before = settled.get(index);
        if (before !== undefined) expect(html, `block ${index} at ${end}`).toBe(before);
        else settled.set(index, html);
      });
    }
    expect(settled.size).toBeGreaterThanOrEqual(4);
  });

  it('renders a half-open code fence as code, and keeps it in place as it grows', () => {
    const stream = createMarkdownStream(document);
    const first = stream.update('Look:\n\n```\nline one\n', false);
    expect(first.at(-1)).toMatch(/^<pre><code>line one/);
    const second = stream.update('Look:\n\n```\nline one\nline two\n', false);
    expect(second).toHaveLength(first.length);
    expect(second.at(-1)).toContain('line two');
  });

  it('holds back a lone emphasis marker instead of flashing it', () => {
    const blocks = createMarkdownStream(document).update('Hello **wor', false);
    expect(blocks.join('')).not.toContain('**');
  });

  it('starts over when the text is replaced rather than extended', () => {
    const stream = createMarkdownStream(document);
    stream.update('first text', true);
    expect(stream.update('other', true).join('')).toBe('<p>other</p>');
  });

  it('turns task checkboxes into glyphs and images into links', () => {
    const html = createMarkdownStream(document)
      .update('- [x] done\n- [ ] todo\n\n![alt](https://x.test/i.png)', true)
      .join('');
    expect(html).toContain('☑');
    expect(html).toContain('☐');
    expect(html).not.toContain('<input');
    expect(html).not.toContain('<img');
    expect(html).toContain('href="https://x.test/i.png"');
  });
});

describe('toPlainText', () => {
  it('strips markdown syntax for announcements', () => {
    expect(toPlainText('## Title\n\n- **bold** and `code`\n- [link](https://x.test)')).toBe('Title bold and code link');
  });
});

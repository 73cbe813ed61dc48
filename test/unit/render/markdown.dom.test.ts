import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Markdown from '../../../src/render/markdown';

/** Every chunk the renderers hand the parser, in order (the parser still parses it). */
const parsed = vi.hoisted((): string[] => []);
vi.mock('streaming-markdown', async (importOriginal) => {
  const original = await importOriginal<typeof import('streaming-markdown')>();
  return {
    ...original,
    parser_write: (parser: Parameters<typeof original.parser_write>[0], chunk: string) => {
      parsed.push(chunk);
      original.parser_write(parser, chunk);
    },
  };
});

/**
 * The module afresh for each test: its tables (the element of each token, the opening-line pattern, the blocks
 * pruned when empty and those read apart) are set as it loads, and Stryker counts a mutant of them only against the
 * tests that load it.
 */
let createMarkdownStream: typeof Markdown.createMarkdownStream;
let toPlainText: typeof Markdown.toPlainText;
let withoutOpeningLine: typeof Markdown.withoutOpeningLine;
beforeEach(async () => {
  parsed.length = 0;
  vi.resetModules();
  ({ createMarkdownStream, toPlainText, withoutOpeningLine } = await import('../../../src/render/markdown'));
});

/** A long reply using every construct the renderer knows, to be cut into chunks at every possible place. */
const RICH = [
  '# Shipping and returns',
  'We ship **worldwide**, with _tracked_ parcels and ~~no~~ low fees; see [the policy](https://docs.test/ship).',
  '## Steps\n\n1. Order\n2. Pack it with `tape`\n   - nested *item*\n   - another\n3. Send',
  '5. starts at five\n6. six',
  '> Quoted **advice**\n> on two lines',
  '```ts\nconst parcel = { weight: 2 };\n\nship(parcel);\n```',
  '| Zone | Days |\n| --- | ---: |\n| EU | 2 |\n| World | 7 |',
  '- [x] packed\n- [ ] labelled',
  '---',
  'A line  \nbreak, an image ![map](https://x.test/m.png), https://raw.test/url and $x^2$ inline.',
  'Last paragraph.',
].join('\n\n');

/** Splits `text` into chunks of `size` characters, or of random sizes (1–40) from a seeded generator. */
function chunks(text: string, size: number | 'random'): string[] {
  let seed = 7;
  const next = () => (size === 'random' ? ((seed = (seed * 48271) % 2147483647) % 40) + 1 : size);
  const out: string[] = [];
  for (let at = 0; at < text.length;) {
    const end = at + next();
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

const REPLY =
  'Intro paragraph with **bold** text.\n\n- one\n- two\n\n```js\nconst a = 1;\nconst b = 2;\n```\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\nBye.';

/** Each construct, alone in a finished reply, and the one block of HTML it renders as. */
const ELEMENTS = [
  { title: 'a paragraph', markdown: 'Plain words.', html: '<p>Plain words.</p>' },
  { title: 'a quote', markdown: '> quoted', html: '<blockquote><p>quoted</p></blockquote>' },
  { title: 'a hard line break', markdown: 'one  \ntwo', html: '<p>one <br>two</p>' },
  { title: 'a rule', markdown: '---', html: '<hr>' },
  { title: 'a level-1 heading', markdown: '# One', html: '<h1>One</h1>' },
  { title: 'a level-2 heading', markdown: '## Two', html: '<h2>Two</h2>' },
  { title: 'a level-3 heading', markdown: '### Three', html: '<h3>Three</h3>' },
  { title: 'a level-4 heading', markdown: '#### Four', html: '<h4>Four</h4>' },
  { title: 'a level-5 heading', markdown: '##### Five', html: '<h5>Five</h5>' },
  { title: 'a level-6 heading', markdown: '###### Six', html: '<h6>Six</h6>' },
  { title: 'emphasis with stars', markdown: '*soft*', html: '<p><em>soft</em></p>' },
  { title: 'emphasis with underscores', markdown: '_soft_', html: '<p><em>soft</em></p>' },
  { title: 'strong with stars', markdown: '**loud**', html: '<p><strong>loud</strong></p>' },
  { title: 'strong with underscores', markdown: '__loud__', html: '<p><strong>loud</strong></p>' },
  { title: 'a strikethrough', markdown: '~~gone~~', html: '<p><s>gone</s></p>' },
  { title: 'inline code', markdown: '`tape`', html: '<p><code>tape</code></p>' },
  {
    title: 'a bare URL',
    markdown: 'https://raw.test/u',
    html: '<p><a href="https://raw.test/u">https://raw.test/u</a></p>',
  },
  {
    title: 'a link',
    markdown: '[the policy](https://l.test/p)',
    html: '<p><a href="https://l.test/p">the policy</a></p>',
  },
  // SECURITY: an image would be fetched as soon as it shows; it becomes a link to its URL, named by its alt text.
  {
    title: 'an image',
    markdown: '![map](https://u.test/m.png)',
    html: '<p><a href="https://u.test/m.png">map</a></p>',
  },
  { title: 'a bullet list', markdown: '- a\n- b', html: '<ul><li>a</li><li>b</li></ul>' },
  { title: 'a numbered list', markdown: '1. a\n2. b', html: '<ol><li>a</li><li>b</li></ol>' },
  { title: 'a list numbered from 5', markdown: '5. x\n6. y', html: '<ol start="5"><li>x</li><li>y</li></ol>' },
  // A checkbox would be a form control: a glyph says the same.
  { title: 'a done task', markdown: '- [x] packed', html: '<ul><li><span>☑ </span> packed</li></ul>' },
  { title: 'an open task', markdown: '- [ ] labelled', html: '<ul><li><span>☐ </span> labelled</li></ul>' },
  {
    title: 'a table',
    markdown: '| Zone | Days |\n|---|---|\n| EU | 2 |\n| World | 7 |',
    html:
      '<table><thead><tr><th> Zone </th><th> Days </th></tr></thead>' +
      '<tbody><tr><td> EU </td><td> 2 </td></tr><tr><td> World </td><td> 7 </td></tr></tbody></table>',
  },
  {
    title: 'a fence with a language',
    markdown: '```py\nx = 1\n```',
    html: '<pre><code data-lang="py">x = 1</code></pre>',
  },
  { title: 'a fence without one', markdown: '```\nx = 1\n```', html: '<pre><code>x = 1</code></pre>' },
  { title: 'an indented code block', markdown: '    x = 1', html: '<pre><code>x = 1</code></pre>' },
  { title: 'inline math', markdown: '$x^2$', html: '<p><code data-math="inline">x^2</code></p>' },
  { title: 'display math', markdown: '$$\ny\n$$', html: '<p><pre data-math="block">y\n</pre></p>' },
];

describe('what each construct renders as', () => {
  it.each(ELEMENTS)('$title', ({ markdown, html }) => {
    expect(createMarkdownStream(document).update(markdown, true)).toEqual([html]);
  });

  it('renders no image, form control, class or style, whatever the reply holds', () => {
    const template = document.createElement('template');
    template.innerHTML = ELEMENTS.map(({ markdown }) => createMarkdownStream(document).update(markdown, true)).join('');
    expect(template.content.querySelector('img, input, [class], [style]')).toBeNull();
  });
});

describe('createMarkdownStream', () => {
  it('renders the usual reply markdown', () => {
    const html = createMarkdownStream(document).update(REPLY, true).join('');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(html).toContain('<pre><code data-lang="js">const a = 1;\nconst b = 2;');
    // The add-ons' marks, which the sanitizer drops: a fence's language, and math.
    expect(createMarkdownStream(document).update('$x$ and\n\n$$\ny\n$$', true).join('')).toBe(
      '<p><code data-math="inline">x</code> and</p><p><pre data-math="block">y\n</pre></p>',
    );
    expect(html).toMatch(/<thead><tr><th>\s*a\s*<\/th>/);
    expect(html).toMatch(/<tbody><tr><td>\s*1\s*<\/td>/);
  });

  it.each([
    ['a space before the closing dollar', 'Pay $a and $ b.', '<p>Pay $a and $ b.</p>'],
    ['a no-break space before it', 'Pay $a and\u00a0$ b.', '<p>Pay $a and&nbsp;$ b.</p>'],
    ['a digit right after it', 'Pay $a and$5 later.', '<p>Pay $a and$5 later.</p>'],
    ['a space and a digit', 'Pay $a and $5 later.', '<p>Pay $a and $5 later.</p>'],
    ['a letter after it: math', 'So $x$s grow.', '<p>So <code data-math="inline">x</code>s grow.</p>'],
    ['a space inside it: math', 'So $a + b$ grows.', '<p>So <code data-math="inline">a + b</code> grows.</p>'],
    ['a digit later on: math', 'So $x$ is 5.', '<p>So <code data-math="inline">x</code> is 5.</p>'],
    [
      'a digit inside markup after it: math',
      'So $x$**5**.',
      '<p>So <code data-math="inline">x</code><strong>5</strong>.</p>',
    ],
  ])('keeps a $…$ that pandoc reads as no math as text, dollars included: %s', (_title, text, html) => {
    expect(createMarkdownStream(document).update(text, true).join('')).toBe(html);
  });

  it('keeps a span math when a digit comes in a later chunk, after other text', () => {
    const stream = createMarkdownStream(document);
    // The parser holds the trailing 5 back: the next chunk's text starts with it, after the text node " a ".
    expect(stream.update('So $x$ a 5', false).join('')).toBe('<p>So <code data-math="inline">x</code> a </p>');
    expect(stream.update('So $x$ a 56.', true).join('')).toBe('<p>So <code data-math="inline">x</code> a 56.</p>');
  });

  it('gives a span its dollars back when the digit after it comes in the next chunk', () => {
    const stream = createMarkdownStream(document);
    expect(stream.update('Pay $a and$', false).join('')).toContain('<code data-math="inline">a and</code>');
    expect(stream.update('Pay $a and$5 later.', true).join('')).toBe('<p>Pay $a and$5 later.</p>');
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

  it.each([1, 3, 8, 37, 'random'] as const)(
    'renders exactly what one pass renders, at every step of a reply streamed in chunks of %s',
    (size) => {
      const stream = createMarkdownStream(document);
      let text = '';
      for (const chunk of chunks(RICH, size)) {
        text += chunk;
        expect(stream.update(text, false), `after ${text.length} characters`).toEqual(
          createMarkdownStream(document).update(text, false),
        );
      }
      const final = stream.update(text, true);
      expect(final).toEqual(createMarkdownStream(document).update(RICH, true));
      expect(final.length).toBeGreaterThanOrEqual(10);
    },
  );

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

  it('hands the parser only what was added, and nothing for an update with the same text or its end', () => {
    const stream = createMarkdownStream(document);
    stream.update('Hello', false);
    stream.update('Hello world', false);
    stream.update('Hello world', false);
    const blocks = stream.update('Hello world', true);
    expect(stream.update('Hello world', true)).toEqual(blocks);
    expect(stream.update('Hello world', false)).toEqual(blocks);
    expect(blocks).toEqual(['<p>Hello world</p>']);
    expect(parsed).toEqual(['Hello', ' world']);
  });

  it.each([
    ['another text', 'Hello there', 'Goodbye'],
    ['a shorter one', 'Hello there', 'Hello'],
    ['one that ends with the old text', 'Hello', 'Oh, Hello'],
  ])('parses the whole text afresh, mid-reply, when it is replaced by %s', (_title, before, after) => {
    const stream = createMarkdownStream(document);
    stream.update(before, false);
    const replaced = stream.update(after, false);
    expect(parsed).toEqual([before, after]);
    expect(replaced).toEqual(createMarkdownStream(document).update(after, false));
    expect(stream.update(after, true)).toEqual([`<p>${after}</p>`]);
  });

  it('starts over when a finished reply grows: its end flushed what the parser held back', () => {
    const stream = createMarkdownStream(document);
    expect(stream.update('Hello **wor', true)).toEqual(['<p>Hello <strong>wor</strong></p>']);
    expect(stream.update('Hello **world**', true)).toEqual(['<p>Hello <strong>world</strong></p>']);
    expect(stream.update('Hello **world**', true)).toEqual(['<p>Hello <strong>world</strong></p>']);
    expect(parsed).toEqual(['Hello **wor', 'Hello **world**']);
  });

  it('renders no block for no text', () => {
    const stream = createMarkdownStream(document);
    expect(stream.update('', false)).toEqual([]);
    expect(stream.update('', true)).toEqual([]);
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

/** Replies cut right after a block opened: what each renders to once flushed, no empty block left behind. */
const CUT_AFTER_OPENING = [
  { title: 'a numbered item', text: '1. one\n2. ', html: '<ol><li>one</li></ol>' },
  { title: 'a bullet', text: 'Steps:\n\n- a\n- ', html: '<p>Steps:</p><ul><li>a</li></ul>' },
  { title: 'the first item of a list', text: 'Intro\n\n1. ', html: '<p>Intro</p>' },
  { title: 'a heading', text: 'Intro\n\n## ', html: '<p>Intro</p>' },
  { title: 'a code fence', text: 'Intro\n\n```\n', html: '<p>Intro</p>' },
  { title: 'a quote', text: 'Intro\n\n> ', html: '<p>Intro</p>' },
  { title: 'an empty heading mid-reply', text: '# \n\nText', html: '<p>Text</p>' },
  { title: 'an item of blank space', text: '1. a\n2.  \t', html: '<ol><li>a</li></ol>' },
  { title: 'a code block of blank space', text: 'Intro\n\n```\n   \n```', html: '<p>Intro</p>' },
  { title: 'a nested bullet', text: 'Steps\n\n1. a\n   - ', html: '<p>Steps</p><ol><li>a</li></ol>' },
  { title: 'an item holding only an empty nested list', text: 'Intro\n\n1. \n   - ', html: '<p>Intro</p>' },
  { title: 'a quote holding only an empty heading', text: 'Intro\n\n> # ', html: '<p>Intro</p>' },
];

describe('a reply cut just after a block opened', () => {
  it.each(CUT_AFTER_OPENING)('leaves no empty block after $title', ({ text, html }) => {
    expect(createMarkdownStream(document).update(text, true).join('')).toBe(html);
  });

  it('leaves none when the cut reply was streamed into the same renderer', () => {
    const stream = createMarkdownStream(document);
    stream.update('# \n\nText\n\n1. one\n', false);
    stream.update('# \n\nText\n\n1. one\n2. ', false);
    expect(stream.update('# \n\nText\n\n1. one\n2. ', true)).toEqual(['<p>Text</p>', '<ol><li>one</li></ol>']);
  });

  it('keeps a rule and a task item, which say something without text', () => {
    expect(createMarkdownStream(document).update('a\n\n---\n\n- [ ] ', true).join('')).toContain('<hr>');
    expect(createMarkdownStream(document).update('- [ ] ', true).join('')).toContain('☐');
    expect(createMarkdownStream(document).update('> ---', true)).toEqual(['<blockquote><hr></blockquote>']);
  });
});

/** Stopped replies whose last line only opens a block, and what is left once that line is dropped. */
const OPENING_LINES = [
  ['a dash', '- a\n-', '- a'],
  ['a star and a space', '- a\n* ', '- a'],
  ['a plus', '- a\n+', '- a'],
  ['a number and a dot', '1. one\n2.', '1. one'],
  ['a number and a parenthesis', '1. one\n2) ', '1. one'],
  ['a number of nine digits', 'Intro\n123456789.', 'Intro'],
  ['a number and a tab', 'Intro\n3.\t', 'Intro'],
  ['one hash', 'Intro\n#', 'Intro'],
  ['three hashes, after a blank line', 'Intro\n\n###', 'Intro\n'],
  ['six hashes', 'Intro\n###### ', 'Intro'],
  ['a quote marker', 'Intro\n> ', 'Intro'],
  ['a fence', 'Intro\n```', 'Intro'],
  ['a fence with its language', 'Intro\n```ts', 'Intro'],
  ['a fence of four backticks', 'Intro\n````', 'Intro'],
  ['a tilde fence', 'Intro\n~~~', 'Intro'],
  ['a tilde fence with its language', 'Intro\n~~~python', 'Intro'],
  ['a marker indented by spaces', 'Intro\n   - ', 'Intro'],
  ['a marker indented by a tab', 'Intro\n\t1.', 'Intro'],
  ['the first line', '1.', ''],
];

/** Last lines that say something, or hold no marker a block opens with: a stopped reply keeps them. */
const NOT_OPENING_LINES = [
  ['an item with its words', '1. one\n2. two'],
  ['a bullet with its words', '- a\n- b'],
  ['a heading with its title', '# Title'],
  ['a sentence', 'Text ends here.'],
  ['a number of ten digits', 'Intro\n1234567890.'],
  ['seven hashes', 'Intro\n#######'],
  ['a single backtick', 'Intro\n`'],
  ['two backticks', 'Intro\n``'],
  ['two tildes', 'Intro\n~~'],
  ['a marker at the end of a sentence', 'It costs 2.'],
  ['a dash at the end of a sentence', 'Pros and cons -'],
  ['a fence at the end of a sentence', 'Write ```'],
  ['a marker on a line before the last', '1.\nOne'],
  ['a number with a decimal', 'Intro\n2.5'],
];

describe('withoutOpeningLine', () => {
  it.each(OPENING_LINES)('drops a last line of %s', (_title, text, kept) => {
    expect(withoutOpeningLine(text)).toBe(kept);
  });

  it.each(NOT_OPENING_LINES)('keeps %s', (_title, text) => {
    expect(withoutOpeningLine(text)).toBe(text);
  });

  it('renders the stopped "1. one\\n2." as one item, not "one 2."', () => {
    expect(createMarkdownStream(document).update(withoutOpeningLine('1. one\n2.'), true)).toEqual([
      '<ol><li>one</li></ol>',
    ]);
  });
});

describe('toPlainText', () => {
  it('strips markdown syntax for announcements', () => {
    expect(toPlainText('## Title\n\n- **bold** and `code`\n- [link](https://x.test)')).toBe('Title bold and code link');
  });

  it.each([
    ['*Shipping and returns*', 'Shipping and returns'],
    ['_Returns_ take *30 days*.', 'Returns take 30 days.'],
    ['2 * 3 * 4 = 24', '2 * 3 * 4 = 24'],
    ['| Plan | Price |\n|---|---|\n| Basic | 5 € |', 'Plan Price Basic 5 €'],
    ['```js\nlet a = 1;\n```\n\n---\n\n> quoted', 'let a = 1; quoted'],
    ['a&amp;b <b>c</b>', 'a&amp;b <b>c</b>'],
    ['# Title\nText', 'Title Text'],
    ['one\\\ntwo', 'one two'],
    ['|a|b|\n|-|-|\n|c|d|', 'a b c d'],
    ['- a\n- b\n\nAfter', 'a b After'],
    ['1. a\n   - b\n2. c', 'a b c'],
    ['- a\n  ```\n  x\n  ```\n  y', 'a x y'],
    ['**a**b [c](https://x.test)d', 'ab cd'],
  ])('reads %j as %j', (markdown, text) => {
    expect(toPlainText(markdown)).toBe(text);
  });
});

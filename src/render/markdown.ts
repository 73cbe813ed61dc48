import * as smd from 'streaming-markdown';

/** Incremental markdown → HTML, one string per top-level block. */
export interface MarkdownStream {
  /**
   * Renders `text` and returns each top-level block's HTML (NOT yet safe: see `sanitize()`). When `text` extends
   * what was rendered before, only the new part is parsed; `done` flushes what the parser was holding back.
   */
  update(text: string, done: boolean): string[];
}

const TAGS: Partial<Record<number, string>> = {
  [smd.BLOCKQUOTE]: 'blockquote',
  [smd.PARAGRAPH]: 'p',
  [smd.LINE_BREAK]: 'br',
  [smd.RULE]: 'hr',
  [smd.HEADING_1]: 'h1',
  [smd.HEADING_2]: 'h2',
  [smd.HEADING_3]: 'h3',
  [smd.HEADING_4]: 'h4',
  [smd.HEADING_5]: 'h5',
  [smd.HEADING_6]: 'h6',
  [smd.ITALIC_AST]: 'em',
  [smd.ITALIC_UND]: 'em',
  [smd.STRONG_AST]: 'strong',
  [smd.STRONG_UND]: 'strong',
  [smd.STRIKE]: 's',
  [smd.CODE_INLINE]: 'code',
  [smd.RAW_URL]: 'a',
  [smd.LINK]: 'a',
  // SECURITY: an image would load a third-party URL as soon as it renders — a known exfiltration channel for
  // injected prompts — so a reply's image becomes a plain link to it.
  [smd.IMAGE]: 'a',
  [smd.LIST_UNORDERED]: 'ul',
  [smd.LIST_ORDERED]: 'ol',
  [smd.LIST_ITEM]: 'li',
  // A task-list checkbox would be a form control; a glyph says the same.
  [smd.CHECKBOX]: 'span',
  [smd.TABLE]: 'table',
  [smd.TABLE_CELL]: 'td',
  [smd.EQUATION_BLOCK]: 'pre',
  [smd.EQUATION_INLINE]: 'code',
};

/** The attribute that marks a `$…$` or `$$…$$` span in the HTML blocks, as `inline` or `block`. */
export const MATH_ATTRIBUTE = 'data-math';
/** The attribute that carries a fenced code block's language (its info string) on its `<code>`. */
export const LANGUAGE_ATTRIBUTE = 'data-lang';

/** A `$…$` span that is not math by pandoc's rule, back to the text it was, dollars included. */
function asText(span: Element): void {
  span.replaceWith(`$${span.textContent ?? ''}$`);
}

/**
 * A streaming-markdown renderer that builds plain elements in a detached root. It never creates images, inputs,
 * classes or styles; links keep their URL for the sanitizer to judge.
 */
function createRenderer(root: HTMLElement): smd.Any_Renderer {
  const doc = root.ownerDocument;
  const nodes: Element[] = [root];
  const top = () => nodes[nodes.length - 1] ?? root;
  return {
    data: undefined,
    add_token(_data: unknown, type: number) {
      if (type === smd.DOCUMENT) return;
      let parent = top();
      let tag = TAGS[type];
      if (type === smd.CODE_BLOCK || type === smd.CODE_FENCE) {
        parent = parent.appendChild(doc.createElement('pre'));
        tag = 'code';
      } else if (type === smd.TABLE_ROW) {
        // The first row is the header; the rest go in one body.
        const section = parent.children.length === 0 ? 'thead' : 'tbody';
        parent = parent.querySelector(section) ?? parent.appendChild(doc.createElement(section));
        tag = 'tr';
      } else if (type === smd.TABLE_CELL && parent.parentElement?.tagName === 'THEAD') {
        tag = 'th';
      }
      const node = parent.appendChild(doc.createElement(tag ?? 'span'));
      if (type === smd.CHECKBOX) node.textContent = '☐ ';
      // Marks for the add-ons (render/rich.ts); the sanitizer drops every data attribute.
      if (type === smd.EQUATION_BLOCK || type === smd.EQUATION_INLINE)
        node.setAttribute(MATH_ATTRIBUTE, type === smd.EQUATION_BLOCK ? 'block' : 'inline');
      nodes.push(node);
    },
    end_token() {
      const node = nodes.pop();
      // Pandoc's rule for `$…$`, which smd only half applies: the closing `$` follows a non-space…
      if (node?.getAttribute(MATH_ATTRIBUTE) === 'inline' && /\s$/.test(node.textContent ?? '')) asText(node);
    },
    add_text(_data: unknown, text: string) {
      const parent = top();
      const last = parent.lastElementChild;
      // … and is not followed by a digit, so that `$a and $5` stays a price.
      if (last === parent.lastChild && last?.getAttribute(MATH_ATTRIBUTE) === 'inline' && /^\d/.test(text))
        asText(last);
      parent.appendChild(doc.createTextNode(text));
    },
    set_attr(_data: unknown, type: number, value: string) {
      const node = top();
      if (type === smd.HREF || type === smd.SRC) node.setAttribute('href', value);
      else if (type === smd.START) node.setAttribute('start', value);
      else if (type === smd.LANG) node.setAttribute(LANGUAGE_ATTRIBUTE, value);
      else if (type === smd.CHECKED) node.textContent = '☑ ';
    },
  };
}

/**
 * Blocks that show nothing but their box, or a bare number, when empty. A reply stopped (or cut) just after a block
 * opened ends on one: "2. " flushes as an empty list item, "# " as an empty heading, a fence as an empty code block.
 */
const BLANK_WHEN_EMPTY = 'p,li,ol,ul,h1,h2,h3,h4,h5,h6,pre,blockquote';

/**
 * Removes the blocks with no text and no rule. A list left with only empty items has no text either, so it goes with
 * them; removing a block never changes another's text, so the order does not matter.
 */
function removeEmptyBlocks(root: Element): void {
  for (const block of root.querySelectorAll(BLANK_WHEN_EMPTY))
    if (!block.textContent?.trim() && !block.querySelector('hr')) block.remove();
}

/** A last line that only opens a block: a list marker, a heading's hashes, a quote's `>`, a code fence. */
const OPENING_LINE = /(?:^|\n)[ \t]*(?:[-*+]|\d{1,9}[.)]|#{1,6}|>|`{3,}\w*|~{3,}\w*)[ \t]*$/;

/**
 * The text of a reply stopped part-way, without a last line that only opened a block: stopped right after "2.",
 * the parser would read the marker as text of the item before ("one 2."). A finished reply keeps its text as is.
 */
export const withoutOpeningLine = (text: string): string => text.replace(OPENING_LINE, '');

/**
 * Creates an incremental renderer. While a reply streams, every block but the last is complete, so each is
 * serialised once, when the next one starts, and only the growing tail is serialised again: the cost of a chunk
 * does not grow with the reply. A half-open code fence or list stays in place instead of reflowing the reply on
 * every token, and an unmatched `*` or `` ` `` is held back rather than flashing.
 */
export function createMarkdownStream(doc: Document = document): MarkdownStream {
  let root = doc.createElement('div');
  let parser = smd.parser(createRenderer(root));
  let rendered = '';
  let ended = false;
  let finished: string[] = [];
  return {
    update(text, done) {
      if (!text.startsWith(rendered) || (ended && text !== rendered)) {
        root = doc.createElement('div');
        parser = smd.parser(createRenderer(root));
        rendered = '';
        ended = false;
        finished = [];
      }
      if (text.length > rendered.length) smd.parser_write(parser, text.slice(rendered.length));
      rendered = text;
      if (done && !ended) {
        smd.parser_end(parser);
        ended = true;
        // Pruning may take a block out from among the finished ones: they are serialised afresh, once.
        removeEmptyBlocks(root);
        finished = [];
      }
      const blocks = root.children;
      for (let i = finished.length; i < blocks.length - 1; i++) finished.push(blocks[i]?.outerHTML ?? '');
      const tail = blocks[blocks.length - 1];
      return tail ? [...finished, tail.outerHTML] : [];
    },
  };
}

/**
 * Elements whose text stands apart from the text on either side when read as plain text: a block may sit inside an
 * item's text (the item's words, a nested list or code block, then more of the item).
 */
const SEPARATE = 'p,li,td,th,h1,h2,h3,h4,h5,h6,pre,blockquote,br';

/**
 * Markdown as the words a reader sees, for screen-reader announcements: parsed by the same parser as the rendered
 * reply, so `*emphasis*`, `_this_`, tables and links read as their text, never as their syntax.
 */
export function toPlainText(source: string, doc: Document = document): string {
  const root = doc.createElement('div');
  const parser = smd.parser(createRenderer(root));
  smd.parser_write(parser, source);
  smd.parser_end(parser);
  for (const element of root.querySelectorAll(SEPARATE)) {
    element.prepend(' ');
    element.append(' ');
  }
  return (root.textContent ?? '').replace(/\s+/g, ' ').trim();
}

import type { VNode } from 'preact';
import { useRef } from 'preact/hooks';
import { CopyButton } from './CopyButton.js';
import { createMarkdownStream } from '../render/markdown.js';
import { neededAddons, type Addons, type LoadedRenderers } from '../render/rich.js';
import type { Sanitize, SafeHtml } from '../render/sanitize.js';
import { useWidget } from './context.js';

/** Finished blocks are kept in groups of this many; a group out of view is neither laid out nor painted. */
const GROUP = 16;

function Block({ html }: { html: SafeHtml }) {
  return <div class="md__block" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A code block, with a button that copies its code as the visitor sees it. */
function CodeBlock({ html }: { html: SafeHtml }) {
  const { config } = useWidget();
  const block = useRef<HTMLDivElement>(null);
  return (
    <div class="md__block md__block--code" ref={block}>
      <div dangerouslySetInnerHTML={{ __html: html }} />
      <CopyButton label={config.text.copyCode} text={() => block.current?.firstElementChild?.textContent ?? ''} />
    </div>
  );
}

function Group({ blocks }: { blocks: VNode[] }) {
  return <div class="md__group">{blocks}</div>;
}

/**
 * A block as its sanitised HTML: a finished one with its code highlighted and its math typeset by the add-ons
 * loaded (asking for those it needs), a streaming one as it is, so that nothing is highlighted again per token.
 */
function toHtml(raw: string, finished: boolean, addons: WidgetAddons): SafeHtml {
  const { sanitize } = addons;
  const needed = neededAddons(raw);
  for (const kind of needed) addons.source?.need(kind);
  if (!finished) return sanitize(raw);
  const used = needed.flatMap((kind) => addons.loaded[kind] ?? []);
  const html = used.reduce((block, addon) => addon.render(block), raw);
  return sanitize(
    html,
    used.map((addon) => addon.allowlist),
  );
}

interface WidgetAddons {
  sanitize: Sanitize;
  source: Addons | undefined;
  loaded: LoadedRenderers;
}

/**
 * Markdown rendered block by block. Each block is sanitised once and its element kept with the source HTML it
 * came from. While a reply streams, every block but the last is finished: they sit in groups whose elements are
 * reused until a block joins them, so Preact skips them, and groups scrolled out of view cost the browser nothing;
 * only the growing last block is sanitised, replaced and laid out again. An update's cost does not grow with the
 * reply, and text selection, scroll position and layout stay steady. A finished block with code or math is drawn
 * again, in place, when the add-on it needs arrives.
 */
export function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const { sanitize, addons } = useWidget();
  const loaded = addons?.ready.value ?? {};
  // What a block was drawn with: its HTML, and the add-ons it could use (a new arrival draws it again).
  const drawn = Object.keys(loaded).join();
  const stream = useRef(createMarkdownStream());
  const rendered = useRef<{ raw: string; block: VNode }[]>([]);
  // One element per group of finished blocks, and how many blocks it holds.
  const groups = useRef<{ size: number; element: VNode }[]>([]);
  const raws = stream.current.update(text, !streaming);
  const blocks = raws.map((raw, index) => {
    let entry = rendered.current[index];
    const finished = !streaming || index < raws.length - 1;
    const key = `${finished ? drawn : '-'}:${raw}`;
    if (entry?.raw !== key) {
      const Kind = raw.startsWith('<pre') ? CodeBlock : Block;
      const html = toHtml(raw, finished, { sanitize, source: addons, loaded });
      entry = { raw: key, block: <Kind key={index} html={html} /> };
      rendered.current[index] = entry;
      // A finished block changed (the growing last one always does): the text was replaced, not extended.
      if (index < raws.length - 1) groups.current.length = Math.min(groups.current.length, Math.floor(index / GROUP));
    }
    return entry.block;
  });
  rendered.current.length = blocks.length;
  const tail = blocks.pop();
  const count = Math.ceil(blocks.length / GROUP);
  groups.current.length = Math.min(groups.current.length, count);
  // Full groups never change; only the last one can have gained a block.
  for (let g = Math.max(0, groups.current.length - 1); g < count; g++) {
    const members = blocks.slice(g * GROUP, (g + 1) * GROUP);
    if (groups.current[g]?.size !== members.length)
      groups.current[g] = { size: members.length, element: <Group key={g} blocks={members} /> };
  }
  return (
    // Each message takes the direction of its own first words: an English reply on an Arabic page reads left to
    // right, and the other way round.
    <div class="md" dir="auto">
      {groups.current.map((group) => group.element)}
      {tail}
    </div>
  );
}

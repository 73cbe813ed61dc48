import type { VNode } from 'preact';
import { useRef } from 'preact/hooks';
import { createMarkdownStream } from '../render/markdown.js';
import { sanitize, type SafeHtml } from '../render/sanitize.js';

function Block({ html }: { html: SafeHtml }) {
  return <div class="md__block" dangerouslySetInnerHTML={{ __html: html }} />;
}

function Finished({ blocks }: { blocks: VNode[] }) {
  return <div class="md__done">{blocks}</div>;
}

/**
 * Markdown rendered block by block. Each block is sanitised once and its element kept with the source HTML it
 * came from. While a reply streams, every block but the last is finished: they sit in one container whose element
 * is reused until another block finishes, so Preact skips them all and the browser lays out that container from
 * its cache; only the growing last block is sanitised, replaced and laid out again. An update's cost does not grow
 * with the reply, and text selection, scroll position and layout stay steady.
 */
export function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const stream = useRef(createMarkdownStream());
  const rendered = useRef<{ raw: string; block: VNode }[]>([]);
  const finished = useRef<{ count: number; element?: VNode }>({ count: 0 });
  const blocks = stream.current.update(text, !streaming).map((raw, index) => {
    let entry = rendered.current[index];
    if (entry?.raw !== raw) {
      rendered.current[index] = entry = { raw, block: <Block key={index} html={sanitize(raw)} /> };
      // A block other than the last changed: the text was replaced, not extended.
      if (index < finished.current.count) finished.current = { count: 0 };
    }
    return entry.block;
  });
  rendered.current.length = blocks.length;
  const tail = blocks.pop();
  if (finished.current.count !== blocks.length || !finished.current.element)
    finished.current = { count: blocks.length, element: <Finished blocks={blocks} /> };
  return (
    <div class="md">
      {finished.current.element}
      {tail}
    </div>
  );
}

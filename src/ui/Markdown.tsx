import { useRef } from 'preact/hooks';
import { createMarkdownStream } from '../render/markdown.js';
import { sanitize, type SafeHtml } from '../render/sanitize.js';

/**
 * Markdown rendered block by block. Each block's sanitised HTML is kept with the source HTML it came from, so
 * while a reply streams the finished blocks keep the same `__html` and Preact leaves their DOM alone; only the
 * growing last block is sanitised and replaced. This keeps text selection, scroll position and layout steady.
 */
export function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const stream = useRef(createMarkdownStream());
  const safe = useRef<{ raw: string; html: SafeHtml }[]>([]);
  const blocks = stream.current.update(text, !streaming).map((raw, index) => {
    let block = safe.current[index];
    if (block?.raw !== raw) safe.current[index] = block = { raw, html: sanitize(raw) };
    return <div key={index} class="md__block" dangerouslySetInnerHTML={{ __html: block.html }} />;
  });
  safe.current.length = blocks.length;
  return <div class="md">{blocks}</div>;
}

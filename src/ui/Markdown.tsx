import { useRef } from 'preact/hooks';
import { createMarkdownStream } from '../render/markdown.js';
import { sanitize, type SafeHtml } from '../render/sanitize.js';

/**
 * Markdown rendered block by block. Each block's sanitised HTML is cached by its source HTML, so while a reply
 * streams the finished blocks keep the same `__html` and Preact leaves their DOM alone; only the growing last
 * block is replaced. This keeps text selection, scroll position and layout steady.
 */
export function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const stream = useRef(createMarkdownStream());
  const cache = useRef(new Map<string, SafeHtml>());
  const next = new Map<string, SafeHtml>();
  const blocks = stream.current.update(text, !streaming).map((raw, index) => {
    const html = cache.current.get(raw) ?? sanitize(raw);
    next.set(raw, html);
    return <div key={index} class="md__block" dangerouslySetInnerHTML={{ __html: html }} />;
  });
  cache.current = next;
  return <div class="md">{blocks}</div>;
}

import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/**
 * The languages the highlighter knows, registered by name (each also answers to its aliases: `js`, `ts`, `sh`,
 * `py`, `html`, `yml`, `rs`, `c++`, …). The common ones of a support chat; a block in another language stays plain.
 */
const LANGUAGES = {
  bash,
  c,
  cpp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  php,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};

for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/**
 * A code block's text as highlight.js's HTML: escaped text in `<span class="hljs-…">`s. Highlighted as its fence's
 * language when the highlighter knows it; without one, as the language it most looks like; in a language it does
 * not know, not at all. SECURITY: the language name only picks a grammar, and never reaches the output.
 */
export function highlight(text: string, language: string): string | undefined {
  const name = language.trim().split(/\s/)[0]?.toLowerCase() ?? '';
  if (name === '') return hljs.highlightAuto(text).value;
  return hljs.getLanguage(name) ? hljs.highlight(text, { language: name, ignoreIllegals: true }).value : undefined;
}

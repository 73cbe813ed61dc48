import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

/** One fenced code block of the README: its language and its text. */
interface ReadmeBlock {
  lang: string;
  code: string;
}

/**
 * The text under the README heading `heading` (its words after the `#`s, exactly), up to the next heading of any
 * level. Lines inside code fences are never headings: a `# comment` in a shell or TOML block does not end a section.
 */
export function readmeSection(heading: string): string {
  const lines = README.split('\n');
  let inFence = false;
  let start = -1;
  for (const [index, line] of lines.entries()) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    if (inFence || !/^#{1,6} /.test(line)) continue;
    if (start >= 0) return lines.slice(start, index).join('\n');
    if (line.replace(/^#+ /, '') === heading) start = index + 1;
  }
  if (start < 0) throw new Error(`README.md has no heading "${heading}"`);
  return lines.slice(start).join('\n');
}

/** The fenced code blocks under a README heading, in order; with `lang`, only those of that language. */
export function readmeBlocks(heading: string, lang?: string): ReadmeBlock[] {
  const blocks = [...readmeSection(heading).matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)].map(
    ([, indent = '', language = '', code = '']) => ({
      lang: language,
      code: code.replace(new RegExp(`^${indent}`, 'gm'), ''),
    }),
  );
  return lang ? blocks.filter((block) => block.lang === lang) : blocks;
}

/** The one block of `lang` under `heading`; throws when there is none or more than one. */
export function readmeBlock(heading: string, lang: string): string {
  const blocks = readmeBlocks(heading, lang);
  if (blocks.length !== 1) throw new Error(`README.md "${heading}" has ${blocks.length} \`${lang}\` blocks, not 1`);
  return (blocks[0] as ReadmeBlock).code;
}

/**
 * The variables a README command line sets before its command (`NAME=value NAME=value node proxy.mjs`), by name.
 */
export function commandVariables(command: string): Record<string, string> {
  return Object.fromEntries(
    [...command.matchAll(/\b([A-Z_]+)=(\S+)/g)].map(([, name = '', value = '']) => [name, value]),
  );
}

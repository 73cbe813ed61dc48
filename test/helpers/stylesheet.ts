import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const STYLES = fileURLToPath(new URL('../../src/styles/', import.meta.url));

/** One stylesheet file as the build inlines it: its path (from src/styles/) and its text. */
export interface StyleFile {
  path: string;
  css: string;
}

/**
 * The files `name` (under src/styles/) is made of, in cascade order: itself, with each `@import` replaced by the
 * files it names, as the build inlines them.
 */
export function readStylesheet(name: string): StyleFile[] {
  const css = readFileSync(join(STYLES, name), 'utf8');
  const imports = [...css.matchAll(/^@import '([^']+)';$/gm)].map(([, path = '']) => join(dirname(name), path));
  return [{ path: name, css }, ...imports.flatMap(readStylesheet)];
}

/**
 * Every style rule's selector list, normalised (comments dropped, whitespace collapsed, the list sorted), with the
 * at-rules it sits in (`@media (pointer: fine)`); keyframes' steps are not selectors and are left out.
 */
export function selectors(css: string): { context: string; selector: string }[] {
  const found: { context: string; selector: string }[] = [];
  const context: string[] = [];
  let prelude = '';
  let skip = 0;
  for (const char of css.replace(/\/\*[\s\S]*?\*\//g, '')) {
    if (char === '{') {
      const head = prelude.trim().replace(/\s+/g, ' ');
      prelude = '';
      if (skip > 0 || head.startsWith('@keyframes')) skip += 1;
      else if (head.startsWith('@')) context.push(head);
      else {
        const list = head
          .split(/\s*,\s*/)
          .sort()
          .join(', ');
        found.push({ context: context.join(' '), selector: list });
        context.push('');
      }
    } else if (char === '}') {
      prelude = '';
      if (skip > 0) skip -= 1;
      else context.pop();
    } else if (char === ';') prelude = '';
    else prelude += char;
  }
  return found;
}

/** The selector lists written more than once in the same context, across `css` taken as one stylesheet. */
export function duplicateSelectors(css: string): string[] {
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const { context, selector } of selectors(css)) {
    const key = `${context} ${selector}`.trim();
    if (seen.has(key)) twice.push(key);
    seen.add(key);
  }
  return twice;
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHAT_PATH, CLOSE_PATH } from '../../../src/ui/icon-paths.js';

const css = readFileSync(new URL('../../../src/styles/launcher.css', import.meta.url), 'utf8');

/** The clip path launcher.css gives `selector`'s rule. */
function clipPath(selector: string): string | undefined {
  const start = css.indexOf(`\n${selector} {`);
  const rule = start < 0 ? '' : css.slice(start, css.indexOf('}', start));
  return /clip-path: path\('([^']*)'\)/.exec(rule)?.[1];
}

describe("the launcher's icon", () => {
  // launcher.css draws it (mount/launcher.ts builds no SVG), so its shapes are held to the panel's icon paths here.
  it('is the chat bubble of CHAT_PATH, and the cross of CLOSE_PATH while the panel is open', () => {
    expect(clipPath('.launcher__icon')).toBe(CHAT_PATH);
    expect(clipPath('.askbox--open .launcher__icon')).toBe(CLOSE_PATH);
  });
});

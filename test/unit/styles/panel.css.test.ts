import { describe, expect, it } from 'vitest';
import { duplicateSelectors, readStylesheet, selectors } from '../../helpers/stylesheet.js';

const panel = readStylesheet('panel.css');

describe("the panel's stylesheet", () => {
  it('is one file per component, imported by panel.css, each under 300 lines', () => {
    expect(panel.length).toBeGreaterThan(5);
    for (const { path, css } of panel) expect(css.split('\n').length, path).toBeLessThan(300);
    // panel.css itself only names the files, in the cascade's order.
    expect(selectors(panel[0]?.css ?? '')).toEqual([]);
  });

  it('writes each selector once in each context, across all its files', () => {
    expect(duplicateSelectors(panel.map(({ css }) => css).join('\n'))).toEqual([]);
  });
});

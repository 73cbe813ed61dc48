import { describe, expect, it } from 'vitest';
import { partNames } from '../../../src/styles/parts';
import { readmeBlock, readmeSection } from '../../helpers/readme';

/** The README's table of part names, in its order. */
const documented = () =>
  [...readmeSection('Styling beyond the theme').matchAll(/^\| `([\w-]+)` +\| .+ \|$/gm)].map(([, name = '']) => name);

describe('README: the part names', () => {
  it('lists every part name the widget publishes, each once, and no other', () => {
    expect(documented()).toEqual(partNames());
  });

  it('styles only published parts in its example', () => {
    const used = [...readmeBlock('Styling beyond the theme', 'css').matchAll(/::part\(([\w-]+)\)/g)].map(
      ([, name]) => name,
    );
    expect(used.length).toBeGreaterThan(5);
    for (const name of used) expect(partNames()).toContain(name);
  });
});

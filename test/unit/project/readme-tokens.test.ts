import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readStylesheet } from '../../helpers/stylesheet.js';

// The launcher's stylesheet holds most tokens; the panel's, those only the panel reads.
const css = ['launcher.css', 'panel.css'].flatMap((name) => readStylesheet(name).map((file) => file.css)).join('\n');
const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** The custom properties the rules for `selector` declare (in either stylesheet), by name (without the dashes). */
function declarations(selector: string): Map<string, string> {
  const bodies = [...css.matchAll(new RegExp(`^${selector.replace('.', '\\.')} \\{\\n([^}]*)\\n\\}`, 'gm'))];
  return new Map(
    bodies.flatMap(([, body = '']) =>
      [...body.matchAll(/^ {2}--([\w-]+): (.+);$/gm)].map(([, name = '', value = '']) => [name, value] as const),
    ),
  );
}

/** Every public token the stylesheet reads, with the fallback it falls back to when a site leaves it unset. */
function publicTokens(): Map<string, string> {
  return new Map(
    [...css.matchAll(/var\(--askbox-([\w-]+), (.+)\);$/gm)].map(([, name = '', fallback = '']) => [name, fallback]),
  );
}

/** The README's theming table: token → its "default" cell. */
function documented(): Map<string, string> {
  return new Map(
    [...readme.matchAll(/^\| `--askbox-([\w-]+)` +\| (.+?) +\|$/gm)].map(([, name = '', cell = '']) => [name, cell]),
  );
}

/**
 * The literal defaults a token resolves to: both palette values when it falls back to the palette, the value itself
 * when it is a literal, the first family of a font stack. Tokens that default to another token (the user bubble to
 * the accent…) are described in words, so they have none.
 */
function literalDefaults(fallback: string): string[] {
  const light = declarations('.askbox');
  const dark = declarations('.askbox--dark');
  const palette = /^var\(--(_p-[\w-]+)\)$/.exec(fallback)?.[1];
  const values = palette ? [light.get(palette), dark.get(palette)] : [fallback.split(',')[0]];
  return values.filter((value): value is string => !!value && /^(#[\da-f]+|\d+(px)?|[a-z-]+)$/.test(value));
}

describe('theme tokens: the README documents what the stylesheet does', () => {
  it('lists exactly the public tokens the stylesheet reads', () => {
    expect([...documented().keys()].sort()).toEqual([...publicTokens().keys()].sort());
  });

  it('gives each token the default the stylesheet falls back to, light and dark', () => {
    const docs = documented();
    for (const [token, fallback] of publicTokens()) {
      for (const value of literalDefaults(fallback))
        expect(docs.get(token), `--askbox-${token}`).toContain(`\`${value}`);
    }
  });

  it('writes each dark value once, as an override of a light palette value', () => {
    const light = declarations('.askbox');
    const dark = declarations('.askbox--dark');
    expect(dark.size).toBeGreaterThan(0);
    for (const name of dark.keys()) expect(light.has(name), name).toBe(true);
    // `auto` reaches the same class from script, so no media query repeats the dark palette.
    expect(css).not.toContain('prefers-color-scheme');
  });
});

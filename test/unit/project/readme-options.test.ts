import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/parse';
import { DEFAULTS } from '../../../src/config/schema';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** The README's attribute table: `data-…` → its "default" cell. */
const rows = new Map(
  [...readme.matchAll(/^\| `(data-[\w-]+|nonce)` +\| (.+?) +\|/gm)].map(([, name = '', cell = '']) => [name, cell]),
);

const attribute = (key: string) => `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

describe('README: every setting of the tag, with its default', () => {
  const { config } = parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox' });

  it('has a row for every config key (the nonce as `nonce`, the UI strings as `data-text`)', () => {
    // `language` and `pack` follow from `locale`; the element and mount() take the same keys.
    // `input` carries the settings the chat file reads itself: the handoff's (issue 23).
    const keys = [
      ...Object.keys(config ?? {}).filter((key) => !['language', 'pack', 'input'].includes(key)),
      'handoffUrl',
      'handoffEmail',
      'handoffParam',
    ];
    // The signed-in visitor, `user` in mount(), is two attributes on the tag.
    const names = keys.flatMap((key) =>
      key === 'styleNonce' ? ['nonce'] : key === 'user' ? ['data-user-id', 'data-user-hash'] : [attribute(key)],
    );
    expect(names.filter((name) => !rows.has(name))).toEqual([]);
  });

  it('gives the default of every setting that has a literal one', () => {
    for (const [key, value] of Object.entries(DEFAULTS))
      if (typeof value !== 'string' || !/\s/.test(value))
        expect(rows.get(attribute(key)), `${attribute(key)} = ${value}`).toContain(`\`${value}\``);
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Locales from '../../../../src/config/locales/index';
import type * as Schema from '../../../../src/config/schema';

/**
 * The locale tables: each line of every language's table lands under its key, none blank or padded. An emptied or
 * shifted table fails a test here.
 */

// Imported afresh for each test: the tables are built when the modules load, and a runner that keeps modules loaded
// between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once per file, so
// that Stryker counts the load towards the test that checks it.
let schema: typeof Schema;
let locales: typeof Locales;
beforeEach(async () => {
  vi.resetModules();
  schema = await import('../../../../src/config/schema');
  locales = await import('../../../../src/config/locales/index');
});

/** Every English UI string by the key of its table line (`errors.<kind>` for the error sentences). */
function english(): Record<string, string> {
  const { errors, ...strings } = schema.DEFAULT_TEXT;
  return { ...strings, ...Object.fromEntries(Object.entries(errors).map(([kind, text]) => [`errors.${kind}`, text])) };
}

describe('the locale tables', () => {
  it('key each line of every table: the UI strings, the errors, the shown settings, then the chat file’s', () => {
    const { PACK_KEYS, TABLES } = locales;
    expect(PACK_KEYS.slice(0, 44)).toEqual(Object.keys(english()));
    expect(PACK_KEYS.slice(44, 47)).toEqual(['title', 'welcome', 'placeholder']);
    expect(Object.keys(TABLES).sort()).toEqual(['ar', 'de', 'es', 'fr', 'he', 'it', 'ja', 'nl', 'pl', 'pt', 'zh']);
    for (const [language, pack] of Object.entries(TABLES)) {
      expect(Object.keys(pack), language).toEqual(PACK_KEYS);
      for (const [key, value] of Object.entries(pack)) {
        expect(value.trim(), `${language} ${key}`).not.toBe('');
        expect(value, `${language} ${key}`).toBe(value.trim());
      }
    }
  });

  it('read each line trimmed, and a line past the keys under its number', async () => {
    const count = locales.PACK_KEYS.length;
    const lines = Array.from({ length: count + 1 }, (_, index) => `  s${index} `);
    vi.resetModules();
    vi.doMock('../../../../src/config/locales/de.js', () => ({ de: `\n${lines.join('\n')}\n` }));
    const { PACK_KEYS, TABLES } = await import('../../../../src/config/locales/index');
    vi.doUnmock('../../../../src/config/locales/de.js');
    expect(TABLES.de).toEqual({
      ...Object.fromEntries(PACK_KEYS.map((key, index) => [key, `s${index}`])),
      [`line ${count + 1}`]: `s${count}`,
    });
  });
});

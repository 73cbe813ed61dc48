import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Locales from '../../../src/config/locales/index';
import type * as Schema from '../../../src/config/schema';

/**
 * The English strings, the defaults and the locale tables (found by Stryker, issue 18): every string a visitor reads
 * is written out in every language, each table line lands under its key, and every default is the one the README
 * documents. An emptied string, table or default fails a test here.
 */

// Imported afresh for each test: the strings, defaults and tables are built when the modules load, and a runner that
// keeps modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not
// once per file, so that Stryker counts the load towards the test that checks it.
let schema: typeof Schema;
let locales: typeof Locales;
beforeEach(async () => {
  vi.resetModules();
  schema = await import('../../../src/config/schema');
  locales = await import('../../../src/config/locales/index');
});

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
/** The README's attribute table: `data-…` → its "default" cell. */
const documented = (key: string) =>
  readme.match(
    new RegExp(`^\\| \`data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}\` +\\| (.+?) +\\|`, 'm'),
  )?.[1];

/** Every English UI string by the key of its table line (`errors.<kind>` for the error sentences). */
function english(): Record<string, string> {
  const { errors, ...strings } = schema.DEFAULT_TEXT;
  return { ...strings, ...Object.fromEntries(Object.entries(errors).map(([kind, text]) => [`errors.${kind}`, text])) };
}

describe('the English strings', () => {
  it('write out every UI string and error sentence, none blank or padded', () => {
    const strings = english();
    expect(Object.keys(strings)).toHaveLength(42);
    for (const [key, value] of Object.entries(strings)) {
      expect(value.trim(), key).not.toBe('');
      expect(value, key).toBe(value.trim());
    }
  });

  it('carry the placeholders the UI fills in', () => {
    const { rateLimitWait, conversationLimitWait, unread } = schema.DEFAULT_TEXT;
    expect([rateLimitWait, conversationLimitWait, unread].map((text) => text.match(/\{\w+\}/g))).toEqual([
      ['{wait}'],
      ['{wait}'],
      ['{count}'],
    ]);
  });
});

describe('the defaults', () => {
  it('are the ones the README documents, strings written out', () => {
    expect(Object.keys(schema.DEFAULTS)).toEqual([
      'title',
      'welcome',
      'placeholder',
      'position',
      'open',
      'launcher',
      'theme',
      'conversationName',
      'streamTimeout',
      'stream',
      'mode',
      'offsetX',
      'offsetY',
    ]);
    for (const [key, value] of Object.entries(schema.DEFAULTS)) {
      expect(documented(key)?.startsWith(`\`${String(value)}\``), key).toBe(true);
      if (typeof value === 'string') expect(value.trim(), key).not.toBe('');
    }
  });

  it('offer the three themes', () => {
    expect(schema.THEMES).toEqual(['light', 'dark', 'auto']);
  });
});

describe('the locale tables', () => {
  it('key each line of every table: the UI strings, the errors, the shown settings, then the chat file’s', () => {
    const { PACK_KEYS, TABLES } = locales;
    expect(PACK_KEYS.slice(0, 42)).toEqual(Object.keys(english()));
    expect(PACK_KEYS.slice(42, 45)).toEqual(['title', 'welcome', 'placeholder']);
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
    vi.doMock('../../../src/config/locales/de.js', () => ({ de: `\n${lines.join('\n')}\n` }));
    const { PACK_KEYS, TABLES } = await import('../../../src/config/locales/index');
    vi.doUnmock('../../../src/config/locales/de.js');
    expect(TABLES.de).toEqual({
      ...Object.fromEntries(PACK_KEYS.map((key, index) => [key, `s${index}`])),
      [`line ${count + 1}`]: `s${count}`,
    });
  });
});

describe('a widget’s identity and a message’s length', () => {
  it('name the bot, the proxy and the instance, and count code points', () => {
    const config = { botId: 'b', proxyUrl: '/p' } as Schema.WidgetConfig;
    expect(schema.widgetKey(config)).toBe('b@/p');
    expect(schema.widgetKey({ ...config, instance: 'i' })).toBe('b@/p#i');
    expect(schema.messageLength('a😀b')).toBe(3);
  });
});

import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Schema from '../../../src/config/schema';

/**
 * The English strings and the defaults: every string a visitor reads is written out, and every default is the one
 * the README documents. An emptied string or a changed default fails a test here.
 */

// Imported afresh for each test: the strings and defaults are built when the modules load, and a runner that
// keeps modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not
// once per file, so that Stryker counts the load towards the test that checks it.
let schema: typeof Schema;
beforeEach(async () => {
  vi.resetModules();
  schema = await import('../../../src/config/schema');
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
    expect(Object.keys(strings)).toHaveLength(44);
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
      'greetingDelay',
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

describe('the limits', () => {
  /** The README's attribute row for `data-<key>`, whole. */
  const row = (key: string) => readme.match(new RegExp(`^\\| \`data-${key}\` .+$`, 'm'))?.[0];

  it('are the ones the README documents: the stream timeout’s range and the number of focus documents', () => {
    const [min, max] = schema.STREAM_TIMEOUT_RANGE;
    expect(row('stream-timeout')).toContain(`(${min}–${max})`);
    expect(row('document-ids')).toContain(`(≤ ${schema.MAX_DOCUMENT_IDS})`);
  });
});

describe('a widget’s identity and a message’s length', () => {
  it('name the bot, the proxy and the instance', () => {
    const config = { botId: 'b', proxyUrl: '/p' } as Schema.WidgetConfig;
    expect(schema.widgetKey(config)).toBe('b@/p');
    expect(schema.widgetKey({ ...config, instance: 'i' })).toBe('b@/p#i');
  });

  it('counts characters as the service does: an emoji (two UTF-16 units) once', () => {
    expect(schema.messageLength('')).toBe(0);
    expect(schema.messageLength('abc')).toBe(3);
    expect(schema.messageLength('a😀b')).toBe(3);
  });
});

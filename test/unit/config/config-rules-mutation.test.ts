import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Locale from '../../../src/config/locale';
import type * as Parse from '../../../src/config/parse';
import type * as Paths from '../../../src/config/paths';

/**
 * The config's allowlists and patterns, each at its edge (found by Stryker, issue 18): the language tag read before a
 * locale pack is fetched by name, the languages and their direction, the page-rule patterns, and the settings that
 * take one of a few words. One more entry, a wider class or a lost anchor fails a test here.
 */

// Imported afresh for each test: the lists and patterns are built when the modules load, and a runner that keeps
// modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once
// per file, so that Stryker counts the load towards the test that checks it.
let locale: typeof Locale;
let parse: typeof Parse;
let paths: typeof Paths;
beforeEach(async () => {
  vi.resetModules();
  locale = await import('../../../src/config/locale');
  parse = await import('../../../src/config/parse');
  paths = await import('../../../src/config/paths');
});

describe('a language tag', () => {
  it.each([
    ['de', 'de'],
    ['DE-ch', 'de-CH'],
    ['fil-PH', 'fil-PH'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['es-419', 'es-419'],
    ['en_GB', 'en-GB'],
    ['sr-Latn', 'sr-Latn'],
    ['de-CH-1996', 'de-CH'],
    ['en-US-x-twain', 'en-US'],
    // Either case in every part, private use included.
    ['EN-us-X-Twain', 'en-US'],
    ['ZH-HANT-tw', 'zh-Hant-TW'],
    ['iw', 'he'],
    [' pt-br ', 'pt-BR'],
    // A subtag that is no region (two letters or three digits) is a variant, left aside.
    ['de-C', 'de'],
    ['de-CHE', 'de'],
    ['de-12', 'de'],
    ['de-1234', 'de'],
    ['de-Latn1', 'de'],
  ])('%j reads as %j', (tag, canonical) => {
    expect(locale.canonicalTag(tag)).toBe(canonical);
  });

  it.each(['d', 'deut', '1e', 'de-', 'de-toolongvariant', 'de-CH-', 'de/../x', 'x-de', 'de CH', ''])(
    '%j is no language tag',
    (tag) => {
      expect(locale.canonicalTag(tag)).toBeUndefined();
    },
  );
});

describe('the languages Askbox speaks', () => {
  const ALL = ['en', 'ar', 'de', 'es', 'fr', 'he', 'it', 'ja', 'nl', 'pl', 'pt', 'zh'];

  it.each(ALL)('speaks %s, right to left only in Arabic and Hebrew', (language) => {
    expect(locale.LANGUAGES).toEqual(ALL);
    const dir = language === 'ar' || language === 'he' ? 'rtl' : 'ltr';
    expect(locale.resolveLocale(undefined, [`${language}-XY`])).toEqual({ tag: `${language}-XY`, language, dir });
  });

  it('falls back to English for another language, and formats dates in the requested one', () => {
    expect(locale.resolveLocale(undefined, ['sv', 'fa'])).toEqual({ tag: 'en', language: 'en', dir: 'ltr' });
    expect(locale.resolveLocale('fa', ['de'])).toEqual({ tag: 'fa', language: 'en', dir: 'ltr' });
  });

  it.each([
    ['ar', 'الدردشة'],
    ['he', 'צ׳אט'],
    ['ja', 'チャット'],
    ['pl', 'Czat'],
    ['zh', '聊天'],
    ['de', 'Chat'],
  ])('names the launcher in %s before any pack: %s', (language, name) => {
    expect(locale.launcherLocaleText(language).text.launcher).toBe(name);
    expect(locale.localeText(language).text.launcher).toBe(name);
  });

  it('reads a pack’s string without the blanks around it, and own keys only', () => {
    const pack = JSON.parse('{"send":" Senden ","__proto__":"x"}') as Record<string, string>;
    expect(locale.packString(pack, 'send')).toBe('Senden');
    expect(locale.packString(pack, 'close')).toBeUndefined();
    expect(locale.packString({}, 'constructor')).toBeUndefined();
  });
});

describe('page rules', () => {
  const parsed = (value: unknown) => {
    const failed: string[] = [];
    return { patterns: paths.parsePaths(value, (message) => void failed.push(message)), failed };
  };

  it('takes paths separated by commas or blanks, and a list from mount()', () => {
    expect(parsed('/a,/b  /c,\n/d')).toEqual({ patterns: ['/a', '/b', '/c', '/d'], failed: [] });
    expect(parsed(['/a', '/b'])).toEqual({ patterns: ['/a', '/b'], failed: [] });
    expect(parsed(null)).toEqual({ patterns: [], failed: [] });
    expect(parsed('/größe/*')).toEqual({ patterns: ['/gr%C3%B6%C3%9Fe/*'], failed: [] });
    expect(parsed('/ä-ö')).toEqual({ patterns: ['/%C3%A4-%C3%B6'], failed: [] });
    // A character beyond the BMP is two UTF-16 units, encoded together (either alone is a lone surrogate).
    expect(parsed('/😀/*')).toEqual({ patterns: ['/%F0%9F%98%80/*'], failed: [] });
  });

  it.each(['/a?b', '/a#b', '/:id', '/(x)', '/{x}', '/a\\b', 'a/b'])('refuses %j', (pattern) => {
    expect(parsed(pattern).failed).toEqual([`"${pattern}" is not a path pattern such as "/checkout/*"`]);
  });

  it.each([
    ['/a*b*c', '/axbxc', true],
    ['/a*b*c', '/abc', true],
    ['/a*bc*c', '/abc', false],
    ['/a*b*b', '/ab', false],
    ['/x*y*z*', '/xyz', true],
    ['/x*y*z*', '/xzy', false],
    ['*/b/*', '/a/b/c', true],
    ['*/b/*', '/b/', true],
    ['/*ab*ba', '/aba', false],
    ['/*a*a*', '/a', false],
    ['/*a*a*', '/aa', true],
  ])('%s against %s: %s', (pattern, path, matched) => {
    expect(paths.matchesPath(pattern, path)).toBe(matched);
  });
});

describe('the settings that take one of a few words', () => {
  const base = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };
  const config = (input: Record<string, unknown>) => parse.parseConfig({ ...base, ...input });

  it.each([
    ['position', ['bottom-right', 'bottom-left'], ['top-right', 'bottom']],
    ['dir', ['ltr', 'rtl'], ['auto', 'RTL']],
    ['mode', ['bubble', 'inline'], ['popup', 'Inline']],
  ])('%s takes exactly %j', (key, valid, invalid) => {
    const input = (value: string) => ({ [key]: value, target: '#chat' });
    for (const value of valid) expect(config(input(value)).config?.[key as 'dir']).toBe(value);
    for (const value of invalid)
      expect(config(input(value)).issues).toEqual([{ key, message: `"${value}" must be one of ${valid.join(', ')}` }]);
  });

  it('takes one UI string per data-text-<key> attribute, and nothing else that starts with text', () => {
    const given = { ...base, textSend: 'Go', textErrorsNetwork: 'Offline', textErrors: 'x', text: '{}' };
    const result = parse.parseConfig(given);
    expect(result.config?.text.send).toBe('Go');
    expect(result.config?.text.errors.network).toBe('Offline');
    // A bare data-text-errors names no string: the errors stay strings by kind.
    expect(typeof result.config?.text.errors).toBe('object');
    expect(result.config?.text).not.toHaveProperty('Errors');
    const other = parse.parseConfig({ ...base, textsend: 'Go', context: 'x' });
    expect(other.config?.text.send).toBe(parse.parseConfig(base).config?.text.send);
    expect(other.unknown).toEqual(['textsend', 'context']);
  });

  it('reads no UI string from a key that only has text or errors inside it', () => {
    const result = parse.parseConfig({ ...base, contextMenu: 'x', textXerrorsNetwork: 'y' });
    expect(result.issues).toBeUndefined();
    expect(result.unknown).toEqual(['contextMenu', 'textXerrorsNetwork']);
    expect(result.config?.text).toEqual(parse.parseConfig(base).config?.text);
  });
});

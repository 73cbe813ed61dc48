import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Locale from '../../../src/config/locale';

// Language tags and the language the UI speaks: the tag read before a locale pack is fetched by name (each part
// one step past its bounds), the languages Askbox speaks and their direction, and the launcher's name in each.

// Imported afresh for each test: module-level constants are built when a module loads, and a runner that keeps
// modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once
// per file, so that Stryker counts the load towards the test that checks it.
let canonicalTag: typeof Locale.canonicalTag;
let LANGUAGES: typeof Locale.LANGUAGES;
let launcherLocaleText: typeof Locale.launcherLocaleText;
let localeText: typeof Locale.localeText;
let packString: typeof Locale.packString;
let resolveLocale: typeof Locale.resolveLocale;
beforeEach(async () => {
  vi.resetModules();
  ({ canonicalTag, LANGUAGES, launcherLocaleText, localeText, packString, resolveLocale } =
    await import('../../../src/config/locale'));
});

describe('canonicalTag', () => {
  it.each([
    ['de', 'de'],
    ['DE-ch', 'de-CH'],
    [' pt-br ', 'pt-BR'],
    ['en_GB', 'en-GB'],
    ['fil-PH', 'fil-PH'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['es-419', 'es-419'],
    ['sr-Latn', 'sr-Latn'],
    ['iw', 'he'],
    ['de-DE-u-co-phonebk', 'de-DE'],
    ['de-CH-1996', 'de-CH'],
    ['en-US-x-twain', 'en-US'],
    // Either case in every part, private use included.
    ['EN-us-X-Twain', 'en-US'],
    ['ZH-HANT-tw', 'zh-Hant-TW'],
    ['DE-latn-de', 'de-Latn-DE'],
    // One step past each part's bounds: language 2–3 letters, script 4, region 2 letters or 3 digits, subtags ≤ 8.
    ['abc', 'abc'],
    ['abcd', undefined],
    ['d', undefined],
    ['deut', undefined],
    ['1de', undefined],
    ['1e', undefined],
    ['x-de', undefined],
    // A subtag that is no region (two letters or three digits) is a variant, left aside.
    ['de-C', 'de'],
    ['de-CHE', 'de'],
    ['de-Latn1', 'de'],
    ['de-12', 'de'],
    ['de-1234', 'de'],
    ['de-x-abcdefgh', 'de'],
    ['de-x-abcdefghi', undefined],
    ['de-toolongvariant', undefined],
    ['de-', undefined],
    ['de--x', undefined],
    ['de-CH-', undefined],
    ['de-CH!', undefined],
    ['en_US!', undefined],
    ['de/../x', undefined],
    ['de CH', undefined],
    ['english', undefined],
    ['x', undefined],
    ['', undefined],
  ])('reads %j as %j, which Intl accepts', (tag, canonical) => {
    expect(canonicalTag(tag)).toBe(canonical);
    if (canonical) expect(Intl.getCanonicalLocales(canonical)).toEqual([canonical]);
  });
});

/** A left-to-right locale: its tag and the language of its strings. */
const ltr = (tag: string, language: string) => ({ tag, language, dir: 'ltr' });
/** A right-to-left language, spoken as itself. */
const rtl = (tag: string) => ({ tag, language: tag, dir: 'rtl' });

describe('resolveLocale', () => {
  it.each([
    [undefined, [], ltr('en', 'en')],
    [undefined, ['x'], ltr('en', 'en')],
    [undefined, ['de-CH', 'fr'], ltr('de-CH', 'de')],
    [undefined, ['sv', 'nb-NO', 'pt-br'], ltr('pt-BR', 'pt')],
    [undefined, ['en_GB'], ltr('en-GB', 'en')],
    [undefined, ['not a tag', 'iw'], rtl('he')],
    [undefined, ['sv', 'fa'], ltr('en', 'en')],
    [undefined, ['ar', 'de'], rtl('ar')],
    [undefined, ['de', 'ar'], ltr('de', 'de')],
    ['fr', ['de'], ltr('fr', 'fr')],
    ['he', [], rtl('he')],
    // A requested language without strings: English words, its own dates and numbers.
    ['sv-SE', ['de'], ltr('sv-SE', 'en')],
    ['sv-SE', ['he'], ltr('sv-SE', 'en')],
    ['fa', ['de'], ltr('fa', 'en')],
  ])('requested %j on a page preferring %j: %j', (requested, languages, locale) => {
    expect(resolveLocale(requested, languages)).toEqual(locale);
  });
});

describe('the languages Askbox speaks', () => {
  const ALL = ['en', 'ar', 'de', 'es', 'fr', 'he', 'it', 'ja', 'nl', 'pl', 'pt', 'zh'];

  it.each(ALL)('speaks %s, right to left only in Arabic and Hebrew', (language) => {
    expect(LANGUAGES).toEqual(ALL);
    const dir = language === 'ar' || language === 'he' ? 'rtl' : 'ltr';
    expect(resolveLocale(undefined, [`${language}-XY`])).toEqual({ tag: `${language}-XY`, language, dir });
  });

  it.each([
    ['ar', 'الدردشة'],
    ['he', 'צ׳אט'],
    ['ja', 'チャット'],
    ['pl', 'Czat'],
    ['zh', '聊天'],
    ['de', 'Chat'],
  ])('names the launcher in %s before any pack: %s', (language, name) => {
    expect(launcherLocaleText(language).text.launcher).toBe(name);
    expect(localeText(language).text.launcher).toBe(name);
  });

  it('reads a pack’s string without the blanks around it, and own keys only', () => {
    const pack = JSON.parse('{"send":" Senden ","__proto__":"x"}') as Record<string, string>;
    expect(packString(pack, 'send')).toBe('Senden');
    expect(packString(pack, 'close')).toBeUndefined();
    expect(packString({}, 'constructor')).toBeUndefined();
  });
});

import { describe, expect, it, vi } from 'vitest';

// Imported afresh: module-level constants are built when a module loads, and a runner that keeps modules loaded
// between runs (as Stryker's does for mutants of such constants) would otherwise test the copy it loaded first.
vi.resetModules();
const { canonicalTag, LANGUAGES, LAUNCHER_TEXT, lineKeys, localeText, parsePack, resolveLocale, withEnglish } =
  await import('../../src/config/locale');
const { parseConfig, parseLauncherConfig } = await import('../../src/config/parse');
const { TABLES } = await import('../../src/config/locales/index');
const { DEFAULT_TEXT, DEFAULTS } = await import('../../src/config/schema');
const { CHAT_TEXT, toChatText, unknownTextKeys } = await import('../../src/config/chat-text');

/** A language's table as the lines of its locale pack. */
const lines = (language: string) => TABLES[language]?.trim().split('\n') ?? [];

const minimal = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };
const english = localeText('en');

/** Every string of a locale, by the key of its table line. */
function flat(language: string): Record<string, string> {
  const { text, title, welcome, placeholder } = localeText(language, lines(language));
  const { errors, ...strings } = text;
  return {
    ...strings,
    ...Object.fromEntries(Object.entries(errors).map(([key, value]) => [`errors.${key}`, value])),
    title,
    welcome,
    placeholder,
  };
}

describe('locales', () => {
  it('offers the twelve languages the issue names, two of them right-to-left', () => {
    expect([...LANGUAGES].sort()).toEqual(['ar', 'de', 'en', 'es', 'fr', 'he', 'it', 'ja', 'nl', 'pl', 'pt', 'zh']);
    expect(LANGUAGES.filter((l) => resolveLocale(l, []).dir === 'rtl').sort()).toEqual(['ar', 'he']);
  });

  it('English is the defaults themselves', () => {
    expect(english).toEqual({ text: DEFAULT_TEXT, ...DEFAULTS_SHOWN, chatLines: [] });
    expect(toChatText(english.chatLines)).toEqual(CHAT_TEXT);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    '%s has every string of the chat file, translated, after the launcher’s (issue 23)',
    (language) => {
      const keys = Object.keys(CHAT_TEXT) as (keyof typeof CHAT_TEXT)[];
      expect(lines(language)).toHaveLength(lineKeys().length + keys.length);
      const { chatLines } = localeText(language, lines(language));
      expect(chatLines).toHaveLength(keys.length);
      const text = toChatText(chatLines);
      for (const key of keys) {
        expect(text[key].trim(), `${language} ${key}`).not.toBe('');
        expect(text[key], `${language} ${key} is English`).not.toBe(CHAT_TEXT[key]);
      }
      // What the launcher hands the chat file: the pack's last lines, through parseConfig.
      const { config } = parseConfig({ ...minimal, locale: language }, { tables: TABLES });
      expect(toChatText(config!.chatLines)).toEqual(text);
    },
  );

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every string, translated, with its placeholders', (language) => {
    const strings = flat(language);
    const englishStrings = flat('en');
    expect(Object.keys(strings)).toEqual(lineKeys());
    for (const key of lineKeys()) {
      const value = strings[key]!;
      expect(value.trim(), `${language} ${key}`).not.toBe('');
      // "Chat" is the word in most of these languages too.
      if (key !== 'launcher') expect(value, `${language} ${key} is English`).not.toBe(englishStrings[key]);
      expect(value.match(/\{\w+\}/g) ?? [], `${language} ${key} placeholders`).toEqual(
        englishStrings[key]!.match(/\{\w+\}/g) ?? [],
      );
    }
  });
});

const DEFAULTS_SHOWN = { title: DEFAULTS.title, welcome: DEFAULTS.welcome, placeholder: DEFAULTS.placeholder };

describe('before its pack arrives', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    '%s names the launcher as its pack does, the rest in English',
    (language) => {
      const bare = localeText(language).text;
      const full = localeText(language, lines(language)).text;
      expect(bare.launcher).toBe(full.launcher);
      expect({ ...bare, launcher: '' }).toEqual({ ...DEFAULT_TEXT, launcher: '' });
    },
  );

  it('reads a table’s lines without the spaces around them', () => {
    const padded = lines('de').map((line) => `  ${line}  `);
    const { chatLines, ...rest } = localeText('de', padded);
    const { chatLines: plainLines, ...plain } = localeText('de', lines('de'));
    expect(rest).toEqual(plain);
    expect(toChatText(chatLines)).toEqual(toChatText(plainLines));
  });

  it('takes a fetched pack only when it is at least a table of strings', () => {
    expect(parsePack(lines('de'))).toEqual(lines('de'));
    // The launcher's part alone is a pack too (the chat file's strings then read in English).
    const good = lines('de').slice(0, lineKeys().length);
    expect(parsePack(good)).toEqual(good);
    expect(parsePack(good.slice(1))).toBeUndefined();
    expect(parsePack([...good.slice(1), 42])).toBeUndefined();
    expect(parsePack([...good.slice(1), ' '])).toBeUndefined();
    expect(parsePack([...good.slice(1), 'x'.repeat(501)])).toBeUndefined();
    expect(parsePack([...good.slice(1), 'x'.repeat(500)])).toHaveLength(good.length);
    expect(parsePack({ de: good })).toBeUndefined();
  });
});

describe('canonicalTag', () => {
  it.each([
    ['de', 'de'],
    [' pt-br ', 'pt-BR'],
    ['en_GB', 'en-GB'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['es-419', 'es-419'],
    ['iw', 'he'],
    ['de-DE-u-co-phonebk', 'de-DE'],
    ['en_US!', undefined],
    ['english', undefined],
    ['', undefined],
    ['x', undefined],
    // One step past each part's bounds: language 2–3 letters, script 4, region 2 letters or 3 digits, subtags ≤ 8.
    ['abc', 'abc'],
    ['abcd', undefined],
    ['1de', undefined],
    ['x-de', undefined],
    ['DE-latn-de', 'de-Latn-DE'],
    ['de-Latn1', 'de'],
    ['de-12', 'de'],
    ['de-1234', 'de'],
    ['de-x-abcdefgh', 'de'],
    ['de-x-abcdefghi', undefined],
    ['de-', undefined],
    ['de--x', undefined],
    ['de-CH!', undefined],
  ])('reads %j as %j, which Intl accepts', (tag, canonical) => {
    expect(canonicalTag(tag)).toBe(canonical);
    if (canonical) expect(Intl.getCanonicalLocales(canonical)).toEqual([canonical]);
  });
});

describe('resolveLocale', () => {
  it.each([
    [undefined, [], 'en', 'en'],
    [undefined, ['de-CH', 'fr'], 'de-CH', 'de'],
    [undefined, ['sv', 'nb-NO', 'pt-br'], 'pt-BR', 'pt'],
    [undefined, ['en_GB'], 'en-GB', 'en'],
    [undefined, ['not a tag', 'iw'], 'he', 'he'],
    [undefined, ['sv'], 'en', 'en'],
    ['fr', ['de'], 'fr', 'fr'],
    // A requested language without strings: English words, Swedish dates and numbers.
    ['sv-SE', ['de'], 'sv-SE', 'en'],
  ])('requested %j on a page preferring %j speaks %s (%s strings)', (requested, languages, tag, language) => {
    expect(resolveLocale(requested, languages)).toMatchObject({ tag, language });
  });
});

describe('parseConfig and languages', () => {
  it('speaks data-locale, else the page’s languages, with that language’s defaults and direction', () => {
    const german = parseConfig({ ...minimal, locale: 'de' }, { languages: ['fr'], tables: TABLES }).config;
    expect(german).toMatchObject({
      locale: 'de',
      dir: 'ltr',
      title: 'Fragen Sie uns',
      placeholder: 'Ihre Frage…',
    });
    expect(german?.text.send).toBe('Senden');
    expect(parseConfig(minimal, { languages: ['ar-EG', 'en'], tables: TABLES }).config).toMatchObject({
      locale: 'ar-EG',
      dir: 'rtl',
    });
    expect(parseConfig({ ...minimal, dir: 'ltr' }, { languages: ['he'], tables: TABLES }).config?.dir).toBe('ltr');
    expect(parseConfig(minimal).config).toMatchObject({ locale: 'en', dir: 'ltr', title: DEFAULTS.title });
  });

  it('lets data-title and the like win over the language’s defaults', () => {
    expect(parseConfig({ ...minimal, locale: 'de', title: 'Hilfe' }).config?.title).toBe('Hilfe');
  });

  it('overrides one string per data-text-* attribute, over data-text and the language', () => {
    const { config, unknown } = parseConfig(
      {
        ...minimal,
        locale: 'de',
        text: '{"send":"Los","retry":"Nochmal"}',
        textSend: 'Abschicken',
        textErrorsNetwork: 'Offline.',
        textErrorsRate_limit: 'Langsam.',
        textSendd: 'typo',
        textErrors: 'not a string key',
      },
      { tables: TABLES },
    );
    expect(config?.text).toMatchObject({
      send: 'Abschicken',
      retry: 'Nochmal',
      close: 'Schließen',
      errors: {
        network: 'Offline.',
        rate_limit: 'Langsam.',
        http: 'Etwas ging schief.',
      },
    });
    expect(unknown).toEqual(['textSendd', 'textErrors']);
    expect(parseConfig({ ...minimal, textSend: '  ' }).issues).toEqual([
      { key: 'text', message: expect.stringContaining('text.send must be a non-empty string') },
    ]);
  });

  it('refuses a data-locale that is not a language tag, and a direction that is not ltr or rtl', () => {
    expect(parseConfig({ ...minimal, locale: 'en_US!' }).issues).toEqual([
      { key: 'locale', message: '"en_US!" is not a language tag (e.g. "de" or "pt-BR")' },
    ]);
    expect(parseConfig({ ...minimal, dir: 'up' }).issues?.[0]?.key).toBe('dir');
  });
});

describe('the launcher’s English and the chat file’s', () => {
  it('has every key of DEFAULT_TEXT in its order, with its English where the launcher draws it and "" elsewhere', () => {
    const { errors, ...strings } = LAUNCHER_TEXT;
    const { errors: englishErrors, ...englishStrings } = DEFAULT_TEXT;
    expect(Object.keys(strings)).toEqual(Object.keys(englishStrings));
    expect(Object.keys(errors)).toEqual(Object.keys(englishErrors));
    const drawn = Object.entries(strings).filter(([, value]) => value !== '');
    expect(drawn.map(([key]) => key)).toEqual(['launcher', 'close', 'retry', 'unread', 'loading', 'loadFailed']);
    for (const [key, value] of drawn) expect(value).toBe(englishStrings[key as keyof typeof englishStrings]);
    expect(Object.values(errors)).toEqual(Object.values(errors).map(() => ''));
  });

  it.each([
    ['English', {}, {}],
    ['English with overrides', { textSend: 'Go', text: '{"errors":{"network":"Offline."}}' }, {}],
    ['German', { locale: 'de' }, { tables: TABLES }],
    ['German without its pack', { locale: 'de' }, {}],
  ])('completed by the chat file, reads as parseConfig does: %s', (_, input, env) => {
    const launcher = parseLauncherConfig({ ...minimal, ...input }, env).config!;
    expect(withEnglish(launcher)).toEqual(parseConfig({ ...minimal, ...input }, env).config);
  });

  it('leaves the chat’s strings to the chat file, which names the unknown text keys parseConfig names', () => {
    const input = { ...minimal, textSendd: 'x', textMenu: 'Mehr', text: '{"sendd":"y","back":"Zurück"}' };
    const { config, unknown } = parseLauncherConfig(input);
    expect(config?.text.send).toBe('');
    expect(config?.text.launcher).toBe('Chat');
    // The launcher does not know the chat file's keys (their names would cost it bytes): it names none.
    expect(unknown).toEqual([]);
    expect(unknownTextKeys(config!.input)).toEqual(['textSendd', 'text.sendd']);
    expect(parseConfig(input).unknown).toEqual(['textSendd', 'text.sendd']);
  });

  it('overrides the chat file’s strings as the launcher’s: data-text-<key> over data-text, in any language', () => {
    const input = {
      ...minimal,
      locale: 'de',
      textConversations: 'Ihre Gespräche',
      textDeleteAction: '  ',
      text: JSON.stringify({ back: 'Zurück, bitte', conversations: 'lost', menu: 'x'.repeat(501) }).replace(
        '{',
        '{"__proto__":"p",',
      ),
    };
    const { config } = parseLauncherConfig(input, { tables: TABLES });
    const german = toChatText(config!.chatLines);
    const text = toChatText(config!.chatLines, config!.input);
    expect(text).toEqual({ ...german, conversations: 'Ihre Gespräche', back: 'Zurück, bitte' });
    expect(toChatText([], { text: { cancel: 'Stop' } }).cancel).toBe('Stop');
    expect(unknownTextKeys(input)).toEqual(['text.__proto__']);
    expect(unknownTextKeys({ textErrorsNetwork: 'x', textErrorsNetwerk: 'y', text: { errors: { htp: 1 } } })).toEqual([
      'textErrorsNetwerk',
      'text.errors.htp',
    ]);
  });
});

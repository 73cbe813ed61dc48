import { describe, expect, it, vi } from 'vitest';

// Imported afresh: module-level constants are built when a module loads, and a runner that keeps modules loaded
// between runs (as Stryker's does for mutants of such constants) would otherwise test the copy it loaded first.
vi.resetModules();
const { LANGUAGES, LAUNCHER_TEXT, localeText, parsePack, resolveLocale } = await import('../../../src/config/locale');
const { parseConfig, parseLauncherConfig } = await import('../../../src/config/parse');
const { PACK_KEYS, TABLES } = await import('../../../src/config/locales/index');
const { DEFAULT_TEXT, DEFAULTS } = await import('../../../src/config/schema');
const { CHAT_TEXT, localize, toChatText, unknownTextKeys } = await import('../../../src/config/chat-text');

/** A language's locale pack. */
const pack = (language: string) => TABLES[language] ?? {};
/** The keys of a pack the launcher's parser reads: all but the chat file's own strings. */
const launcherKeys = PACK_KEYS.filter((key) => !Object.hasOwn(CHAT_TEXT, key));

const minimal = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };
const english = localeText('en');

/** Every string of a locale, by the key of its table line. */
function flat(language: string): Record<string, string> {
  const { text, title, welcome, placeholder } = localeText(language, pack(language));
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
    expect(english).toEqual({ text: DEFAULT_TEXT, ...DEFAULTS_SHOWN });
    expect(toChatText({})).toEqual(CHAT_TEXT);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    '%s has every string of the chat file, translated, after the launcher’s (issue 23)',
    (language) => {
      const keys = Object.keys(CHAT_TEXT) as (keyof typeof CHAT_TEXT)[];
      // One line of the source table per key: a line too many or too few shows as a key more or less.
      expect(Object.keys(pack(language))).toEqual(PACK_KEYS);
      const text = toChatText(pack(language));
      for (const key of keys) {
        expect(text[key].trim(), `${language} ${key}`).not.toBe('');
        expect(text[key], `${language} ${key} is English`).not.toBe(CHAT_TEXT[key]);
      }
      // What the launcher hands the chat file: the pack itself, through parseConfig.
      const { config } = parseConfig({ ...minimal, locale: language }, { tables: TABLES });
      expect(toChatText(config!.pack)).toEqual(text);
    },
  );

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every string, translated, with its placeholders', (language) => {
    const strings = flat(language);
    const englishStrings = flat('en');
    expect(Object.keys(strings)).toEqual(launcherKeys);
    for (const key of launcherKeys) {
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
      const full = localeText(language, pack(language)).text;
      expect(bare.launcher).toBe(full.launcher);
      expect({ ...bare, launcher: '' }).toEqual({ ...DEFAULT_TEXT, launcher: '' });
    },
  );

  it('reads a pack’s strings without the spaces around them', () => {
    const padded = Object.fromEntries(Object.entries(pack('de')).map(([key, value]) => [key, `  ${value}  `]));
    expect(localeText('de', padded)).toEqual(localeText('de', pack('de')));
    expect(toChatText(padded)).toEqual(toChatText(pack('de')));
  });

  it('takes a fetched pack only when it is an object of strings, each non-empty and at most 500 characters', () => {
    const good = pack('de');
    expect(parsePack(good)).toBe(good);
    // A pack may lack keys (they read in English), and may hold keys no string has (they are never read).
    expect(parsePack({})).toEqual({});
    expect(parsePack({ send: 'Senden', sendd: 'Tippfehler' })).toEqual({ send: 'Senden', sendd: 'Tippfehler' });
    expect(parsePack({ ...good, send: 'x'.repeat(500) })).toBeTruthy();
    // The packs of before, lines in the order of their keys, are refused: a reader would take them by position.
    expect(parsePack(Object.values(good))).toBeUndefined();
    for (const bad of [null, 'Senden', 42, { ...good, send: 42 }, { ...good, send: ' ' }, { send: 'x'.repeat(501) }])
      expect(parsePack(bad), JSON.stringify(bad)).toBeUndefined();
    expect(parsePack({ errors: { network: 'Offline.' } })).toBeUndefined();
  });

  it('reads a pack by name, own keys only: `__proto__` and `constructor` are keys like any other, never read', () => {
    const hostile = parsePack(JSON.parse('{"__proto__":"p","constructor":"c","toString":"t","send":"Los"}'))!;
    expect(hostile).toBeTruthy();
    expect(localeText('de', hostile).text).toEqual({ ...DEFAULT_TEXT, send: 'Los' });
    expect(toChatText(hostile)).toEqual(CHAT_TEXT);
  });
});

describe('a pack keyed by name', () => {
  const german = (given: Record<string, string>) => {
    const { config } = parseLauncherConfig({ ...minimal, locale: 'de' });
    return localize({ ...config!, pack: given });
  };
  const full = german(pack('de'));

  it('gives the chat its strings when it is created, from the pack the launcher loaded with it', () => {
    expect(full).toMatchObject({ title: 'Fragen Sie uns', placeholder: 'Ihre Frage…' });
    expect(full.text).toMatchObject({ send: 'Senden', close: 'Schließen', errors: { network: 'Keine Verbindung.' } });
    expect(toChatText(full.pack).menu).toBe('Weitere Aktionen');
  });

  it('reads a key the pack lacks in English, and the rest in its language', () => {
    const { send, 'errors.network': network, title, menu, ...rest } = pack('de');
    const partial = german(rest);
    expect([send, network, title, menu].every(Boolean)).toBe(true);
    expect(partial.text).toEqual({
      ...full.text,
      send: DEFAULT_TEXT.send,
      errors: { ...full.text.errors, network: DEFAULT_TEXT.errors.network },
    });
    expect(partial.title).toBe(DEFAULTS.title);
    expect(toChatText(rest)).toEqual({ ...toChatText(pack('de')), menu: CHAT_TEXT.menu });
  });

  it('maps a reordered pack as it is: by name, not by position', () => {
    const reversed = Object.fromEntries(Object.entries(pack('de')).reverse());
    expect(Object.values(reversed)).not.toEqual(Object.values(pack('de')));
    expect(german(reversed)).toEqual(full);
    expect(toChatText(reversed)).toEqual(toChatText(pack('de')));
  });

  it('keeps the site’s own strings over the pack’s', () => {
    const input = { ...minimal, locale: 'de', title: 'Hilfe', textSend: 'Los', text: { errors: { network: 'Weg.' } } };
    const { config } = parseLauncherConfig(input);
    const chat = localize({ ...config!, pack: pack('de') });
    expect(chat.title).toBe('Hilfe');
    expect(chat.text).toMatchObject({
      send: 'Los',
      close: 'Schließen',
      errors: { network: 'Weg.', http: 'Etwas ging schief.' },
    });
    // An error sentence's own attribute (data-text-errors-http) wins over the pack too.
    const { config: attributed } = parseLauncherConfig({ ...minimal, locale: 'de', textErrorsHttp: 'Kaputt.' });
    expect(localize({ ...attributed!, pack: pack('de') }).text.errors).toMatchObject({
      http: 'Kaputt.',
      network: 'Keine Verbindung.',
    });
  });

  it('reads a blank data-title or data-welcome as none: the pack’s, not English', () => {
    const { config } = parseLauncherConfig({ ...minimal, locale: 'de', title: '  ', welcome: ' ' });
    expect(localize({ ...config!, pack: pack('de') })).toMatchObject({ title: full.title, welcome: full.welcome });
    expect([full.title, full.welcome]).toEqual([pack('de').title, pack('de').welcome]);
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
  it('holds only the strings the launcher draws, in DEFAULT_TEXT’s English', () => {
    const { errors, ...strings } = LAUNCHER_TEXT;
    expect(Object.keys(strings)).toEqual([
      'launcher',
      'close',
      'retry',
      'unread',
      'loading',
      'loadFailed',
      'loadFailedHint',
      'limitContact',
      'dismissGreeting',
    ]);
    for (const [key, value] of Object.entries(strings)) expect(value).toBe(DEFAULT_TEXT[key as keyof typeof strings]);
    expect(errors).toEqual({});
  });

  it.each([
    ['English', {}, {}],
    ['English with overrides', { textSend: 'Go', textLauncher: 'Help', text: '{"errors":{"network":"Offline."}}' }, {}],
    ['German', { locale: 'de' }, { tables: TABLES }],
    ['German with overrides', { locale: 'de', textClose: 'Zu', title: 'Hilfe' }, { tables: TABLES }],
    ['German without its pack', { locale: 'de' }, {}],
  ])('completed by the chat file, reads as parseConfig does: %s', (_, input, env) => {
    const full = parseConfig({ ...minimal, ...input }, env).config!;
    // The launcher parses without packs; the pack comes with the chat, and joins the config when the chat is created.
    const launcher = parseLauncherConfig({ ...minimal, ...input }).config!;
    expect(localize({ ...launcher, pack: full.pack })).toEqual(full);
    expect(localize(full)).toEqual(full);
  });

  it('leaves the chat’s strings to the chat file, which names the unknown text keys parseConfig names', () => {
    const input = { ...minimal, textSendd: 'x', textMenu: 'Mehr', text: '{"sendd":"y","back":"Zurück"}' };
    const { config, unknown } = parseLauncherConfig(input);
    expect(config?.text.send).toBeUndefined();
    expect(config?.text.launcher).toBe('Chat');
    // The launcher does not know the chat file's keys (their names would cost it bytes): it names none.
    expect(unknown).toEqual([]);
    expect(unknownTextKeys(config!.input).unknown).toEqual(['textSendd', 'text.sendd']);
    expect(parseConfig(input).unknown).toEqual(['textSendd', 'text.sendd']);
    expect(localize(config!).text.send).toBe(DEFAULT_TEXT.send);
  });

  it('checks every text override, of a key it knows or not, without a list of keys', () => {
    const issues = (input: object) => parseLauncherConfig({ ...minimal, ...input }).issues?.map((i) => i.message);
    expect(issues({ textDeleteAction: '  ' })).toEqual([expect.stringContaining('text.deleteAction must be')]);
    expect(issues({ text: { menu: 'x'.repeat(501) } })).toEqual([expect.stringContaining('text.menu must be')]);
    expect(issues({ textErrorsNetwork: '' })).toEqual([expect.stringContaining('text.errors.network must be')]);
    expect(issues({ textSend: 'Go', text: { menu: 'Mehr', errors: { http: 'Oops.' } } })).toBeUndefined();
  });

  it('overrides the chat file’s strings as the launcher’s: data-text-<key> over data-text, in any language', () => {
    const input = {
      ...minimal,
      locale: 'de',
      textConversations: 'Ihre Gespräche',
      text: JSON.stringify({ back: 'Zurück, bitte', conversations: 'lost' }).replace('{', '{"__proto__":"p",'),
    };
    const { config } = parseLauncherConfig(input, { tables: TABLES });
    const german = toChatText(config!.pack);
    const text = toChatText(config!.pack, config!.input);
    expect(text).toEqual({ ...german, conversations: 'Ihre Gespräche', back: 'Zurück, bitte' });
    expect(toChatText({}, { text: { cancel: 'Stop' } }).cancel).toBe('Stop');
    expect(unknownTextKeys(input).unknown).toEqual(['text.__proto__']);
    const typos = { textErrorsNetwork: 'x', textErrorsNetwerk: 'y', text: { errors: { htp: 1 } } };
    expect(unknownTextKeys(typos).unknown).toEqual(['textErrorsNetwerk', 'text.errors.htp']);
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Parse from '../../../src/config/parse';
import type * as Schema from '../../../src/config/schema';
import { DEFAULTS, MAX_DOCUMENT_IDS } from '../../../src/config/schema';
import { WIDGET_RULES } from '../../../src/protocol/contract';

// Imported afresh for each test: module-level constants are built when a module loads, and a runner that keeps
// modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once
// per file, so that Stryker counts the load towards the test that checks it.
let parseConfig: typeof Parse.parseConfig;
// The English strings the parser itself holds (a config without overrides holds them, not a copy).
let DEFAULT_TEXT: typeof Schema.DEFAULT_TEXT;
beforeEach(async () => {
  vi.resetModules();
  ({ parseConfig } = await import('../../../src/config/parse'));
  ({ DEFAULT_TEXT } = await import('../../../src/config/schema'));
});

const minimal = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };
const documentIdList = (n: number) => Array.from({ length: n }, (_, i) => `doc${i}`);

describe('parseConfig', () => {
  it('accepts the minimal tag and fills every default', () => {
    const { config, issues } = parseConfig(minimal);
    expect(issues).toBeUndefined();
    expect(config).toMatchObject({
      ...minimal,
      ...DEFAULTS,
      accent: undefined,
      documentIds: [],
      styleNonce: undefined,
    });
  });

  it('reads data-attribute strings: booleans, lists, trimming, trailing slashes', () => {
    const { config } = parseConfig({
      ...minimal,
      proxyUrl: ' https://chat.example.com/askbox/ ',
      open: '',
      theme: 'dark',
      position: 'bottom-left',
      accent: '#0b57d0',
      documentIds: ' Jw31Pv6PMmro, N1aM886nGeWm ,',
      title: '  Help  ',
      conversationName: 'Shop visitor',
    });
    expect(config).toMatchObject({
      proxyUrl: 'https://chat.example.com/askbox',
      open: true,
      theme: 'dark',
      position: 'bottom-left',
      accent: '#0b57d0',
      documentIds: ['Jw31Pv6PMmro', 'N1aM886nGeWm'],
      title: 'Help',
      conversationName: 'Shop visitor',
    });
    expect(parseConfig({ ...minimal, open: 'false' }).config?.open).toBe(false);
    expect(parseConfig({ ...minimal, open: true }).config?.open).toBe(true);
  });

  it('collects every issue at once, each naming its key', () => {
    const { issues } = parseConfig({
      proxyUrl: 'askbox',
      position: 'top',
      theme: 'neon',
      open: 'yes',
      accent: 'red;}body{x:y',
      documentIds: 'ok,not ok',
    });
    expect(issues?.map((i) => i.key).sort()).toEqual([
      'accent',
      'botId',
      'documentIds',
      'open',
      'position',
      'proxyUrl',
      'theme',
    ]);
    expect(issues?.find((i) => i.key === 'botId')?.message).toMatch(/required/);
    expect(issues?.find((i) => i.key === 'position')?.message).toContain('bottom-right, bottom-left');
  });

  it.each([
    ['#fff'],
    ['#0b57d0'],
    ['#0b57d0cc'],
    ['rebeccapurple'],
    ['rgb(10, 20, 30)'],
    ['hsl(210 50% 40% / 0.8)'],
    ['oklch(0.6 0.2 250)'],
  ])('accepts the colour %s', (accent) => {
    expect(parseConfig({ ...minimal, accent }).issues).toBeUndefined();
  });

  it.each([
    ['red;background:url(x)'],
    ['#12345'],
    ['expression(alert(1))'],
    ['red}:host{display:none'],
    ['"red"'],
    ['url(javascript:x)'],
    ['var(--x)'],
  ])('refuses the colour %s (it is interpolated into CSS)', (accent) => {
    expect(parseConfig({ ...minimal, accent }).issues?.[0]?.key).toBe('accent');
  });

  it('takes the text colour on the accent and the direction, validated like the accent and the theme', () => {
    expect(parseConfig({ ...minimal, accentText: ' #111 ', dir: 'rtl' }).config).toMatchObject({
      accentText: '#111',
      dir: 'rtl',
    });
    expect(parseConfig(minimal).config).toMatchObject({ accentText: undefined, dir: 'ltr' });
    expect(parseConfig({ ...minimal, accentText: 'red;}x{', dir: 'up' }).issues).toEqual([
      { key: 'accentText', message: '"red;}x{" is not a CSS colour (use e.g. "#0b57d0")' },
      { key: 'dir', message: '"up" must be one of ltr, rtl' },
    ]);
  });

  it('bounds lengths and the number of focus documents', () => {
    const { titleMax, conversationNameMax } = WIDGET_RULES;
    expect(parseConfig({ ...minimal, title: 'x'.repeat(titleMax + 1) }).issues?.[0]?.key).toBe('title');
    // The proxy forwards a conversation name of at most this length: a longer one is refused here, not cut there.
    const named = (length: number) => parseConfig({ ...minimal, conversationName: 'n'.repeat(length) });
    expect(named(conversationNameMax).config?.conversationName).toHaveLength(conversationNameMax);
    expect(named(conversationNameMax + 1).issues?.[0]?.key).toBe('conversationName');
    const ids = Array.from({ length: MAX_DOCUMENT_IDS + 1 }, (_, i) => `doc${i}`);
    expect(parseConfig({ ...minimal, documentIds: ids }).issues?.[0]?.message).toBe(
      `accepts at most ${MAX_DOCUMENT_IDS} ids`,
    );
  });

  it.each([['javascript:alert(1)'], ['//evil.example'], ['ftp://x'], ['relative/path']])(
    'refuses the proxy URL %s',
    (proxyUrl) => {
      expect(parseConfig({ ...minimal, proxyUrl }).issues?.[0]?.key).toBe('proxyUrl');
    },
  );

  it('reads starter questions from a |-separated attribute or a list, within bounds', () => {
    expect(parseConfig({ ...minimal, starters: ' A? | |B? ' }).config?.starters).toEqual(['A?', 'B?']);
    expect(parseConfig({ ...minimal, starters: ['A?'] }).config?.starters).toEqual(['A?']);
    expect(parseConfig(minimal).config?.starters).toEqual([]);
    expect(parseConfig({ ...minimal, starters: '1|2|3|4|5|6|7' }).issues).toEqual([
      { key: 'starters', message: 'offers at most 6 questions' },
    ]);
    expect(parseConfig({ ...minimal, starters: 'x'.repeat(201) }).issues?.[0]?.message).toMatch(/at most 200/);
  });

  describe('text overrides', () => {
    it('applies each given string, keeps the defaults for the rest, and never changes the defaults', () => {
      const { config, unknown } = parseConfig({
        ...minimal,
        text: { send: 'Senden', errors: { network: 'Keine Verbindung.' } },
      });
      expect(config?.text).toEqual({
        ...DEFAULT_TEXT,
        send: 'Senden',
        errors: { ...DEFAULT_TEXT.errors, network: 'Keine Verbindung.' },
      });
      expect(unknown).toEqual([]);
      expect(DEFAULT_TEXT.send).toBe('Send message');
      expect(DEFAULT_TEXT.errors.network).toMatch(/^Could not reach/);
    });

    it('reads the JSON of a data-text attribute', () => {
      expect(parseConfig({ ...minimal, text: '{"retry":"Nochmal"}' }).config?.text.retry).toBe('Nochmal');
      expect(parseConfig({ ...minimal, text: '' }).config?.text).toBe(DEFAULT_TEXT);
    });

    it('names unknown keys, at the top level and in text, prototype keys included, and ignores them', () => {
      const { config, unknown } = parseConfig({
        ...minimal,
        colour: 'red',
        text: JSON.parse('{"sendd":"x","__proto__":"owned","toString":"x","errors":{"htp":"x"}}'),
      });
      expect(unknown).toEqual(['colour', 'text.sendd', 'text.__proto__', 'text.toString', 'text.errors.htp']);
      expect(config?.text).toEqual(DEFAULT_TEXT);
      // Every override is checked, known key or not (the launcher carries no list of keys): an object is no string.
      const hostile = parseConfig({ ...minimal, text: JSON.parse('{"__proto__":{"send":"owned"}}') });
      expect(hostile.issues).toEqual([{ key: 'text', message: expect.stringContaining('text.__proto__ must be') }]);
      expect(({} as Record<string, unknown>).send).toBeUndefined();
    });

    it.each([
      [42, 'must be an object'],
      [['send'], 'must be an object'],
      ['{send:', 'is not valid JSON'],
      [{ send: 42 }, 'text.send must be a non-empty string'],
      [{ send: '   ' }, 'text.send must be a non-empty string'],
      [{ send: 'x'.repeat(501) }, 'at most 500 characters'],
      [{ errors: 'oops' }, 'errors must be an object'],
      [{ errors: null }, 'errors must be an object'],
      [{ errors: { http: '' } }, 'text.errors.http must be a non-empty string'],
    ])('refuses %j', (text, message) => {
      const { issues } = parseConfig({ ...minimal, text });
      expect(issues).toEqual([{ key: 'text', message: expect.stringContaining(message) }]);
    });

    it('accepts a string of exactly 500 characters', () => {
      expect(parseConfig({ ...minimal, text: { send: 'x'.repeat(500) } }).config?.text.send).toHaveLength(500);
    });
  });

  describe('boundaries', () => {
    it('names each problem in words a site owner can act on', () => {
      expect(parseConfig({}).issues).toEqual([
        { key: 'botId', message: 'is required (the id of your Cody bot)' },
        { key: 'proxyUrl', message: 'is required (the URL of your Askbox token proxy, e.g. "/askbox")' },
      ]);
      expect(
        parseConfig({ botId: 'bad id!', proxyUrl: '/askbox', open: 'yes', accent: 'url(x)', documentIds: 'a b' })
          .issues,
      ).toEqual([
        { key: 'botId', message: '"bad id!" is not a valid bot id' },
        { key: 'accent', message: '"url(x)" is not a CSS colour (use e.g. "#0b57d0")' },
        { key: 'open', message: 'must be "true" or "false"' },
        { key: 'documentIds', message: '"a b" is not a valid document id' },
      ]);
      expect(parseConfig({ ...minimal, title: 'x'.repeat(WIDGET_RULES.titleMax + 1) }).issues).toEqual([
        { key: 'title', message: `is longer than ${WIDGET_RULES.titleMax} characters` },
      ]);
    });

    it.each([
      ['https://chat.example.com', 'https://chat.example.com'],
      ['http://localhost:8787/askbox/', 'http://localhost:8787/askbox'],
      ['/askbox//', '/askbox'],
      ['https://chat.example.com/a/b', 'https://chat.example.com/a/b'],
      ['/index.php?rest_route=/askbox/v1/', '/index.php?rest_route=/askbox/v1'],
    ])('accepts the proxy URL %s as %s', (proxyUrl, expected) => {
      expect(parseConfig({ ...minimal, proxyUrl }).config?.proxyUrl).toBe(expected);
    });

    it.each(['/askbox?x=1#top', '/askbox#top', 'https://chat.example.com/a b', '//evil.test/askbox', 'ftp://x.test'])(
      'refuses the proxy URL %s',
      (proxyUrl) => {
        expect(parseConfig({ ...minimal, proxyUrl }).issues?.[0]?.key).toBe('proxyUrl');
      },
    );

    it('accepts exactly as many focus documents as the service', () => {
      const most = MAX_DOCUMENT_IDS;
      expect(parseConfig({ ...minimal, documentIds: documentIdList(most) }).config?.documentIds).toHaveLength(most);
      expect(parseConfig({ ...minimal, documentIds: documentIdList(most + 1) }).issues?.[0]?.key).toBe('documentIds');
    });

    it.each([
      [undefined, false],
      [null, false],
      [false, false],
      ['false', false],
      [true, true],
      ['', true],
      ['true', true],
    ])('reads open=%j as %s', (open, expected) => {
      expect(parseConfig({ ...minimal, open }).config?.open).toBe(expected);
    });

    it('keeps the defaults for a text of null', () => {
      expect(parseConfig({ ...minimal, text: null }).config?.text).toBe(DEFAULT_TEXT);
    });

    it('has a non-empty default for every UI string and setting', () => {
      const strings = [
        ...Object.values(DEFAULT_TEXT),
        ...Object.values(DEFAULT_TEXT.errors),
        ...Object.values(DEFAULTS),
      ].filter((value) => typeof value === 'string');
      expect(strings.length).toBeGreaterThan(30);
      for (const value of strings) expect(value.trim()).not.toBe('');
    });
  });
});

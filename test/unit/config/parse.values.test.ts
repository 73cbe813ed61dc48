import { describe, expect, it, vi } from 'vitest';
import type { WidgetConfig } from '../../../src/config/schema';

// Imported afresh: module-level constants are built when a module loads, and a runner that keeps modules loaded
// between runs (as Stryker's does for mutants of such constants) would otherwise test the copy it loaded first.
vi.resetModules();
const { resolveLocale } = await import('../../../src/config/locale');
const { parseConfig } = await import('../../../src/config/parse');
const { DEFAULTS, messageLength, widgetKey } = await import('../../../src/config/schema');

// The values parseConfig hands on besides the validated strings: flags, the nonce, the widget's identity, and
// the keys it ignored, in the order given (one warning names them all).

const base = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };
const config = (input: Record<string, unknown>): WidgetConfig => {
  const result = parseConfig({ ...base, ...input });
  if (!result.config) throw new Error(JSON.stringify(result.issues));
  return result.config;
};

describe('flags', () => {
  it.each([
    ['launcher', DEFAULTS.launcher],
    ['stream', DEFAULTS.stream],
  ] as const)('%s: on unless "false", and refused when neither', (key, fallback) => {
    expect(fallback).toBe(true);
    expect(config({})[key]).toBe(true);
    expect(config({ [key]: '' })[key]).toBe(true);
    expect(config({ [key]: 'true' })[key]).toBe(true);
    expect(config({ [key]: 'false' })[key]).toBe(false);
    expect(config({ [key]: false })[key]).toBe(false);
    expect(config({ [key]: null })[key]).toBe(false);
    expect(parseConfig({ ...base, [key]: 'no' }).issues).toEqual([{ key, message: 'must be "true" or "false"' }]);
  });

  it('debug: off unless asked for', () => {
    expect(config({}).debug).toBe(false);
    expect(config({ debug: '' }).debug).toBe(true);
    expect(config({ debug: 'true' }).debug).toBe(true);
    expect(config({ debug: 'false' }).debug).toBe(false);
    expect(parseConfig({ ...base, debug: 'on' }).issues).toEqual([
      { key: 'debug', message: 'must be "true" or "false"' },
    ]);
  });
});

describe('passed through', () => {
  it('takes the style nonce trimmed, and none for blank', () => {
    expect(config({ styleNonce: ' r4nd0m ' }).styleNonce).toBe('r4nd0m');
    expect(config({ styleNonce: '  ' }).styleNonce).toBeUndefined();
    expect(config({ styleNonce: 42 }).styleNonce).toBeUndefined();
  });

  it('keeps the given documents in order, and no blank ones', () => {
    expect(config({ documentIds: ['b', ' a ', '', 7] }).documentIds).toEqual(['b', 'a', '7']);
    expect(config({ documentIds: 42 }).documentIds).toEqual([]);
  });

  it('names a refused proxy URL, and leaves the launcher without a teaser unless given one', () => {
    expect(parseConfig({ ...base, proxyUrl: '//x' }).issues).toEqual([
      { key: 'proxyUrl', message: '"//x" must be an http(s) URL or a path starting with "/"' },
    ]);
    expect(config({}).launcherLabel).toBe('');
    expect(config({ launcherLabel: ' Ask us ' }).launcherLabel).toBe('Ask us');
  });

  it('trims only trailing slashes off the proxy URL', () => {
    expect(config({ proxyUrl: '/a//b///' }).proxyUrl).toBe('/a//b');
    expect(config({ proxyUrl: 'https://chat.test/' }).proxyUrl).toBe('https://chat.test');
  });
});

describe('identity', () => {
  it('names a widget by bot, proxy and instance', () => {
    expect(widgetKey(config({}))).toBe('yiu456ytyUjk@/askbox');
    expect(widgetKey(config({ instance: 'sales', proxyUrl: '/chat/' }))).toBe('yiu456ytyUjk@/chat#sales');
  });
});

describe('message length', () => {
  it('counts characters as the service does: an emoji (two UTF-16 units) once', () => {
    expect(messageLength('')).toBe(0);
    expect(messageLength('abc')).toBe(3);
    expect(messageLength('a😀b')).toBe(3);
  });
});

describe('unknown keys', () => {
  it('names every key it ignores, in the order given, a data-text-* look-alike included', () => {
    const { unknown } = parseConfig({ xtextSend: 'x', colour: 'red', ...base, contextMenu: 'y', textsend: 'z' });
    expect(unknown).toEqual(['xtextSend', 'colour', 'contextMenu', 'textsend']);
  });

  it('knows every setting, those only the chat file reads included, but not the keys the config derives', () => {
    const settings = { ...base, limitMessage: 'x', target: '#x', handoffUrl: 'https://a.example', handoffParam: 'p' };
    expect(parseConfig({ ...settings, handoffEmail: 'a@b.example', textSend: 'Go' }).unknown).toEqual([]);
    expect(parseConfig({ ...settings, language: 'de', pack: {}, input: {} }).unknown).toEqual([
      'language',
      'pack',
      'input',
    ]);
  });
});

describe('resolveLocale', () => {
  it.each([
    [undefined, [], { tag: 'en', language: 'en', dir: 'ltr' }],
    [undefined, ['x'], { tag: 'en', language: 'en', dir: 'ltr' }],
    ['sv-SE', ['he'], { tag: 'sv-SE', language: 'en', dir: 'ltr' }],
    ['he', [], { tag: 'he', language: 'he', dir: 'rtl' }],
    [undefined, ['ar', 'de'], { tag: 'ar', language: 'ar', dir: 'rtl' }],
    [undefined, ['de', 'ar'], { tag: 'de', language: 'de', dir: 'ltr' }],
  ])('requested %j, page %j: %j', (requested, languages, locale) => {
    expect(resolveLocale(requested, languages)).toEqual(locale);
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Parse from '../../../src/config/parse';
import { DEFAULTS, widgetKey } from '../../../src/config/schema';
import type { WidgetConfig } from '../../../src/config/schema';

// Imported afresh for each test: module-level constants are built when a module loads, and a runner that keeps
// modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once
// per file, so that Stryker counts the load towards the test that checks it.
let parseConfig: typeof Parse.parseConfig;
beforeEach(async () => {
  vi.resetModules();
  ({ parseConfig } = await import('../../../src/config/parse'));
});

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
    for (const word of ['no', 'yes', 'on', '1', '0', 'TRUE', 'False', 1])
      expect(parseConfig({ ...base, [key]: word }).issues).toEqual([{ key, message: 'must be "true" or "false"' }]);
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

describe('the settings that take one of a few words', () => {
  const oneOf = (input: Record<string, unknown>) => parseConfig({ ...base, ...input });

  it.each([
    ['position', ['bottom-right', 'bottom-left'], ['top-right', 'bottom']],
    ['dir', ['ltr', 'rtl'], ['auto', 'RTL']],
    ['mode', ['bubble', 'inline'], ['popup', 'Inline']],
  ])('%s takes exactly %j', (key, valid, invalid) => {
    const input = (value: string) => ({ [key]: value, target: '#chat' });
    for (const value of valid) expect(oneOf(input(value)).config?.[key as 'dir']).toBe(value);
    for (const value of invalid)
      expect(oneOf(input(value)).issues).toEqual([{ key, message: `"${value}" must be one of ${valid.join(', ')}` }]);
  });
});

/** The issue of a blank UI string at `path`. */
const message = (path: string) => `${path} must be a non-empty string of at most 500 characters`;

describe('one UI string per data-text-<key> attribute', () => {
  it('takes one UI string per data-text-<key> attribute, and nothing else that starts with text', () => {
    const given = { ...base, textSend: 'Go', textErrorsNetwork: 'Offline', textErrors: 'x', text: '{}' };
    const result = parseConfig(given);
    expect(result.config?.text.send).toBe('Go');
    expect(result.config?.text.errors.network).toBe('Offline');
    // A bare data-text-errors names no string: the errors stay strings by kind.
    expect(typeof result.config?.text.errors).toBe('object');
    expect(result.config?.text).not.toHaveProperty('Errors');
    const other = parseConfig({ ...base, textsend: 'Go', context: 'x' });
    expect(other.config?.text.send).toBe(parseConfig(base).config?.text.send);
    expect(other.unknown).toEqual(['textsend', 'context']);
  });

  it('reads no UI string from a key that only has text or errors inside it', () => {
    const result = parseConfig({ ...base, contextMenu: 'x', textXerrorsNetwork: 'y' });
    expect(result.issues).toBeUndefined();
    expect(result.unknown).toEqual(['contextMenu', 'textXerrorsNetwork']);
    expect(result.config?.text).toEqual(parseConfig(base).config?.text);
  });

  it('names a blank one by the string it names: an error sentence only from data-text-errors-<kind>', () => {
    expect(parseConfig({ ...base, textXerrorsNetwork: ' ' }).issues).toEqual([
      { key: 'text', message: message('text.xerrorsNetwork') },
    ]);
    expect(parseConfig({ ...base, textErrorsNetwork: ' ' }).issues).toEqual([
      { key: 'text', message: message('text.errors.network') },
    ]);
  });

  it('passes over a bare, empty data-text-errors: it names no string, so it is no blank one (only a typo)', () => {
    const result = parseConfig({ ...base, textErrors: '' });
    expect(result.issues).toBeUndefined();
    expect(result.unknown).toEqual(['textErrors']);
  });
});

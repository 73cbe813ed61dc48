import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Parse from '../../../src/config/parse';

// SECURITY: the patterns that keep config values out of stylesheets, hrefs and request URLs, tried one character
// and one length past their bounds, so that a wider character class, a lost anchor or an off-by-one fails a test.

const base = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };
// Imported afresh for each test: module-level constants are built when a module loads, and a runner that keeps
// modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once
// per file, so that Stryker counts the load towards the test that checks it.
let parseConfig: typeof Parse.parseConfig;
beforeEach(async () => {
  vi.resetModules();
  ({ parseConfig } = await import('../../../src/config/parse'));
});
/** Every ASCII character, controls included, and a few non-ASCII letters, digits and spaces. */
const CHARS = [
  ...Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)),
  'é',
  'а',
  'Ａ',
  '٣',
  '\u00a0',
  '\u200b',
];

/** The keys `input` (with a valid base) is refused for. */
const refused = (input: Record<string, unknown>) => (parseConfig({ ...base, ...input }).issues ?? []).map((i) => i.key);

describe('ids: 1 to 64 of A-Z, a-z, 0-9, "-" and "_"', () => {
  it.each(CHARS.map((c) => [JSON.stringify(c), c]))('inside an id, %s', (_, c) => {
    const ok = /^[A-Za-z0-9_-]$/.test(c);
    expect(refused({ botId: `a${c}b` })).toEqual(ok ? [] : ['botId']);
    expect(refused({ instance: `a${c}b` })).toEqual(ok ? [] : ['instance']);
    // A comma separates document ids.
    if (c !== ',') expect(refused({ documentIds: `a${c}b` })).toEqual(ok ? [] : ['documentIds']);
  });

  it.each(['botId', 'instance', 'documentIds'])('%s: 64 characters, not 65', (key) => {
    expect(refused({ [key]: 'x'.repeat(64) })).toEqual([]);
    expect(refused({ [key]: 'x'.repeat(65) })).toEqual([key]);
    expect(refused({ [key]: '-' })).toEqual([]);
  });

  it.each(['ok bad', 'ok;', ';ok', 'a\nb', 'ok/../x'])('refuses %j wherever the bad part is', (id) => {
    expect(refused({ botId: id, instance: id, documentIds: id })).toEqual(['botId', 'documentIds', 'instance']);
  });
});

describe('colours: only plain colour literals reach the stylesheet', () => {
  it.each(CHARS.map((c) => [JSON.stringify(c), c]))('inside a colour function, %s', (_, c) => {
    const ok = /^[0-9a-z.,%\s/+-]$/i.test(c);
    expect(refused({ accent: `rgb(1 2 3${c}4)` })).toEqual(ok ? [] : ['accent']);
    expect(refused({ accentText: `hsl(1${c}2 3)` })).toEqual(ok ? [] : ['accentText']);
  });

  it.each([
    ['#fff', true],
    ['#FFFA', true],
    ['#0b57d0', true],
    ['#0B57D0CC', true],
    ['#', false],
    ['#f', false],
    ['#ff', false],
    ['#fffff', false],
    ['#fffffff', false],
    ['#fffffffff', false],
    ['#ggg', false],
    ['#fffg', false],
    ['#0b57dg', false],
    ['#0b57d0cg', false],
    ['fff', true],
    ['#fff;x', false],
    ['x#fff', false],
    ['##fff', false],
  ])('hex %j: %s', (accent, ok) => {
    expect(refused({ accent })).toEqual(ok ? [] : ['accent']);
  });

  it.each(['rgb', 'rgba', 'hsl', 'hsla', 'hwb', 'lab', 'lch', 'oklab', 'oklch', 'RGB', 'OkLch'])(
    'takes the colour function %s()',
    (name) => {
      expect(refused({ accent: `${name}(1 2 3)` })).toEqual([]);
    },
  );

  it.each([
    'url',
    'var',
    'env',
    'attr',
    'calc',
    'image',
    'expression',
    'element',
    'color',
    'light-dark',
    'rgbx',
    'xrgb',
  ])('refuses the function %s()', (name) => {
    expect(refused({ accent: `${name}(1 2 3)` })).toEqual(['accent']);
  });

  it('bounds a function to 1 to 60 characters inside its parentheses', () => {
    expect(refused({ accent: 'rgb(1)' })).toEqual([]);
    expect(refused({ accent: `rgb(${'1'.repeat(60)})` })).toEqual([]);
    expect(refused({ accent: `rgb(${'1'.repeat(61)})` })).toEqual(['accent']);
    expect(refused({ accent: 'rgb()' })).toEqual(['accent']);
    expect(refused({ accent: 'rgb(1 2 3)x' })).toEqual(['accent']);
    expect(refused({ accent: 'rgb(1 2 3))' })).toEqual(['accent']);
    expect(refused({ accent: 'x rgb(1 2 3)' })).toEqual(['accent']);
  });

  it.each([
    ['red', true],
    ['RebeccaPurple', true],
    ['a'.repeat(30), true],
    ['ab', false],
    ['a'.repeat(31), false],
    ['red1', false],
    ['red-ish', false],
    ['dark red', false],
    ['url(x) red', false],
    ['red;}x{', false],
    ['red}', false],
    ['réd', false],
  ])('named %j: %s', (accent, ok) => {
    expect(refused({ accent })).toEqual(ok ? [] : ['accent']);
  });
});

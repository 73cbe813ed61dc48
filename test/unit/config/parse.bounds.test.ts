import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Parse from '../../../src/config/parse';
import { DEFAULTS, STREAM_TIMEOUT_RANGE } from '../../../src/config/schema';
import { WIDGET_RULES } from '../../../src/protocol/contract';

// Every length and range check, tried at its bound and one past it on both sides, so an off-by-one fails a test.

const base = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };
// Imported afresh for each test: module-level constants are built when a module loads, and a runner that keeps
// modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once
// per file, so that Stryker counts the load towards the test that checks it.
let parseConfig: typeof Parse.parseConfig;
beforeEach(async () => {
  vi.resetModules();
  ({ parseConfig } = await import('../../../src/config/parse'));
});

describe('lengths: the bound is accepted, one more character is refused', () => {
  it.each([
    // The contract's lengths, which the WordPress plugin checks too; the rest are the widget's own.
    ['title', WIDGET_RULES.titleMax],
    ['welcome', WIDGET_RULES.welcomeMax],
    ['placeholder', WIDGET_RULES.placeholderMax],
    ['launcherLabel', WIDGET_RULES.launcherLabelMax],
    ['conversationName', WIDGET_RULES.conversationNameMax],
    ['greeting', WIDGET_RULES.greetingMax],
    ['limitMessage', 300],
    ['limitLinkText', 80],
    ['target', 200],
  ] as const)('%s: %d characters', (key, max) => {
    expect(parseConfig({ ...base, [key]: 'x'.repeat(max) }).config?.[key]).toBe('x'.repeat(max));
    expect(parseConfig({ ...base, [key]: 'x'.repeat(max + 1) }).issues).toEqual([
      { key, message: `is longer than ${max} characters` },
    ]);
    // Measured once trimmed.
    expect(parseConfig({ ...base, [key]: ` ${'x'.repeat(max)} ` }).config?.[key]).toBe('x'.repeat(max));
  });

  it('offers 6 starter questions of 200 characters, not 7 nor 201; blank ones do not count', () => {
    const six = ['1', '2', '3', '4', '5', 'x'.repeat(200)];
    expect(parseConfig({ ...base, starters: six }).config?.starters).toEqual(six);
    expect(parseConfig({ ...base, starters: [...six, ' ', ''] }).config?.starters).toEqual(six);
    expect(parseConfig({ ...base, starters: [...six, '7'] }).issues).toEqual([
      { key: 'starters', message: 'offers at most 6 questions' },
    ]);
    expect(parseConfig({ ...base, starters: ['x'.repeat(201)] }).issues).toEqual([
      { key: 'starters', message: 'each question must be at most 200 characters' },
    ]);
  });
});

describe('ranges: both bounds accepted, one step past either refused', () => {
  it.each([
    ['streamTimeout', ...STREAM_TIMEOUT_RANGE, 0.01, 'a number of seconds'],
    ['zIndex', 0, 2147483647, 1, 'a whole number'],
    ['offsetX', 0, 500, 1, 'a whole number of pixels'],
    ['offsetY', 0, 500, 1, 'a whole number of pixels'],
    ['greetingDelay', WIDGET_RULES.greetingDelay.min, WIDGET_RULES.greetingDelay.max, 0.01, 'a number of seconds'],
  ] as const)('%s: %d to %d', (key, min, max, step, what) => {
    for (const value of [min, max, String(min), ` ${max} `])
      expect(parseConfig({ ...base, [key]: value }).config?.[key]).toBe(Number(value));
    for (const value of [min - step, max + step, String(min - step), String(max + step)])
      expect(parseConfig({ ...base, [key]: value }).issues).toEqual([
        { key, message: `must be ${what} from ${min} to ${max}` },
      ]);
  });

  it.each(['zIndex', 'offsetX', 'offsetY'])('%s must be whole; streamTimeout need not', (key) => {
    expect(parseConfig({ ...base, [key]: 10.5 }).issues?.map((i) => i.key)).toEqual([key]);
    expect(parseConfig({ ...base, [key]: '10.5' }).issues?.map((i) => i.key)).toEqual([key]);
    expect(parseConfig({ ...base, streamTimeout: 10.5 }).config?.streamTimeout).toBe(10.5);
  });

  it.each([' ', 'x', '1e999', '-Infinity', Number.NaN, Number.POSITIVE_INFINITY, {}, [], false])(
    'refuses %j as a number',
    (value) => {
      expect(parseConfig({ ...base, zIndex: value, offsetX: value }).issues?.map((i) => i.key)).toEqual([
        'zIndex',
        'offsetX',
      ]);
    },
  );

  it.each([undefined, null, ''])('reads %j as not given: the default', (value) => {
    expect(
      parseConfig({
        ...base,
        zIndex: value,
        offsetX: value,
        offsetY: value,
        streamTimeout: value,
        greetingDelay: value,
      }).config,
    ).toMatchObject({
      greetingDelay: DEFAULTS.greetingDelay,
      zIndex: undefined,
      offsetX: DEFAULTS.offsetX,
      offsetY: DEFAULTS.offsetY,
      streamTimeout: DEFAULTS.streamTimeout,
    });
  });
});

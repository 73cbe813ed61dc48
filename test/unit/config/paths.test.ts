import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Parse from '../../../src/config/parse';
import type * as Paths from '../../../src/config/paths';

// Imported afresh for each test: module-level constants are built when a module loads, and a runner that keeps
// modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once
// per file, so that Stryker counts the load towards the test that checks it.
let parseConfig: typeof Parse.parseConfig;
let matchesPath: typeof Paths.matchesPath;
let parsePaths: typeof Paths.parsePaths;
let pathAllowed: typeof Paths.pathAllowed;
beforeEach(async () => {
  vi.resetModules();
  ({ parseConfig } = await import('../../../src/config/parse'));
  ({ matchesPath, parsePaths, pathAllowed } = await import('../../../src/config/paths'));
});

const base = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };

/** The patterns `value` reads as, and the messages it fails with. */
function read(value: unknown) {
  const messages: string[] = [];
  return { patterns: parsePaths(value, (message) => messages.push(message)), messages };
}

describe('matchesPath: the whole path, with * for any characters, / included', () => {
  it.each([
    ['/checkout/*', '/checkout/', true],
    ['/checkout/*', '/checkout/step/2', true],
    ['/checkout/*', '/checkout', false],
    ['/checkout/*', '/checkouts/x', false],
    ['/checkout/*', '/en/checkout/x', false],
    ['/checkout*', '/checkout', true],
    ['/checkout*', '/checkout-old/x', true],
    ['/', '/', true],
    ['/', '/about', false],
    ['/about', '/about/', false],
    ['/About', '/about', false],
    ['*', '/', true],
    ['*', '/any/path', true],
    ['*/print', '/docs/a/print', true],
    ['*/print', '/docs/a/print/x', false],
    ['/shop/*/reviews', '/shop/boots/reviews', true],
    ['/shop/*/reviews', '/shop/a/b/reviews', true],
    ['/shop/*/reviews', '/shop/reviews', false],
    ['/a*b*c', '/abc', true],
    ['/a*b*c', '/axxbyyc', true],
    ['/a*b*c', '/acb', false],
    ['/a**', '/a/b', true],
    // Each piece after the first is taken after the one before it, and the last ends the path.
    ['/a*b*c', '/axbxc', true],
    ['/a*bc*c', '/abc', false],
    ['/a*b*b', '/ab', false],
    ['/x*y*z*', '/xyz', true],
    ['/x*y*z*', '/xzy', false],
    ['*/b/*', '/a/b/c', true],
    ['*/b/*', '/b/', true],
    ['/*ab*ba', '/aba', false],
    ['/*a*a*', '/a', false],
    ['/*a*a*', '/aa', true],
    // Regular-expression metacharacters are text: none of them widens or breaks the match.
    ['/a.b', '/a.b', true],
    ['/a.b', '/axb', false],
    ['/c++/*', '/c++/intro', true],
    ['/c++/*', '/ccc/intro', false],
    ['/$5^|x', '/$5^|x', true],
    ['/[ab]', '/[ab]', true],
    ['/[ab]', '/a', false],
    ['/x|/y', '/y', false],
    ['/a.*', '/a.html', true],
    ['/a.*', '/ab', false],
    ['/%7Euser/*', '/%7Euser/x', true],
    ['/caf%C3%A9', '/caf%C3%A9', true],
  ])('%s on %s: %s', (pattern, path, expected) => {
    expect(matchesPath(pattern, path)).toBe(expected);
  });
});

it('matches a pattern of many stars against a long path in linear time, not by backtracking', () => {
  const started = performance.now();
  expect(matchesPath(`/${'*a'.repeat(20)}*b`, `/${'a'.repeat(20_000)}`)).toBe(false);
  expect(matchesPath(`/${'*a'.repeat(20)}*b`, `/${'a'.repeat(20_000)}b`)).toBe(true);
  expect(performance.now() - started).toBeLessThan(200);
});

describe('parsePaths', () => {
  it.each([
    ['/checkout/*', ['/checkout/*']],
    ['/checkout/*, /cart', ['/checkout/*', '/cart']],
    ['/checkout/*  /cart\n/account/*', ['/checkout/*', '/cart', '/account/*']],
    [' /a,,/b , ', ['/a', '/b']],
    ['', []],
    [undefined, []],
    [
      ['/help/*', '/docs/* /faq'],
      ['/help/*', '/docs/*', '/faq'],
    ],
    // As the browser writes them in location.pathname.
    ['/café/*', ['/caf%C3%A9/*']],
    ['/日本', ['/%E6%97%A5%E6%9C%AC']],
    ['/a,/b  /c,\n/d', ['/a', '/b', '/c', '/d']],
    [null, []],
    ['/größe/*', ['/gr%C3%B6%C3%9Fe/*']],
    ['/ä-ö', ['/%C3%A4-%C3%B6']],
    // A character beyond the BMP is two UTF-16 units, encoded together (either alone is a lone surrogate).
    ['/😀/*', ['/%F0%9F%98%80/*']],
  ])('reads %j as %j', (value, patterns) => {
    expect(read(value)).toEqual({ patterns, messages: [] });
  });

  it.each([
    ['checkout/*'],
    ['https://shop.example/checkout/*'],
    ['/products/:id'],
    ['/a(b)'],
    ['/a{b}'],
    ['/search?q=*'],
    ['/page#top'],
    ['/a\\b'],
    ['a/b'],
    ['/bad\ud800'],
    [42],
  ])('refuses %j', (value) => {
    const { messages } = read(value);
    expect(messages).toEqual([`"${String(value)}" is not a path pattern such as "/checkout/*"`]);
  });

  // Every ASCII character but the separators (white space and commas split a list), inside a pattern and first:
  // one more special character let through, or one more way to start, fails here.
  const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).filter((c) => !/[\s,]/.test(c));

  it.each(ascii.map((c) => [JSON.stringify(c), c]))('takes %s inside a pattern unless URLPattern reads it', (_, c) => {
    const special = '?#:(){}\\'.includes(c);
    expect(read(`/a${c}b`).messages).toHaveLength(special ? 1 : 0);
    expect(read(`${c}/a`).messages).toHaveLength(c === '/' || c === '*' ? 0 : 1);
  });
});

it('refuses a value that is no list of patterns', () => {
  expect(read({ path: '/a' }).messages[0]).toMatch(/^"\[object" is not a path pattern/);
});

const rules = (showOn: string[], hideOn: string[]) => ({ showOn, hideOn });

describe('pathAllowed: show-on limits, hide-on wins', () => {
  it.each([
    [rules([], []), '/anything', true],
    [rules([], ['/checkout/*']), '/checkout/cart', false],
    [rules([], ['/checkout/*']), '/products', true],
    [rules(['/help/*'], []), '/help/faq', true],
    [rules(['/help/*'], []), '/products', false],
    [rules(['/help/*', '/docs/*'], []), '/docs/a', true],
    [rules(['/help/*'], ['/help/private/*']), '/help/private/x', false],
    [rules(['/help/*'], ['/help/private/*']), '/help/public', true],
    [rules(['*'], ['*']), '/', false],
  ])('%j on %s: %s', (given, path, expected) => {
    expect(pathAllowed(given, path)).toBe(expected);
  });
});

describe('parseConfig: showOn and hideOn', () => {
  it('reads both, from data-* strings or mount() arrays, and defaults to no rules', () => {
    expect(parseConfig(base).config).toMatchObject({ showOn: [], hideOn: [] });
    expect(parseConfig({ ...base, showOn: '/help/*, /docs/*', hideOn: ['/help/private/*'] }).config).toMatchObject({
      showOn: ['/help/*', '/docs/*'],
      hideOn: ['/help/private/*'],
    });
  });

  it('names every bad pattern of either, and mounts nothing', () => {
    expect(parseConfig({ ...base, showOn: '/help/* help', hideOn: '/products/:id' }).issues).toEqual([
      { key: 'showOn', message: '"help" is not a path pattern such as "/checkout/*"' },
      {
        key: 'hideOn',
        message: '"/products/:id" is not a path pattern such as "/checkout/*"',
      },
    ]);
  });
});

describe("parseConfig: the greeting's own page rules", () => {
  it('reads greetingShowOn and greetingHideOn as showOn and hideOn are read, [] when not given', () => {
    expect(parseConfig(base).config).toMatchObject({ greeting: '', greetingShowOn: [], greetingHideOn: [] });
    expect(
      parseConfig({ ...base, greeting: 'Hi!', greetingShowOn: '/pricing /plans/*', greetingHideOn: ['/plans/old'] })
        .config,
    ).toMatchObject({ greeting: 'Hi!', greetingShowOn: ['/pricing', '/plans/*'], greetingHideOn: ['/plans/old'] });
  });

  it('names each pattern that is no path, under its own key', () => {
    expect(parseConfig({ ...base, greetingShowOn: 'pricing', greetingHideOn: '/p?x=1' }).issues).toEqual([
      { key: 'greetingShowOn', message: '"pricing" is not a path pattern such as "/checkout/*"' },
      { key: 'greetingHideOn', message: '"/p?x=1" is not a path pattern such as "/checkout/*"' },
    ]);
  });
});

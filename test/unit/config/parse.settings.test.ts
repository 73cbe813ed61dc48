import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Parse from '../../../src/config/parse';
import { DEFAULTS, STREAM_TIMEOUT_RANGE } from '../../../src/config/schema';

// Imported afresh for each test: module-level constants are built when a module loads, and a runner that keeps
// modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once
// per file, so that Stryker counts the load towards the test that checks it.
let parseConfig: typeof Parse.parseConfig;
beforeEach(async () => {
  vi.resetModules();
  ({ parseConfig } = await import('../../../src/config/parse'));
});

const base = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };
const [MIN_TIMEOUT, MAX_TIMEOUT] = STREAM_TIMEOUT_RANGE;

describe('config: the message-limit notice', () => {
  it('defaults to the UI strings, and takes the site’s message, link and link text', () => {
    expect(parseConfig(base).config).toMatchObject({
      limitMessage: undefined,
      limitLink: undefined,
      limitLinkText: undefined,
    });
    const { config } = parseConfig({
      ...base,
      limitMessage: ' Our assistant is resting. ',
      limitLink: 'https://shop.example/contact?from=chat#form',
      limitLinkText: 'Write to us',
    });
    expect(config).toMatchObject({
      limitMessage: 'Our assistant is resting.',
      limitLink: 'https://shop.example/contact?from=chat#form',
      limitLinkText: 'Write to us',
    });
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT://x.test/%0aalert(1)',
    'data:text/html,hi',
    '/contact',
    '//evil.example',
    'https://x.test/a b',
    'https://x.test/"onmouseover="x',
    `https://x.test/${'a'.repeat(2000)}`,
  ])('refuses the link %s, quoted: only an absolute http(s) URL', (limitLink) => {
    expect(parseConfig({ ...base, limitLink }).issues).toEqual([
      { key: 'limitLink', message: `"${limitLink.trim()}" must be an http(s) URL` },
    ]);
  });

  it('bounds the message and the link text', () => {
    const { issues } = parseConfig({ ...base, limitMessage: 'x'.repeat(301), limitLinkText: 'y'.repeat(81) });
    expect(issues?.map((i) => i.key)).toEqual(['limitMessage', 'limitLinkText']);
  });
});

describe('config: the stream timeout', () => {
  it.each([
    [undefined, DEFAULTS.streamTimeout],
    ['', DEFAULTS.streamTimeout],
    [String(MIN_TIMEOUT), MIN_TIMEOUT],
    [' 90 ', 90],
    ['12.5', 12.5],
    [MAX_TIMEOUT, MAX_TIMEOUT],
  ])('reads %j as %d seconds', (streamTimeout, seconds) => {
    expect(parseConfig({ ...base, streamTimeout }).config?.streamTimeout).toBe(seconds);
  });

  it.each([
    String(MIN_TIMEOUT - 1),
    String(MAX_TIMEOUT + 1),
    '0',
    '-5',
    'soon',
    '45s',
    'NaN',
    'Infinity',
    { toString: null },
    [45],
    true,
  ])('refuses %j: seconds within the range', (streamTimeout) => {
    expect(parseConfig({ ...base, streamTimeout }).issues).toEqual([
      { key: 'streamTimeout', message: `must be a number of seconds from ${MIN_TIMEOUT} to ${MAX_TIMEOUT}` },
    ]);
  });
});

describe('config: embedding', () => {
  it('reads the mode, the inline target, the instance, the stacking level and the offsets', () => {
    const { config } = parseConfig({
      ...base,
      mode: 'inline',
      target: ' #help-chat ',
      instance: 'sales',
      zIndex: '1000',
      offsetX: 40,
      offsetY: '0',
    });
    expect(config).toMatchObject({
      mode: 'inline',
      target: '#help-chat',
      instance: 'sales',
      zIndex: 1000,
      offsetX: 40,
      offsetY: 0,
    });
    expect(parseConfig(base).config).toMatchObject({
      mode: 'bubble',
      target: undefined,
      instance: undefined,
      zIndex: undefined,
      offsetX: 20,
      offsetY: 20,
    });
  });

  it('needs a target in inline mode, unless the container is given (the element, mount())', () => {
    expect(parseConfig({ ...base, mode: 'inline' }).issues).toEqual([
      { key: 'target', message: 'is required in inline mode (the CSS selector of the container, e.g. "#help-chat")' },
    ]);
    expect(parseConfig({ ...base, mode: 'inline' }, { inlineTarget: true }).config?.mode).toBe('inline');
  });

  it.each([
    [{ mode: 'popup' }, 'mode', '"popup" must be one of bubble, inline'],
    [{ instance: 'a b' }, 'instance', '"a b" must be 1 to 64 letters, digits, "-" or "_"'],
    [{ zIndex: '-1' }, 'zIndex', 'must be a whole number from 0 to 2147483647'],
    [{ zIndex: '2147483648' }, 'zIndex', 'must be a whole number from 0 to 2147483647'],
    [{ zIndex: '10.5' }, 'zIndex', 'must be a whole number from 0 to 2147483647'],
    [{ offsetX: '501' }, 'offsetX', 'must be a whole number of pixels from 0 to 500'],
    [{ offsetY: '20px' }, 'offsetY', 'must be a whole number of pixels from 0 to 500'],
    [{ target: `#${'a'.repeat(200)}` }, 'target', 'is longer than 200 characters'],
  ])('refuses %j', (input, key, message) => {
    expect(parseConfig({ ...base, ...input }).issues).toEqual([{ key, message }]);
  });
});

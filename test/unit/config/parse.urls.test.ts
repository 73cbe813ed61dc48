import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Parse from '../../../src/config/parse';

// SECURITY: the proxy URL decides where the widget sends its requests, and the limit link goes into an href. Each
// pattern is tried at its scheme, its anchors, its character class and its length, one step past the rule.

const base = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };
// Imported afresh for each test: module-level constants are built when a module loads, and a runner that keeps
// modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once
// per file, so that Stryker counts the load towards the test that checks it.
let parseConfig: typeof Parse.parseConfig;
beforeEach(async () => {
  vi.resetModules();
  ({ parseConfig } = await import('../../../src/config/parse'));
});
/** Every ASCII character, controls included, and a few non-ASCII ones. */
const CHARS = [...Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)), 'é', '\u00a0', '\u2028'];

const proxyUrlRefused = (proxyUrl: string) => parseConfig({ ...base, proxyUrl }).issues?.[0]?.key === 'proxyUrl';
/** An http(s) link with `length` characters after the scheme. */
const url = (length: number) => `https://${'a'.repeat(length)}`;
const linkRefused = (limitLink: string) => parseConfig({ ...base, limitLink }).issues?.[0]?.key === 'limitLink';

describe('proxyUrl: an http(s) URL, or a path on this site', () => {
  it.each([
    'https://chat.test',
    'HTTPS://CHAT.TEST/Askbox',
    'http://chat.test:8787/a/b',
    'https://user@chat.test/a',
    '/',
    '/a/b/',
    '/a-b_c.d~e/%20',
    // A query: WordPress's REST API with "Plain" permalinks.
    'https://blog.test/index.php?rest_route=/askbox/v1',
    '/index.php?rest_route=/askbox/v1',
    'https://chat.test?x=1',
    '/?',
  ])('accepts %j', (proxyUrl) => {
    expect(proxyUrlRefused(proxyUrl)).toBe(false);
  });

  it.each([
    // Protocol-relative: another host, whatever the page's scheme.
    '//evil.test/askbox',
    // A browser reads a backslash in a path like a slash, so this is //evil.test too.
    '/\\evil.test/askbox',
    '/\\\\evil.test',
    'https://',
    'https:///evil.test',
    'https:/evil.test',
    'https:evil.test',
    'https//evil.test',
    'httpx://evil.test',
    'ws://evil.test',
    'wss://evil.test',
    'file:///askbox',
    'ftp://evil.test',
    'javascript://chat.test/%0aalert(1)',
    'javascript:alert(1)//x',
    'data:text/html,x',
    'x/https://chat.test',
    'askbox',
    'https://chat.test#top',
    'https://chat.test/a?x=1#top',
    '/askbox#top',
    '/askbox?x=1 2',
    '//evil.test?x=1',
    '?rest_route=/askbox/v1',
    'https://chat .test',
    '/ask box',
    'https://chat.test/ask box',
    'https://chat.test/ask\nbox',
    '/ask\tbox',
  ])('refuses %j', (proxyUrl) => {
    expect(proxyUrlRefused(proxyUrl)).toBe(true);
  });
});

describe('limitLink: an absolute http(s) URL only', () => {
  it.each(['https://shop.test', 'HTTP://SHOP.TEST/contact?x=1#form', 'https://shop.test/a(b)[c]{d}|e^f`g;h'])(
    'accepts %j',
    (limitLink) => {
      expect(linkRefused(limitLink)).toBe(false);
    },
  );

  it('takes a link without the blanks around it, so the href starts with its scheme', () => {
    expect(parseConfig({ ...base, limitLink: '  \thttps://shop.test/contact\n' }).config?.limitLink).toBe(
      'https://shop.test/contact',
    );
  });

  it.each([
    'javascript:alert(1)',
    'javascript:alert(1)//https://shop.test',
    'x https://shop.test',
    'https://shop.test/"onmouseover="x',
    'https://shop.test/ x',
    'https://',
    'https:/shop.test',
    'https:shop.test',
    'httpx://shop.test',
    'ftp://shop.test',
    '//shop.test',
    '/contact',
    'mailto:hi@shop.test',
    'data:text/html,x',
    // Anchored at the start: an http(s) URL later in the value does not make the link one.
    'javascript:alert(1)//https://x',
    'JavaScript:fetch(`https://x`)',
    'data:text/html,https://x',
    'data:text/html;base64,aHR0cHM6Ly94',
    'vbscript:https://x',
    'xhttps://shop.test',
    ' x https://shop.test',
    '\u0000https://shop.test',
    // A backslash a browser reads as a slash: https:/\evil is https://evil.
    'https:/\\evil.test',
    'https:\\\\evil.test',
    'https://\\evil.test',
  ])('refuses %j', (limitLink) => {
    expect(linkRefused(limitLink)).toBe(true);
  });

  it.each(CHARS.map((c) => [JSON.stringify(c), c]))('inside the link, %s', (_, c) => {
    expect(linkRefused(`https://shop.test/a${c}b`)).toBe(/^[\s"'<>\\]$/.test(c));
  });

  it('takes at most 2,000 characters after the scheme', () => {
    expect(linkRefused(url(1))).toBe(false);
    expect(linkRefused(url(2000))).toBe(false);
    expect(linkRefused(url(2001))).toBe(true);
  });
});

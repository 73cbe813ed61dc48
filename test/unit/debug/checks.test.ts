import { describe, expect, it } from 'vitest';
import { checkCsp, checkOverlap, checkProxy, checkStorage, checkTags, overlaps } from '../../../src/debug/checks';

const ORIGIN = 'https://shop.example';

describe('self-diagnosis: the proxy and the bot', () => {
  it('passes an Askbox proxy that serves the bot', () => {
    expect(
      checkProxy(
        { proxyUrl: '/askbox', botId: 'bot1', origin: ORIGIN },
        { status: 200, body: { status: 'ok', proxy: 'askbox', bot: true } },
      ),
    ).toEqual([
      { level: 'ok', text: 'The proxy at /askbox answers as an Askbox proxy.' },
      { level: 'ok', text: 'The proxy serves bot bot1.' },
    ]);
  });

  it('fails a bot the proxy does not serve', () => {
    expect(
      checkProxy(
        { proxyUrl: '/askbox', botId: 'bot2', origin: ORIGIN },
        { status: 200, body: { status: 'ok', proxy: 'askbox', bot: false } },
      )[1],
    ).toEqual({
      level: 'fail',
      text: "The proxy does not serve bot bot2: add it to the proxy's botIds, or fix data-bot-id.",
    });
  });

  it.each([
    [{ status: 200, body: { status: 'ok' } }, '/askbox answered 200, but not as an Askbox proxy'],
    [{ status: 200, body: null }, '/askbox answered 200, but not as an Askbox proxy'],
    [{ status: 500, body: { proxy: 'askbox' } }, '/askbox answered 500, but not as an Askbox proxy'],
    [{ status: 404, body: undefined }, '/askbox answered 404, but not as an Askbox proxy'],
    [
      { status: 403, body: { message: 'This site is not allowed to use this chat.' } },
      'refused this site ("This site is not allowed to use this chat."): add https://shop.example',
    ],
    [
      { status: 403, body: 'nope' },
      'The proxy at /askbox refused this site: add https://shop.example to its allowedOrigins.',
    ],
    [
      { error: 'Failed to fetch' },
      'did not answer (Failed to fetch). It is down, the URL is wrong, or it refuses this site: a proxy on another origin must list https://shop.example in allowedOrigins.',
    ],
  ])('fails %j, saying what to do', (result, words) => {
    const [only, ...rest] = checkProxy({ proxyUrl: '/askbox', botId: 'bot1', origin: ORIGIN }, result);
    expect([only?.level, rest]).toEqual(['fail', []]);
    expect(only?.text).toContain(words);
  });
});

describe('self-diagnosis: the page', () => {
  it('lists CSP violations, or says there were none', () => {
    expect(checkCsp([])).toEqual({ level: 'ok', text: 'No Content-Security-Policy violation seen.' });
    expect(checkCsp(['connect-src https://proxy.example', 'style-src inline'])).toEqual({
      level: 'fail',
      text: "Content-Security-Policy blocked: connect-src https://proxy.example; style-src inline. Allow Askbox's script, its proxy (connect-src) and its nonce (see README, strict CSP).",
    });
  });

  it('warns of refused storage areas', () => {
    expect(checkStorage([])).toEqual({ level: 'ok', text: 'localStorage and sessionStorage work.' });
    expect(checkStorage(['localStorage', 'sessionStorage']).text).toMatch(/^localStorage and sessionStorage refused/);
  });

  it('warns of one widget added twice with different settings, not of two widgets or of an exact copy', () => {
    const tag = { botId: 'bot1', proxyUrl: '/askbox' };
    expect(checkTags([tag, { ...tag }])).toEqual({
      level: 'ok',
      text: 'No widget is added twice with different settings.',
    });
    // The same settings, in another order.
    expect(
      checkTags([
        { ...tag, title: 'T', theme: 'dark' },
        { theme: 'dark', ...tag, title: 'T' },
      ]).level,
    ).toBe('ok');
    expect(checkTags([tag, { ...tag, instance: 'sales', title: 'Sales' }]).level).toBe('ok');
    expect(checkTags([tag, { ...tag, botId: 'bot2', title: 'Other' }]).level).toBe('ok');
    expect(checkTags([tag, { ...tag, title: 'Other' }, { ...tag, theme: 'dark' }])).toEqual({
      level: 'warn',
      text: "The script is added twice for bot bot1 with different settings: the first tag's win. Remove the other (a theme and a plugin both adding it?), or give it its own data-instance.",
    });
  });

  it('finds boxes that share area, not ones that only touch', () => {
    const launcher = { left: 900, top: 680, right: 956, bottom: 736 };
    expect(overlaps(launcher, { left: 0, top: 700, right: 1000, bottom: 760 })).toBe(true);
    expect(overlaps(launcher, { left: 0, top: 736, right: 1000, bottom: 760 })).toBe(false);
    expect(overlaps(launcher, { left: 956, top: 0, right: 1000, bottom: 760 })).toBe(false);
    expect(overlaps({ left: 0, top: 0, right: 10, bottom: 10 }, { left: 5, top: 5, right: 6, bottom: 6 })).toBe(true);
  });

  it('names what covers the launcher', () => {
    expect(checkOverlap([])).toEqual({
      level: 'ok',
      text: "Nothing else fixed on the page overlaps the launcher's corner.",
    });
    expect(checkOverlap(['div#cookie-consent.cookie-bar']).text).toMatch(
      /^Fixed elements overlap the launcher's corner: div#cookie-consent\.cookie-bar\./,
    );
  });
});

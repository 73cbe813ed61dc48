import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Handoff from '../../../src/config/handoff';

/**
 * The settings of "Talk to a person" (`data-handoff-*`), read by the chat file: blanks around a value, every bad
 * setting named in one error, and each pattern at its edges (the URL goes into an href, the address into `mailto:`).
 */
afterEach(() => vi.restoreAllMocks());

// Imported afresh for each test: the handoff patterns are read when the module loads, and a runner that keeps modules
// loaded between runs (as Stryker's does) would otherwise test the copy it loaded first.
let parseHandoff: typeof Handoff.parseHandoff;
let contactHref: typeof Handoff.contactHref;
beforeEach(async () => {
  vi.resetModules();
  ({ parseHandoff, contactHref } = await import('../../../src/config/handoff'));
});

/** The console error `parseHandoff` writes for `input`, or undefined when it writes none. */
function handoffError(input: Record<string, unknown>): string | undefined {
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  parseHandoff(input);
  expect(error.mock.calls.length).toBeLessThanOrEqual(1);
  const message = error.mock.calls[0]?.[0] as string | undefined;
  error.mockRestore();
  return message;
}

describe('the handoff settings', () => {
  it('reads a value without the blanks around it, and an empty one as unset', () => {
    expect(handoffError({ handoffUrl: '', handoffEmail: '', handoffParam: '' })).toBeUndefined();
    expect(parseHandoff({ handoffUrl: '', handoffEmail: '', handoffParam: '' })).toEqual({
      url: undefined,
      email: undefined,
      param: undefined,
    });
    expect(parseHandoff({ handoffUrl: ' https://example.com/help\n', handoffEmail: ' a@b.example ' })).toEqual({
      url: 'https://example.com/help',
      email: 'a@b.example',
      param: undefined,
    });
  });

  it('names every bad setting, with what it must be, in one error', () => {
    expect(handoffError({ handoffUrl: '/help', handoffEmail: 'x', handoffParam: 'a b', other: 1 })).toBe(
      '[askbox] "Talk to a person" is left out because its settings are wrong:' +
        '\n  - data-handoff-url "/help" must be an http(s) URL' +
        '\n  - data-handoff-email "x" must be an email address' +
        '\n  - data-handoff-param "a b" must be a query parameter name (letters, digits, "-" or "_")',
    );
    expect(handoffError({ handoffEmail: ' ' })).toContain('data-handoff-email " " must be an email address');
    expect(handoffError({ handoffParam: 7 })).toContain('data-handoff-param 7 must be');
  });

  it.each([
    ['a@b.example', true],
    ['first.last+tag-x@mail-1.example.co.uk', true],
    [`${'a'.repeat(64)}@b.example`, true],
    [`${'a'.repeat(65)}@b.example`, false],
    ['@b.example', false],
    ['a@b', false],
    ['a@.example', false],
    ['a@b.', false],
    [' x a@b.example', false],
    ['<a@b.example', false],
    ['a@b.example>', false],
    ['a@b.example?cc=c@d.example', false],
    ['a@b.exa mple', false],
    ['a%b@b.example', false],
    ['a@b_c.example', true],
    ['a@b.example#x', false],
  ])('takes the email address %j: %s', (email, valid) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(parseHandoff({ handoffEmail: email }).email).toBe(valid ? email : undefined);
  });

  // Every ASCII character in the name and in the domain: one that could add a header, a recipient or a query to the
  // mailto: link (`?`, `&`, `%`, `#`, `,`…) let through fails here.
  it.each(
    Array.from({ length: 128 }, (_, code) => [JSON.stringify(String.fromCharCode(code)), String.fromCharCode(code)]),
  )('takes %s in an email address only as a letter, digit or one of . + - _ (the domain: . - _)', (_, c) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const email = (address: string) => parseHandoff({ handoffEmail: address }).email;
    expect(email(`a${c}b@b.example`)).toBe(/^[\w.+-]$/.test(c) ? `a${c}b@b.example` : undefined);
    expect(email(`a@b${c}c.example`)).toBe(/^[\w.-]$/.test(c) ? `a@b${c}c.example` : undefined);
  });

  // SECURITY: the page's link to a person goes into an href, so it is held to the limit link's rule (config/parse.ts LINK).
  it.each([
    ['https://help.example/chat', true],
    ['HTTP://HELP.EXAMPLE/chat?from=askbox#form', true],
    [`https://${'a'.repeat(1992)}.example`, true],
    [`https://${'a'.repeat(1993)}.example`, false],
    ['javascript:alert(1)', false],
    ['javascript:alert(1)//https://help.example', false],
    ['data:text/html,https://help.example', false],
    ['x https://help.example', false],
    ['//help.example', false],
    ['/help', false],
    ['https:/\\help.example', false],
    ['https://help.example/"onmouseover="x', false],
    ["https://help.example/'x", false],
    ['https://help.example/<x>', false],
    ['https://help.example/a b', false],
    ['https://\\\\evil.test', false],
  ])('takes the handoff URL %j: %s', (url, valid) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(parseHandoff({ handoffUrl: url }).url).toBe(valid ? url : undefined);
  });

  it.each([
    ['conversation_id', true],
    ['a-b', true],
    ['x'.repeat(64), true],
    ['x'.repeat(65), false],
    ['a=b', false],
    ['&a', false],
    ['a&', false],
    ['a b', false],
  ])('takes the parameter name %j: %s', (param, valid) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(parseHandoff({ handoffParam: param }).param).toBe(valid ? param : undefined);
  });
});

describe('the contact offered when the chat cannot load', () => {
  const limitLink = 'https://example.com/contact';

  it('is the contact page, else an email to the address, else the limit notice’s link', () => {
    const both = { handoffUrl: 'https://example.com/help', handoffEmail: 'a@b.example' };
    expect(contactHref({ input: both, limitLink })).toBe('https://example.com/help');
    expect(contactHref({ input: { handoffEmail: 'a@b.example' }, limitLink })).toBe('mailto:a@b.example');
    expect(contactHref({ input: {}, limitLink })).toBe(limitLink);
    expect(contactHref({ input: {}, limitLink: undefined })).toBeUndefined();
  });

  it('leaves the handoff out when a setting is wrong, as the chat does, without a word (the chat file says why)', () => {
    const error = vi.spyOn(console, 'error');
    expect(contactHref({ input: { handoffUrl: 'javascript:alert(1)' }, limitLink })).toBe(limitLink);
    expect(contactHref({ input: { handoffEmail: 'a@b.example', handoffParam: 'a b' }, limitLink })).toBe(limitLink);
    expect(error).not.toHaveBeenCalled();
  });
});

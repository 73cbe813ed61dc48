import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Errors from '../../../src/api/errors';
import { LIMIT_MESSAGE, LIMIT_NOUNS } from '../../../src/protocol/contract';

/**
 * The module afresh for each test: which kinds are retryable is a set built as it loads, and Stryker counts a mutant
 * of it only against the tests that load it.
 */
let errors: typeof Errors;
beforeEach(async () => {
  vi.resetModules();
  errors = await import('../../../src/api/errors');
});

const limit = (noun: string) => LIMIT_MESSAGE.replace('{noun}', noun).replace('{seconds}', '6');

describe('ChatError', () => {
  it.each([
    ['network', true],
    ['http', true],
    ['rate_limit', true],
    ['stream', true],
    ['config', false],
    ['auth', false],
    ['quota', false],
    ['not_found', false],
    ['aborted', false],
  ] as const)('offers a retry for a %s error: %s', (kind, retryable) => {
    expect(new errors.ChatError(kind, 'x').retryable).toBe(retryable);
  });

  it('offers no retry for a 422, whose input would be refused again', () => {
    expect(new errors.ChatError('http', 'HTTP 422', { status: 422 }).retryable).toBe(false);
    expect(new errors.ChatError('http', 'HTTP 500', { status: 500 }).retryable).toBe(true);
  });

  it('keeps its cause, and names no fields, no detail and no wait unless given', () => {
    const cause = new TypeError('Failed to fetch');
    const error = new errors.ChatError('network', 'Failed to fetch', { cause });
    expect(error).toMatchObject({ name: 'ChatError', message: 'Failed to fetch', kind: 'network', cause });
    expect([error.fields, error.detail, error.status, error.retryAfter, error.notProxy]).toEqual([
      [],
      undefined,
      undefined,
      undefined,
      false,
    ]);
    expect(errors.isChatError(error)).toBe(true);
    expect(errors.isChatError(new Error('x'))).toBe(false);
  });
});

describe('isConversationLimit', () => {
  it.each([
    ['the limit on new conversations', 'rate_limit', limit(LIMIT_NOUNS.conversation), true],
    ['the limit on messages', 'rate_limit', limit(LIMIT_NOUNS.message), false],
    ['a 429 without a message', 'rate_limit', undefined, false],
    ['another kind naming new conversations', 'http', limit(LIMIT_NOUNS.conversation), false],
  ] as const)('tells %s: %s', (_, kind, detail, expected) => {
    expect(errors.isConversationLimit(new errors.ChatError(kind, 'HTTP 429', { detail }))).toBe(expected);
  });
});

describe('kindForStatus', () => {
  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [402, 'quota'],
    [404, 'not_found'],
    [410, 'not_found'],
    [429, 'rate_limit'],
    [400, 'http'],
    [422, 'http'],
    [500, 'http'],
    [503, 'http'],
  ] as const)('maps %i to %s', (status, kind) => {
    expect(errors.kindForStatus(status)).toBe(kind);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');

  it.each([
    ['30', 30],
    [' 0 ', 0],
    ['Sun, 22 Nov 2026 12:01:30 GMT', 90],
    ['Sun, 22 Nov 2026 11:00:00 GMT', 0],
  ])('reads %j as %i seconds', (value, seconds) => {
    expect(errors.parseRetryAfter(value, now)).toBe(seconds);
  });

  it.each([null, '', 'soon', '-5', '1.5', '2026-11-22T12:01:30Z', '22 Nov 2026 12:01:30 GMT'])(
    'reads %j as no wait: neither delay-seconds nor an HTTP date',
    (value) => {
      expect(errors.parseRetryAfter(value, now)).toBeUndefined();
    },
  );
});

describe('notProxyError', () => {
  it.each([
    ['text/html; charset=utf-8', 'answered 404 text/html, not the Askbox proxy'],
    ['text/html ; charset=utf-8', 'answered 404 text/html, not the Askbox proxy'],
    [undefined, 'answered 404 without a content type, not the Askbox proxy'],
  ])('names the status and the content type %j', (type, message) => {
    const response = new Response(null, { status: 404, headers: type ? { 'content-type': type } : {} });
    expect(errors.notProxyError(response)).toMatchObject({ kind: 'http', status: 404, notProxy: true, message });
  });
});

/** A signal aborted already. */
function aborted(): AbortSignal {
  const controller = new AbortController();
  controller.abort();
  return controller.signal;
}

describe('toChatError', () => {
  it('keeps a ChatError as it is', () => {
    const error = new errors.ChatError('stream', 'cut');
    expect(errors.toChatError(error, aborted())).toBe(error);
  });

  it.each([
    ['an AbortError', new DOMException('The operation was aborted.', 'AbortError'), undefined],
    ['a failure after the signal aborted', new TypeError('Failed to fetch'), aborted()],
  ])('reads %s as aborted, keeping the cause', (_, cause, signal) => {
    expect(errors.toChatError(cause, signal)).toMatchObject({ kind: 'aborted', message: 'Aborted', cause });
  });

  it.each([
    ['a fetch failure', new TypeError('Failed to fetch'), 'Failed to fetch'],
    ['an error of another name', Object.assign(new Error('reset'), { name: 'TimeoutError' }), 'reset'],
    ['a thrown string', 'offline', 'Network error'],
  ])('reads %s as a network error, keeping the cause', (_, cause, message) => {
    expect(errors.toChatError(cause, new AbortController().signal)).toMatchObject({
      kind: 'network',
      message,
      retryable: true,
      cause,
    });
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';

// Loaded afresh per test, so the module's tables (Laravel's boolean values) count towards the tests that read them.
let createValidator: typeof import('../../../../src/proxy/core/validate').createValidator;
beforeEach(async () => {
  vi.resetModules();
  ({ createValidator } = await import('../../../../src/proxy/core/validate'));
});

/** The 422 a validator answers once every field is checked, read as the widget reads it; null when all passed. */
async function refusalOf(validator: ReturnType<typeof createValidator>) {
  const refusal = validator.failed();
  if (!refusal) return null;
  expect(refusal.status).toBe(422);
  return (await refusal.json()) as { message: string; errors: Record<string, string[]> };
}

describe("the service's field rules, as the proxy repeats them", () => {
  it('finds a number present but no string, and lets a null optional field through', async () => {
    const v = createValidator({ content: 5, comment: null });
    expect(v.text('content', 10)).toBeUndefined();
    expect(v.optionalText('comment', 10)).toBeUndefined();
    expect(await refusalOf(v)).toEqual({
      message: 'The content field must be a string.',
      errors: { content: ['The content field must be a string.'] },
    });
  });

  it.each([
    ['missing', undefined, 'The content field is required.'],
    ['null', null, 'The content field is required.'],
    ['blank text', ' \t\n', 'The content field is required.'],
    ['an empty object', {}, 'The content field is required.'],
    ['an empty list', [], 'The content field is required.'],
    ['a filled object', { a: 1 }, 'The content field must be a string.'],
    ['a filled list', ['a'], 'The content field must be a string.'],
    ['zero', 0, 'The content field must be a string.'],
    ['false', false, 'The content field must be a string.'],
  ])('refuses content that is %s, as Laravel words it', async (_, content, message) => {
    const v = createValidator({ content });
    expect(v.text('content')).toBeUndefined();
    expect(await refusalOf(v)).toEqual({ message, errors: { content: [message] } });
  });

  it('counts text in characters (code points), as the service does, up to its maximum', async () => {
    // Three emoji are six UTF-16 units but three characters.
    const atMost = createValidator({ content: '😀😀😀', name: 'abc' });
    expect(atMost.text('content', 3)).toBe('😀😀😀');
    expect(atMost.optionalText('name', 3)).toBe('abc');
    expect(await refusalOf(atMost)).toBeNull();

    const over = createValidator({ content: '😀😀😀😀', name: 'abcd' });
    expect(over.text('content', 3)).toBeUndefined();
    expect(over.optionalText('name', 3)).toBeUndefined();
    expect(await refusalOf(over)).toEqual({
      message: 'The content field must not be greater than 3 characters. (and 1 more error)',
      errors: {
        content: ['The content field must not be greater than 3 characters.'],
        name: ['The name field must not be greater than 3 characters.'],
      },
    });
  });

  it('takes text of any length where no maximum is given, but not a present non-string optional field', async () => {
    const v = createValidator({ content: 'x'.repeat(10_000), name: 7 });
    expect(v.text('content')).toHaveLength(10_000);
    expect(v.optionalText('name', 100)).toBeUndefined();
    expect((await refusalOf(v))?.errors).toEqual({ name: ['The name field must be a string.'] });
  });

  it.each([
    [true, true],
    [1, true],
    ['1', true],
    ['true', true],
    [false, false],
    [0, false],
    ['0', false],
    ['false', false],
  ])("reads Laravel's boolean %j as %s, whatever the default", async (value, expected) => {
    for (const fallback of [true, false]) {
      const v = createValidator({ redirect: value });
      expect(v.flag('redirect', fallback)).toBe(expected);
      expect(await refusalOf(v)).toBeNull();
    }
  });

  it.each([undefined, null])('takes the default for a boolean that is %s', async (value) => {
    for (const fallback of [true, false]) {
      const v = createValidator({ redirect: value });
      expect(v.flag('redirect', fallback)).toBe(fallback);
      expect(await refusalOf(v)).toBeNull();
    }
  });

  it.each(['yes', 'TRUE', 2, '', {}])('refuses %j as a boolean, keeping the default', async (value) => {
    const v = createValidator({ redirect: value });
    expect(v.flag('redirect', true)).toBe(true);
    expect(await refusalOf(v)).toEqual({
      message: 'The redirect field must be true or false.',
      errors: { redirect: ['The redirect field must be true or false.'] },
    });
  });

  it('takes one of the allowed values, and refuses another or none', async () => {
    const allowed = ['positive', 'negative'] as const;
    expect(createValidator({ rating: 'negative' }).oneOf('rating', allowed)).toBe('negative');
    const other = createValidator({ rating: 'Positive' });
    expect(other.oneOf('rating', allowed)).toBeUndefined();
    expect((await refusalOf(other))?.message).toBe('The selected rating is invalid.');
    const none = createValidator({});
    expect(none.oneOf('rating', allowed)).toBeUndefined();
    expect((await refusalOf(none))?.message).toBe('The rating field is required.');
  });

  it('asks `exists` only about a value given, and answers the same "invalid" for any id it does not find', async () => {
    const exists = vi.fn(async (value: unknown) => (value === 'mine' ? { id: 'mine' } : null));
    expect(await createValidator({ conversation_id: 'mine' }).exists('conversation_id', exists)).toEqual({
      id: 'mine',
    });
    const theirs = createValidator({ conversation_id: 'theirs' });
    expect(await theirs.exists('conversation_id', exists)).toBeUndefined();
    expect((await refusalOf(theirs))?.errors).toEqual({
      conversation_id: ['The selected conversation id is invalid.'],
    });
    expect(exists).toHaveBeenCalledTimes(2);
    const missing = createValidator({ conversation_id: '' });
    expect(await missing.exists('conversation_id', exists)).toBeUndefined();
    expect((await refusalOf(missing))?.message).toBe('The conversation id field is required.');
    expect(exists).toHaveBeenCalledTimes(2);
  });

  it('answers with the first error and the count of the others, keyed by field in the order checked', async () => {
    const v = createValidator({ content: '', conversation_id: 5, redirect: 'maybe', rating: 'meh' });
    v.text('content');
    v.text('conversation_id');
    v.flag('redirect', false);
    v.oneOf('rating', ['positive']);
    const refusal = await refusalOf(v);
    expect(refusal?.message).toBe('The content field is required. (and 3 more errors)');
    expect(Object.keys(refusal?.errors ?? {})).toEqual(['content', 'conversation_id', 'redirect', 'rating']);
  });

  it('lists every error a field collects, in order', async () => {
    const v = createValidator({ content: 5 });
    v.text('content');
    v.text('content', 1);
    expect(await refusalOf(v)).toEqual({
      message: 'The content field must be a string. (and 1 more error)',
      errors: { content: ['The content field must be a string.', 'The content field must be a string.'] },
    });
  });
});

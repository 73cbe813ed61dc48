import { describe, expect, it } from 'vitest';
import { createValidator } from '../../../../src/proxy/core/validate';

describe("the service's field rules, as the proxy repeats them", () => {
  it('finds a number present but no string, and lets a null optional field through', async () => {
    const v = createValidator({ content: 5, comment: null });
    expect(v.text('content', 10)).toBeUndefined();
    expect(v.optionalText('comment', 10)).toBeUndefined();
    const refusal = v.failed();
    expect(refusal?.status).toBe(422);
    expect(await refusal?.json()).toEqual({
      message: 'The content field must be a string.',
      errors: { content: ['The content field must be a string.'] },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { toChunks } from '../../../../demo/simulator/stream';

describe('toChunks', () => {
  it('splits chunks on code points, cycling sizes', () => {
    expect(toChunks('ab👋cd', [1, 2])).toEqual(['a', 'b👋', 'c', 'd']);
  });
});

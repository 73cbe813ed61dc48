import { describe, expect, it } from 'vitest';
import { duplicateSelectors } from '../../helpers/stylesheet.js';

describe('duplicateSelectors', () => {
  it.each([
    { title: 'the same rule twice', css: '.a { color: red; }\n.b {}\n.a { top: 0; }', twice: ['.a'] },
    { title: 'a list in another order', css: '.a,\n.b { top: 0; }\n.b, .a { left: 0; }', twice: ['.a, .b'] },
    { title: 'twice in one media query', css: '@media x { .a {} }\n@media x { .a {} }', twice: ['@media x .a'] },
    { title: 'in and out of a media query', css: '.a {}\n@media x { .a {} }', twice: [] },
    { title: 'alone and in a list', css: '.a {}\n.a, .b {}', twice: [] },
    { title: "keyframes' steps", css: '@keyframes k { 50% {} }\n@keyframes j { 50% {} }', twice: [] },
    { title: 'a comment between', css: '.a /* one */ {}\n.a {}', twice: ['.a'] },
  ])('finds $title', ({ css, twice }) => {
    expect(duplicateSelectors(css)).toEqual(twice);
  });
});

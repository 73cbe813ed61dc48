import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../../src/config/closest';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['position', 'position', 0],
    ['positon', 'position', 1],
    ['botid', 'bot-id', 1],
    ['sned', 'send', 1],
    ['ab', 'ba', 1],
    ['abcd', 'badc', 2],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3],
    ['theme', 'title', 3],
  ])('turns "%s" into "%s" in %i edits, a swap of neighbours counting as one', (a, b, edits) => {
    expect(editDistance(a, b)).toBe(edits);
    expect(editDistance(b, a)).toBe(edits);
  });
});

describe('closestName', () => {
  const settings = ['botId', 'proxyUrl', 'position', 'theme', 'title', 'open', 'mode', 'dir', 'textSend', 'textMenu'];

  it.each([
    ['botid', 'botId'],
    ['BOTID', 'botId'],
    ['positon', 'position'],
    ['postion', 'position'],
    ['proxyURL', 'proxyUrl'],
    ['proxyUrll', 'proxyUrl'],
    ['textSned', 'textSend'],
    ['thme', 'theme'],
  ])('takes "%s" for a typo of "%s"', (typed, meant) => {
    expect(closestName(typed, settings)).toBe(meant);
  });

  it.each([['colour'], ['accentColour'], ['x'], ['mo'], ['lang'], ['']])(
    'suggests nothing for "%s": no setting is near enough',
    (typed) => {
      expect(closestName(typed, settings)).toBeUndefined();
    },
  );

  it('allows one edit per three characters, at most two', () => {
    expect(closestName('opn', ['open'])).toBe('open');
    expect(closestName('op', ['open'])).toBeUndefined();
    expect(closestName('positn', ['position'])).toBe('position');
    expect(closestName('postn', ['position'])).toBeUndefined();
    expect(closestName('conversatonNme', ['conversationName'])).toBe('conversationName');
    expect(closestName('convrsatonNme', ['conversationName'])).toBeUndefined();
  });

  it('takes the nearest, and the first of equally near ones', () => {
    expect(closestName('titel', ['theme', 'tile', 'title'])).toBe('title');
    expect(closestName('mde', ['mode', 'made'])).toBe('mode');
  });
});

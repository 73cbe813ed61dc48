import { describe, expect, it } from 'vitest';
import { attributeOf, describeUnknown, findUnknown } from '../../../src/config/unknown';

describe('attributeOf', () => {
  it('names a key as the attribute it comes from, on a script tag or on <askbox-chat>', () => {
    expect(attributeOf('botId')).toBe('data-bot-id');
    expect(attributeOf('textSned')).toBe('data-text-sned');
    expect(attributeOf('botid')).toBe('data-botid');
    expect(attributeOf('botId', '')).toBe('bot-id');
    expect(attributeOf('text.sendd')).toBe('data-text key "sendd"');
    expect(attributeOf('text.errors.htp', '')).toBe('text key "errors.htp"');
  });
});

describe('findUnknown', () => {
  it('names the keys it does not know, in order, and the known key each is near', () => {
    const known = ['botId', 'position', 'theme'];
    const found = findUnknown(['botid', 'theme', 'colour', 'positon'], known);
    expect(found.unknown).toEqual(['botid', 'colour', 'positon']);
    expect([...found.closest]).toEqual([
      ['botid', 'botId'],
      ['positon', 'position'],
    ]);
  });
});

describe('describeUnknown', () => {
  const found = {
    unknown: ['botid', 'colour', 'textSned'],
    closest: new Map([
      ['botid', 'botId'],
      ['textSned', 'textSend'],
    ]),
  };

  it('names each key as written and the one it is likely a typo of, in one line', () => {
    expect(describeUnknown(found, (key) => attributeOf(key))).toBe(
      'data-botid (did you mean data-bot-id?), data-colour, data-text-sned (did you mean data-text-send?)',
    );
    expect(describeUnknown(found, (key) => attributeOf(key, ''))).toBe(
      'botid (did you mean bot-id?), colour, text-sned (did you mean text-send?)',
    );
  });

  it('names mount() options as keys', () => {
    expect(describeUnknown(found)).toBe('botid (did you mean botId?), colour, textSned (did you mean textSend?)');
  });
});

import { describe, expect, it } from 'vitest';
import { CHAT_TEXT, toChatText, unknownTextKeys } from '../../../src/config/chat-text';

// The chat file's own strings: which override wins, blanks around a value, and which keys are named as unknown.

describe('the chat file’s strings', () => {
  it('takes an override over the pack, from its attribute or from data-text, and only a string', () => {
    const pack = { menu: 'Mehr' };
    expect(toChatText(pack).menu).toBe('Mehr');
    expect(toChatText(pack, { textMenu: 'More!' }).menu).toBe('More!');
    expect(toChatText(pack, { text: { menu: 'More!' } }).menu).toBe('More!');
    expect(toChatText(pack, { text: '{"menu": "More!"}' }).menu).toBe('More!');
    expect(toChatText(pack, { textMenu: 7, text: { menu: ['More!'] } }).menu).toBe('Mehr');
  });

  it('reads a pack’s string without the blanks around it, and a blank one as English', () => {
    expect(toChatText({ menu: '  Mehr  ', back: ' ' })).toEqual({ ...CHAT_TEXT, menu: 'Mehr' });
  });

  it('keeps an override’s blanks (the launcher has refused a blank one already)', () => {
    expect(toChatText({}, { textMenu: ' More ' }).menu).toBe(' More ');
  });

  it.each([['{'], ['null'], ['"menu"'], ['7']])('passes over a data-text of %s', (text) => {
    expect(toChatText({}, { text })).toEqual(CHAT_TEXT);
    expect(unknownTextKeys({ text }).unknown).toEqual([]);
  });

  it('names only the attributes that start with text and a capital letter', () => {
    const input = { textual: 'x', text: '{}', xtextMenu: 'x', textMenuu: 'x', textMenu: 'x' };
    expect(unknownTextKeys(input).unknown).toEqual(['textMenuu']);
    expect(unknownTextKeys({ text: { errors: { network: 'x', netwrok: 'y' } } }).unknown).toEqual([
      'text.errors.netwrok',
    ]);
  });

  it('names, for each unknown text key, the key it is likely a typo of, at its own level', () => {
    const input = {
      textSned: 'x',
      textErrorsNetwerk: 'x',
      textColour: 'x',
      text: { sendd: 'x', errors: { htp: 'x' } },
    };
    expect([...unknownTextKeys(input).closest]).toEqual([
      ['textSned', 'textSend'],
      ['textErrorsNetwerk', 'textErrorsNetwork'],
      ['text.sendd', 'text.send'],
      ['text.errors.htp', 'text.errors.http'],
    ]);
  });
});

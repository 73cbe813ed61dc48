import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as ChatText from '../../../src/config/chat-text';
import type * as Parse from '../../../src/config/parse';

// The chat file's own strings: which override wins, blanks around a value, and which keys are named as unknown.

// Imported afresh for each test: the English strings are built when the module loads, and a runner that keeps
// modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once
// per file, so that Stryker counts the load towards the test that checks it.
let CHAT_TEXT: typeof ChatText.CHAT_TEXT;
let localizeFrame: typeof ChatText.localizeFrame;
let toChatText: typeof ChatText.toChatText;
let unknownTextKeys: typeof ChatText.unknownTextKeys;
let parseLauncherConfig: typeof Parse.parseLauncherConfig;
beforeEach(async () => {
  vi.resetModules();
  ({ CHAT_TEXT, localizeFrame, toChatText, unknownTextKeys } = await import('../../../src/config/chat-text'));
  ({ parseLauncherConfig } = await import('../../../src/config/parse'));
});

describe('the chat file’s English strings', () => {
  it('write out every string of the menu, the list, feedback and consent: none blank or padded, no two alike', () => {
    const strings = Object.entries(CHAT_TEXT);
    expect(strings).toHaveLength(28);
    for (const [key, value] of strings) {
      expect(value.trim(), key).not.toBe('');
      expect(value, key).toBe(value.trim());
    }
    expect(new Set(Object.values(CHAT_TEXT)).size).toBe(strings.length);
    // A visitor without a pack reads them as they are.
    expect(toChatText({})).toEqual(CHAT_TEXT);
  });
});

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

/** The launcher's config of `input`, as the script tag reads it. */
function launcherConfig(input: Record<string, unknown>) {
  const { config } = parseLauncherConfig({ botId: 'b', proxyUrl: '/askbox', ...input });
  if (!config) throw new Error('invalid');
  return config;
}

describe('the frame’s strings, when the chat file did not come', () => {
  it('reads the pack’s title and strings, English where it has none', () => {
    const pack = { title: 'Fragen Sie uns', loadFailed: 'Nicht geladen.', retry: 'Nochmal' };
    expect(localizeFrame(launcherConfig({}), pack)).toEqual({
      title: 'Fragen Sie uns',
      text: {
        close: 'Close',
        retry: 'Nochmal',
        loading: 'Loading…',
        loadFailed: 'Nicht geladen.',
        loadFailedHint: 'Please check your connection and try again.',
        limitContact: 'Contact us',
      },
    });
  });

  it('keeps the site’s own title and strings over the pack’s', () => {
    const config = launcherConfig({ title: 'Acme', textRetry: 'Again', text: '{"loadFailedHint": "Call us."}' });
    const { title, text } = localizeFrame(config, { title: 'Fragen', retry: 'Nochmal', loadFailedHint: 'Prüfen.' });
    expect({ title, retry: text.retry, hint: text.loadFailedHint }).toEqual({
      title: 'Acme',
      retry: 'Again',
      hint: 'Call us.',
    });
  });
});

import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { LANGUAGES, localeText } from '../../../src/config/locale';
import { TABLES } from '../../../src/config/locales/index';
import { parseConfig } from '../../../src/config/parse';
import { CHAT_TEXT, toChatText } from '../../../src/config/chat-text';
import { DEFAULT_TEXT } from '../../../src/config/schema';
import type { WidgetHandle } from '../../../src/mount/handle';
import { HOST_TAG } from '../../../src/mount/shadow-host';
import { createChat } from '../../../src/mount/chat';
import { startWidget } from '../../../src/mount/widget';
import { createFakeClient, storedReply } from '../../helpers/fake-client';
import { createMemoryStorage } from '../../helpers/memory-storage';

let handle: WidgetHandle | undefined;
afterEach(() => {
  handle?.destroy();
  document.body.replaceChildren();
});

const shadow = () => document.querySelector(HOST_TAG)!.shadowRoot!;

/** Every string the widget shows or names in its own words: text outside messages, labels, titles, placeholders. */
function uiStrings(): string[] {
  const root = shadow();
  const strings: string[] = [];
  for (const el of root.querySelectorAll('*')) {
    for (const name of ['aria-label', 'title', 'placeholder']) {
      const value = el.getAttribute(name);
      if (value) strings.push(value);
    }
  }
  for (const el of root.querySelectorAll(
    '.msg__note, .sources__label, .sr-only, .title, .link-button, .menu__item, .notice__text, h3',
  ))
    strings.push(el.textContent?.trim() ?? '');
  return strings.filter(Boolean);
}

const ENGLISH = new Set(
  [...Object.values(DEFAULT_TEXT), ...Object.values(DEFAULT_TEXT.errors), ...Object.values(CHAT_TEXT)].filter(
    (v) => typeof v === 'string',
  ),
);

describe.each(LANGUAGES.filter((language) => language !== 'en'))('the widget in %s', (language) => {
  it('shows every string of a conversation with sources and a failed reply in that language', async () => {
    const fake = createFakeClient();
    const { config } = parseConfig(
      { botId: 'yiu456ytyUjk', proxyUrl: '/askbox', locale: language },
      { tables: TABLES },
    );
    const widget = startWidget(config!, {
      chat: () => createChat,
      client: fake.client,
      storage: createMemoryStorage(),
      tabStorage: createMemoryStorage(),
    });
    widget.attach(document.body);
    handle = widget.handle;
    const strings = localeText(language, TABLES[language]);
    const launcher = shadow().querySelector('.launcher')!;
    expect(launcher.getAttribute('aria-label')).toBe(strings.text.launcher);

    fireEvent.click(launcher);
    const input = shadow().querySelector('textarea')!;
    expect(input.getAttribute('placeholder')).toBe(strings.placeholder);
    expect(shadow().querySelector('.msg--welcome')?.textContent).toBe(strings.welcome);

    fake.state.storedReply = storedReply('Answer', { sources: [{ document_name: 'Guide', document_id: 'd1' }] });
    void handle.send('Question');
    fake.reply('Answer');
    await waitFor(() => expect(shadow().querySelector('.sources')).not.toBeNull());
    fake.state.storedReply = storedReply('', { id: 'reply0000002', failed_responding: true });
    void handle.send('Again');
    fake.reply('');
    await waitFor(() => expect(shadow().querySelector('.msg--failed')).not.toBeNull());

    // The header menu, open, and the delete confirmation (issue 23).
    const chatText = toChatText(TABLES[language]!);
    fireEvent.click(shadow().querySelector('[aria-haspopup="menu"]')!);
    await waitFor(() => expect(shadow().querySelector('.menu__item')).not.toBeNull());
    fireEvent.click(shadow().querySelectorAll<HTMLElement>('.menu__item')[3]!);
    await waitFor(() => expect(shadow().querySelector('.confirm')).not.toBeNull());
    fireEvent.click(shadow().querySelector('[aria-haspopup="menu"]')!);
    await waitFor(() => expect(shadow().querySelector('.menu__item')).not.toBeNull());

    const shown = uiStrings();
    // The conversation list, its one entry (this conversation) marked as the one in use.
    fireEvent.click(shadow().querySelector<HTMLElement>('.menu__item')!);
    await waitFor(() => expect(shadow().querySelector('.convos')).not.toBeNull());
    const listed = uiStrings();
    expect(listed).toContain(chatText.conversations);
    expect(listed).toContain(chatText.back);
    expect(shadow().querySelector('[aria-current] small')?.textContent).toContain(` · ${chatText.current}`);

    for (const key of [
      'menu',
      'copyConversation',
      'deleteConversation',
      'deleteConfirm',
      'rateUp',
      'rateDown',
    ] as const)
      expect(shown, key).toContain(chatText[key]);
    expect(shown).toContain(strings.title);
    expect(shown).toContain(strings.text.sources);
    expect(shown).toContain(strings.text.retry);
    // A word both languages use ("Chat") is the language's own.
    const own = new Set(Object.values(TABLES[language]!));
    expect([...shown, ...listed].filter((value) => ENGLISH.has(value) && !own.has(value))).toEqual([]);
    expect(shadow().querySelector('.askbox')?.getAttribute('lang')).toBe(language);
  });
});

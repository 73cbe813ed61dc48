import { fireEvent, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { CHAT_TEXT } from '../../../src/config/chat-text';
import { TABLES } from '../../../src/config/locales/index';
import { parseConfig } from '../../../src/config/parse';
import type { WidgetHandle } from '../../../src/mount/handle';
import { createChat } from '../../../src/mount/chat';
import { startWidget } from '../../../src/mount/widget';
import { HOST_TAG } from '../../../src/mount/shadow-host';
import { createMemoryStorage } from '../../helpers/memory-storage';
import { createFakeClient, storedReply } from '../../helpers/fake-client';

const root = () => document.querySelector(HOST_TAG)!.shadowRoot!;
const ui = () => within(root() as unknown as HTMLElement);
const focused = () => root().activeElement;
const key = (target: Element, name: string) => fireEvent.keyDown(target, { key: name, bubbles: true });
const view = () => ui().queryByRole('region', { name: CHAT_TEXT.conversations });
const entries = () => [...root().querySelectorAll<HTMLButtonElement>('.convos li button')];

let handle: WidgetHandle | undefined;
afterEach(() => {
  handle?.destroy();
  document.body.replaceChildren();
});

/** An open widget on a fake client, with a conversation for each of `questions`, the last one in use. */
async function setup(...questions: string[]) {
  const fake = createFakeClient();
  const storage = createMemoryStorage();
  const { config } = parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox' }, { tables: TABLES });
  const widget = startWidget(config!, { chat: () => createChat, client: fake.client, storage, tabStorage: storage });
  widget.attach(document.body);
  handle = widget.handle;
  handle.open();
  await waitFor(() => expect(ui().getByRole('dialog')).toBeTruthy());
  for (const [index, question] of questions.entries()) {
    if (index > 0) fireEvent.click(ui().getByRole('button', { name: 'Start a new conversation' }));
    const sent = handle.send(question);
    fake.reply(`Answer to ${question}`);
    await sent;
  }
  return { fake, storage };
}

const openList = async () => {
  fireEvent.click(ui().getByRole('button', { name: CHAT_TEXT.menu }));
  fireEvent.click(await ui().findByRole('menuitem', { name: CHAT_TEXT.conversations }));
  await waitFor(() => expect(view()).not.toBeNull());
};

describe('the conversation list', () => {
  it('lists the conversations newest first, the one in use marked, with focus on the first', async () => {
    await setup('First question', 'Second question');
    await openList();
    expect(entries().map((entry) => entry.querySelector('span')?.textContent)).toEqual([
      'Second question',
      'First question',
    ]);
    expect(entries().map((entry) => entry.getAttribute('aria-current'))).toEqual(['true', null]);
    expect(entries()[0]!.textContent).toContain(` · ${CHAT_TEXT.current}`);
    // Last activity in the visitor's locale: today, the time alone.
    expect(entries()[1]!.querySelector('small')?.textContent).toMatch(/\d{1,2}:\d{2}/);
    expect(focused()).toBe(entries()[0]);
    // The conversation itself and its composer make way for the list.
    expect(root().querySelector('textarea')).toBeNull();
  });

  it('opens an earlier conversation with its history, and focus goes back to the message box', async () => {
    const { fake } = await setup('First question', 'Second question');
    await openList();
    fake.state.history = [storedReply('The first answer, stored')];
    fireEvent.click(entries()[1]!);
    await waitFor(() => expect(view()).toBeNull());
    await waitFor(() => expect(root().querySelector('.log')?.textContent).toContain('The first answer, stored'));
    expect(focused()).toBe(root().querySelector('textarea'));
    await openList();
    expect(entries()[1]!.getAttribute('aria-current')).toBe('true');
  });

  it('Escape and Back return to the conversation, the panel open and the message box focused', async () => {
    await setup('A question');
    await openList();
    key(focused()!, 'Escape');
    await waitFor(() => expect(view()).toBeNull());
    expect(ui().getByRole('dialog')).toBeTruthy();
    expect(focused()).toBe(root().querySelector('textarea'));
    expect(root().querySelector('.log')?.textContent).toContain('Answer to A question');
    await openList();
    fireEvent.click(ui().getByRole('button', { name: CHAT_TEXT.back }));
    await waitFor(() => expect(view()).toBeNull());
    expect(focused()).toBe(root().querySelector('textarea'));
  });

  it('says there are none yet before the first message, focus on Back, and stores nothing', async () => {
    const { storage } = await setup();
    await openList();
    expect(ui().getByText(CHAT_TEXT.noConversations)).toBeTruthy();
    expect(focused()).toBe(ui().getByRole('button', { name: CHAT_TEXT.back }));
    expect(storage.get('conversations:yiu456ytyUjk@/askbox')).toBeUndefined();
  });

  it('asks to delete in the conversation, not over the list, and the deleted one leaves the list', async () => {
    await setup('First question', 'Second question');
    await openList();
    fireEvent.click(ui().getByRole('button', { name: CHAT_TEXT.menu }));
    fireEvent.click(await ui().findByRole('menuitem', { name: CHAT_TEXT.deleteConversation }));
    await waitFor(() => expect(focused()?.textContent).toBe(CHAT_TEXT.cancel));
    expect(view()).toBeNull();
    fireEvent.click(ui().getByRole('button', { name: CHAT_TEXT.deleteAction }));
    await waitFor(() => expect(root().querySelector('.confirm')).toBeNull());
    await openList();
    expect(entries().map((entry) => entry.querySelector('span')?.textContent)).toEqual(['First question']);
  });
});

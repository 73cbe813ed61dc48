import { fireEvent, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatError } from '../../../src/api/errors';
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
const menuButton = () => ui().getByRole('button', { name: CHAT_TEXT.menu });
const key = (target: Element, name: string) => fireEvent.keyDown(target, { key: name, bubbles: true });
const items = () =>
  ui()
    .getAllByRole('menuitem')
    .map((item) => item.textContent);

let handle: WidgetHandle | undefined;
afterEach(() => {
  handle?.destroy();
  document.body.replaceChildren();
});

/** An open widget on a fake client, with one answered question when `answered`. */
async function setup(answered = true, storage = createMemoryStorage(), extra: Record<string, string> = {}) {
  const fake = createFakeClient();
  const { config } = parseConfig(
    { botId: 'yiu456ytyUjk', proxyUrl: '/askbox', title: 'Help', ...extra },
    { tables: TABLES },
  );
  const widget = startWidget(config!, { chat: () => createChat, client: fake.client, storage, tabStorage: storage });
  widget.attach(document.body);
  handle = widget.handle;
  const events: unknown[] = [];
  handle.on('feedback', (detail) => events.push(detail));
  handle.on('handoff', (detail) => events.push(detail));
  handle.open();
  await waitFor(() => expect(ui().getByRole('dialog')).toBeTruthy());
  if (answered) {
    fake.state.storedReply = storedReply('The **answer**', {
      sources: [{ document_name: 'Guide [v2]', document_id: 'd1', document_url: 'https://example.com/guide' }],
    });
    const sent = handle.send('The question');
    fake.reply('The **answer**');
    await sent;
  }
  return { fake, events, storage };
}

describe('the header menu', () => {
  it('follows the menu-button pattern: arrows, Home, End, Escape back to the button, the panel still open', async () => {
    await setup();
    const button = menuButton();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    key(button, 'ArrowDown');
    await waitFor(() => expect(focused()?.textContent).toBe(CHAT_TEXT.conversations));
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(ui().getByRole('menu').getAttribute('aria-labelledby')).toBe(button.id);
    expect(items()).toEqual([
      CHAT_TEXT.conversations,
      CHAT_TEXT.copyConversation,
      CHAT_TEXT.downloadConversation,
      CHAT_TEXT.deleteConversation,
    ]);
    key(focused()!, 'ArrowDown');
    expect(focused()?.textContent).toBe(CHAT_TEXT.copyConversation);
    key(focused()!, 'End');
    expect(focused()?.textContent).toBe(CHAT_TEXT.deleteConversation);
    key(focused()!, 'ArrowDown');
    expect(focused()?.textContent).toBe(CHAT_TEXT.conversations);
    key(focused()!, 'ArrowUp');
    expect(focused()?.textContent).toBe(CHAT_TEXT.deleteConversation);
    key(focused()!, 'Home');
    expect(focused()?.textContent).toBe(CHAT_TEXT.conversations);
    key(focused()!, 'Escape');
    await waitFor(() => expect(ui().queryByRole('menu')).toBeNull());
    expect(focused()).toBe(button);
    expect(ui().getByRole('dialog')).toBeTruthy();
    // Up opens it on its last item; Tab closes it.
    key(button, 'ArrowUp');
    await waitFor(() => expect(focused()?.textContent).toBe(CHAT_TEXT.deleteConversation));
    key(focused()!, 'Tab');
    await waitFor(() => expect(ui().queryByRole('menu')).toBeNull());
  });

  it('copies the conversation as Markdown, sources as links, and says so', async () => {
    const { storage } = await setup();
    let copied = '';
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void (copied = text) },
    });
    fireEvent.click(menuButton());
    fireEvent.click(ui().getByRole('menuitem', { name: CHAT_TEXT.copyConversation }));
    await waitFor(() => expect(copied).not.toBe(''));
    expect(copied).toMatch(
      /^# Help\n\n\*\*You\*\* · .+\n\nThe question\n\n\*\*Assistant\*\* · .+\n\nThe \*\*answer\*\*/,
    );
    expect(copied).toContain('Sources:\n\n- [Guide \\[v2\\]](<https://example.com/guide>)');
    // Said once, by the panel's one live region; shown beside the menu's button, hidden from screen readers.
    await waitFor(() =>
      expect(
        ui()
          .getAllByRole('status')
          .filter((s) => s.textContent === 'Copied'),
      ).toHaveLength(1),
    );
    await waitFor(() => expect(root().querySelector('.head__note')).not.toBeNull());
    const note = root().querySelector('.head__note')!;
    expect(note.textContent).toBe('Copied');
    expect(note.getAttribute('aria-hidden')).toBe('true');
    expect(note.nextElementSibling?.contains(menuButton())).toBe(true);
    expect(storage.get('conversation:yiu456ytyUjk@/askbox')).toBeDefined();
  });

  it('offers nothing to copy, download or delete in an empty conversation', async () => {
    await setup(false);
    fireEvent.click(menuButton());
    await waitFor(() => expect(ui().getAllByRole('menuitem')).toHaveLength(4));
    const disabled = ui()
      .getAllByRole('menuitem')
      .map((item) => item.getAttribute('aria-disabled'));
    expect(disabled).toEqual([null, 'true', 'true', 'true']);
    fireEvent.click(ui().getByRole('menuitem', { name: CHAT_TEXT.deleteConversation }));
    expect(ui().queryByRole('group', { name: CHAT_TEXT.deleteConfirm })).toBeNull();
  });
});

describe('deleting the conversation', () => {
  it('asks first in the panel, Escape cancels, and the delete removes it at the service and from storage', async () => {
    const { fake, storage } = await setup();
    fireEvent.click(menuButton());
    fireEvent.click(ui().getByRole('menuitem', { name: CHAT_TEXT.deleteConversation }));
    const confirm = await ui().findByRole('group', { name: CHAT_TEXT.deleteConfirm });
    await waitFor(() => expect(focused()?.textContent).toBe(CHAT_TEXT.cancel));
    key(focused()!, 'Escape');
    await waitFor(() => expect(ui().queryByRole('group', { name: CHAT_TEXT.deleteConfirm })).toBeNull());
    expect(focused()).toBe(menuButton());
    expect(ui().getByRole('dialog')).toBeTruthy();
    expect(confirm.isConnected).toBe(false);
    expect(fake.state.deleted).toEqual([]);

    fireEvent.click(menuButton());
    fireEvent.click(ui().getByRole('menuitem', { name: CHAT_TEXT.deleteConversation }));
    fireEvent.click(await ui().findByRole('button', { name: CHAT_TEXT.deleteAction }));
    await waitFor(() => expect(fake.state.deleted).toEqual(['conv00000001']));
    await waitFor(() => expect(root().querySelectorAll('.msg:not(.msg--welcome)')).toHaveLength(0));
    expect(storage.get('conversation:yiu456ytyUjk@/askbox')).toBeUndefined();
    // A delete is no "new conversation": there is no Undo.
    expect(ui().queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(
      ui()
        .getAllByRole('status')
        .some((s) => s.textContent === CHAT_TEXT.deleted),
    ).toBe(true);
  });

  it('drops a delete waiting for its confirmation when the visitor starts a new conversation', async () => {
    const { fake } = await setup();
    fireEvent.click(menuButton());
    fireEvent.click(ui().getByRole('menuitem', { name: CHAT_TEXT.deleteConversation }));
    await ui().findByRole('group', { name: CHAT_TEXT.deleteConfirm });
    fireEvent.click(ui().getByRole('button', { name: 'Start a new conversation' }));
    await waitFor(() => expect(ui().queryByRole('group', { name: CHAT_TEXT.deleteConfirm })).toBeNull());
    expect(fake.state.deleted).toEqual([]);
    // Undo still brings the conversation back.
    fireEvent.click(ui().getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(root().querySelectorAll('.msg--bot:not(.msg--welcome)')).toHaveLength(1));
  });

  it('says so when the service refuses, and keeps everything', async () => {
    const { fake, storage } = await setup();
    fake.state.actionError = new ChatError('network', 'Offline');
    fireEvent.click(menuButton());
    fireEvent.click(ui().getByRole('menuitem', { name: CHAT_TEXT.deleteConversation }));
    fireEvent.click(await ui().findByRole('button', { name: CHAT_TEXT.deleteAction }));
    expect((await ui().findByRole('alert')).textContent).toBe(CHAT_TEXT.deleteFailed);
    expect(root().querySelectorAll('.msg--bot:not(.msg--welcome)')).toHaveLength(1);
    expect(storage.get('conversation:yiu456ytyUjk@/askbox')).toBeDefined();
  });
});

describe('a way to a person', () => {
  const URL_SETUP = { handoffUrl: 'https://example.com/help', handoffParam: 'chat' };

  it('is in the menu: the contact page in a new tab, with the conversation id, firing `handoff`', async () => {
    const { events } = await setup(true, createMemoryStorage(), URL_SETUP);
    fireEvent.click(menuButton());
    await waitFor(() => expect(items()).toContain(CHAT_TEXT.talkToPerson));
    expect(items().at(-1)).toBe(CHAT_TEXT.deleteConversation);
    const link = ui().getByRole('menuitem', { name: CHAT_TEXT.talkToPerson });
    expect(link.getAttribute('href')).toBe('https://example.com/help?chat=conv00000001');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener');
    link.addEventListener('click', (event) => event.preventDefault());
    fireEvent.click(link);
    expect(events).toEqual([{ conversationId: 'conv00000001', via: 'url' }]);
  });

  it('is offered under a failed reply and after a thumbs-down, and as an email with the conversation', async () => {
    const { fake } = await setup(true, createMemoryStorage(), { handoffEmail: 'help@example.com' });
    fireEvent.click(ui().getByRole('button', { name: CHAT_TEXT.rateDown }));
    const after = await ui().findByRole('link', { name: CHAT_TEXT.talkToPerson });
    expect(after.closest('form')).not.toBeNull();
    expect(after.getAttribute('href')).toMatch(
      /^mailto:help@example\.com\?subject=Help%20\(conv00000001\)&body=%23%20Help/,
    );
    expect(after.getAttribute('target')).toBeNull();
    fireEvent.click(ui().getByRole('button', { name: CHAT_TEXT.skip }));
    fake.state.storedReply = storedReply('', { id: 'reply0000002', failed_responding: true });
    const sent = handle!.send('Again');
    fake.reply('');
    await sent;
    const under = await ui().findByRole('link', { name: CHAT_TEXT.talkToPerson });
    expect(under.closest('.msg--failed')).not.toBeNull();
  });

  it('is nowhere when the site gives no way to a person', async () => {
    await setup();
    fireEvent.click(menuButton());
    await waitFor(() => expect(items()).toHaveLength(4));
    expect(ui().queryByRole('link', { name: CHAT_TEXT.talkToPerson })).toBeNull();
  });
});

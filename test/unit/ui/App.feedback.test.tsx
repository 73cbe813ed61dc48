import { fireEvent, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatError } from '../../../src/api/errors';
import { CHAT_TEXT } from '../../../src/config/chat-text';
import { parseConfig } from '../../../src/config/parse';
import { DEFAULT_TEXT } from '../../../src/config/schema';
import type { WidgetHandle } from '../../../src/mount/handle';
import { createChat } from '../../../src/mount/chat';
import { startWidget } from '../../../src/mount/widget';
import { HOST_TAG } from '../../../src/mount/shadow-host';
import { FIELDS } from '../../../src/protocol/contract';
import type { KeyValueStore } from '../../../src/state/storage';
import { createMemoryStorage } from '../../helpers/memory-storage';
import { createFakeClient, question, storedReply } from '../../helpers/fake-client';

const root = () => document.querySelector(HOST_TAG)!.shadowRoot!;
const ui = () => within(root() as unknown as HTMLElement);
const up = () => ui().getByRole('button', { name: CHAT_TEXT.rateUp });
const down = () => ui().getByRole('button', { name: CHAT_TEXT.rateDown });
const said = (text: string) =>
  ui()
    .getAllByRole('status')
    .some((s) => s.textContent === text);

let handle: WidgetHandle | undefined;
afterEach(() => {
  handle?.destroy();
  document.body.replaceChildren();
});

/** An open widget with one answered question; `stored`: a conversation the storage already holds. */
async function setup(storage: KeyValueStore = createMemoryStorage(), stored = false) {
  const fake = createFakeClient();
  const { config } = parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox' });
  const widget = startWidget(config!, { chat: () => createChat, client: fake.client, storage, tabStorage: storage });
  widget.attach(document.body);
  handle = widget.handle;
  const events: unknown[] = [];
  handle.on('feedback', (detail) => events.push(detail));
  if (stored) fake.state.history = [question('question0001', 'Q'), storedReply('A')];
  handle.open();
  if (!stored) {
    fake.state.storedReply = storedReply('A');
    const sent = handle.send('Q');
    fake.reply('A');
    await sent;
  }
  await waitFor(() => expect(up()).toBeTruthy());
  return { fake, events };
}

describe('feedback on a reply', () => {
  it('rates with toggle buttons, sends it, fires `feedback`, announces it, and lets the visitor change it', async () => {
    const { fake, events } = await setup();
    expect(up().getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(up());
    await waitFor(() => expect(fake.state.feedback).toHaveLength(1));
    expect(fake.state.feedback[0]).toEqual({
      conversation: 'conv00000001',
      messageId: 'reply0000001',
      rating: 'up',
      comment: undefined,
    });
    expect(events).toEqual([
      { messageId: 'reply0000001', conversationId: 'conv00000001', rating: 'up', comment: undefined },
    ]);
    await waitFor(() => expect(said(CHAT_TEXT.rated)).toBe(true));
    expect(up().getAttribute('aria-pressed')).toBe('true');
    expect(down().getAttribute('aria-pressed')).toBe('false');

    // Thumbs down opens the comment, focused, and waits for it; Send posts the rating once, with the comment;
    // focus returns, and "Thanks for your feedback." shows where the box was, said once by the live region.
    fireEvent.click(down());
    const field = await ui().findByRole('textbox', { name: CHAT_TEXT.comment });
    await waitFor(() => expect(root().activeElement).toBe(field));
    expect(field.getAttribute('maxlength')).toBe(String(FIELDS.feedbackCommentMax));
    expect(down().getAttribute('aria-pressed')).toBe('true');
    expect(up().getAttribute('aria-pressed')).toBe('false');
    expect(fake.state.feedback).toHaveLength(1);
    expect(events).toHaveLength(1);
    fireEvent.input(field, { target: { value: '  Out of date  ' } });
    fireEvent.click(ui().getByRole('button', { name: CHAT_TEXT.sendComment }));
    await waitFor(() => expect(fake.state.feedback).toHaveLength(2));
    expect(fake.state.feedback[1]).toEqual({
      conversation: 'conv00000001',
      messageId: 'reply0000001',
      rating: 'down',
      comment: 'Out of date',
    });
    expect(events).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ rating: 'down', comment: 'Out of date' });
    expect(ui().queryByRole('textbox', { name: CHAT_TEXT.comment })).toBeNull();
    expect(root().activeElement).toBe(down());
    await waitFor(() => expect(root().querySelector('.comment__thanks')).not.toBeNull());
    const thanks = root().querySelector('.comment__thanks')!;
    expect(thanks.textContent).toBe(CHAT_TEXT.rated);
    expect(thanks.getAttribute('aria-hidden')).toBe('true');
    expect(
      ui()
        .getAllByRole('status')
        .filter((s) => s.textContent === CHAT_TEXT.rated),
    ).toHaveLength(1);
  });

  it('sends a thumbs-down that waits for its comment once, with keepalive, as the panel closes', async () => {
    const { fake, events } = await setup();
    fireEvent.click(down());
    await ui().findByRole('textbox', { name: CHAT_TEXT.comment });
    handle!.close();
    await waitFor(() => expect(fake.state.feedback).toHaveLength(1));
    expect(fake.state.feedback[0]).toMatchObject({ rating: 'down', comment: undefined, keepalive: true });
    expect(events).toEqual([expect.objectContaining({ rating: 'down' })]);
    handle!.open();
    expect(ui().queryByRole('textbox', { name: CHAT_TEXT.comment })).toBeNull();
  });

  it('sends it as the visitor starts a new conversation, leaves the page, or the widget goes', async () => {
    const leave = [
      () => fireEvent.click(ui().getByRole('button', { name: DEFAULT_TEXT.newConversation })),
      () => window.dispatchEvent(new PageTransitionEvent('pagehide')),
      () => handle!.destroy(),
    ];
    for (const [index, act] of leave.entries()) {
      const { fake } = await setup();
      fireEvent.click(down());
      await ui().findByRole('textbox', { name: CHAT_TEXT.comment });
      act();
      await waitFor(() => expect(fake.state.feedback, String(index)).toHaveLength(1));
      expect(fake.state.feedback[0]).toMatchObject({ rating: 'down', keepalive: true });
      handle!.destroy();
      document.body.replaceChildren();
      // Nothing waits any more: the widget going sends nothing again.
      expect(fake.state.feedback).toHaveLength(1);
    }
  });

  it('Skip and Escape close the comment without sending one, the panel staying open', async () => {
    const { fake } = await setup();
    fireEvent.click(down());
    fireEvent.click(await ui().findByRole('button', { name: CHAT_TEXT.skip }));
    await waitFor(() => expect(ui().queryByRole('textbox', { name: CHAT_TEXT.comment })).toBeNull());
    fireEvent.click(down());
    const field = await ui().findByRole('textbox', { name: CHAT_TEXT.comment });
    fireEvent.keyDown(field, { key: 'Escape', bubbles: true });
    await waitFor(() => expect(ui().queryByRole('textbox', { name: CHAT_TEXT.comment })).toBeNull());
    expect(ui().getByRole('dialog')).toBeTruthy();
    // Each skip sent its thumbs-down once, without a comment.
    await waitFor(() => expect(fake.state.feedback).toHaveLength(2));
    expect(fake.state.feedback.every((f) => f.rating === 'down' && f.comment === undefined)).toBe(true);
  });

  it('keeps the rating after a failed send, says so, and Retry sends it', async () => {
    const { fake } = await setup();
    fake.state.actionError = new ChatError('rate_limit', 'HTTP 429', { status: 429 });
    fireEvent.click(up());
    await waitFor(() => expect(said(CHAT_TEXT.feedbackFailed)).toBe(true));
    expect(up().getAttribute('aria-pressed')).toBe('true');
    expect(root().querySelector('.rate__failed')?.textContent).toContain(CHAT_TEXT.feedbackFailed);
    fake.state.actionError = undefined;
    fireEvent.click(ui().getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(fake.state.feedback).toHaveLength(1));
    await waitFor(() => expect(root().querySelector('.rate__failed')).toBeNull());
  });

  it('shows the rating again after a reload', async () => {
    const storage = createMemoryStorage();
    await setup(storage);
    fireEvent.click(up());
    await waitFor(() => expect(up().getAttribute('aria-pressed')).toBe('true'));
    handle!.destroy();
    document.body.replaceChildren();
    await setup(storage, true);
    expect(up().getAttribute('aria-pressed')).toBe('true');
  });
});

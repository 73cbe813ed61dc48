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
import { createMemoryStorage } from '../../helpers/memory-storage';
import { createFakeClient } from '../../helpers/fake-client';

const root = () => document.querySelector(HOST_TAG)!.shadowRoot!;
const ui = () => within(root() as unknown as HTMLElement);
const view = () => root().querySelector<HTMLElement>('.convos');
const entries = () => [...root().querySelectorAll<HTMLButtonElement>('.convos li button')];
const status = () => root().querySelector('.convos [role="status"]')?.textContent;
const focused = () => root().activeElement;

let handle: WidgetHandle | undefined;
afterEach(() => {
  handle?.destroy();
  document.body.replaceChildren();
});

/** An open widget for a signed-in person, on a fake client whose list reads wait for `release()`. */
async function setup() {
  const fake = createFakeClient();
  let release!: () => void;
  fake.state.gate = new Promise<void>((resolve) => (release = resolve));
  const storage = createMemoryStorage();
  const { config } = parseConfig({
    botId: 'yiu456ytyUjk',
    proxyUrl: '/askbox',
    user: { id: 'alice', hash: 'a'.repeat(64) },
  });
  const widget = startWidget(config!, { chat: () => createChat, client: fake.client, storage, tabStorage: storage });
  widget.attach(document.body);
  handle = widget.handle;
  handle.open();
  await waitFor(() => expect(ui().getByRole('dialog')).toBeTruthy());
  fireEvent.click(ui().getByRole('button', { name: CHAT_TEXT.menu }));
  fireEvent.click(await ui().findByRole('menuitem', { name: CHAT_TEXT.conversations }));
  await waitFor(() => expect(view()).not.toBeNull());
  return { fake, release };
}

describe('a signed-in person’s list, read from the proxy', () => {
  it('says it is loading, busy, focus on Back; then lists the person’s conversations, focus on the first', async () => {
    const { fake, release } = await setup();
    expect([status(), view()?.getAttribute('aria-busy'), focused()?.textContent]).toEqual([
      DEFAULT_TEXT.loading,
      'true',
      CHAT_TEXT.back,
    ]);
    fake.state.people = [
      { id: 'conv00000007', grant: 'person-grant', name: 'Website visitor', createdAt: Date.UTC(2026, 10, 1) },
    ];
    release();
    await waitFor(() => expect(entries()).toHaveLength(1));
    expect([view()?.getAttribute('aria-busy'), focused()]).toEqual(['false', entries()[0]]);
  });

  it('says it failed and offers Retry, which reads it again', async () => {
    const { fake, release } = await setup();
    fake.state.peopleError = new ChatError('auth', 'Forbidden', { status: 403 });
    release();
    await waitFor(() => expect(status()).toBe(DEFAULT_TEXT.errors.http));
    const retry = ui().getByRole('button', { name: DEFAULT_TEXT.retry });
    expect(focused()).toBe(retry);
    fake.state.peopleError = undefined;
    fireEvent.click(retry);
    await waitFor(() => expect(status()).toBe(CHAT_TEXT.noConversations));
    expect(ui().queryByRole('button', { name: DEFAULT_TEXT.retry })).toBeNull();
    expect(fake.state.calls.filter((call) => call === 'people')).toHaveLength(2);
  });
});

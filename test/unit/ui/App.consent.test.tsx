import { fireEvent, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { TABLES } from '../../../src/config/locales/index';
import { parseConfig } from '../../../src/config/parse';
import type { WidgetHandle } from '../../../src/mount/handle';
import { createChat } from '../../../src/mount/chat';
import { startWidget } from '../../../src/mount/widget';
import { HOST_TAG } from '../../../src/mount/shadow-host';
import type { KeyValueStore } from '../../../src/state/storage';
import { createMemoryStorage } from '../../helpers/memory-storage';
import { createFakeClient } from '../../helpers/fake-client';

const CONSENT = 'I agree to the [privacy policy](https://example.com/privacy) and <b>nothing</b> else.';

const root = () => {
  const shadow = document.querySelector(HOST_TAG)?.shadowRoot;
  if (!shadow) throw new Error('no widget on the page');
  return shadow;
};
const ui = () => within(root() as unknown as HTMLElement);
const input = () => ui().getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
const button = (name: string) => ui().getByRole('button', { name });
const status = () => root().querySelector('[role="status"][aria-live="polite"]')?.textContent;

let handle: WidgetHandle | undefined;

/** A widget with the consent gate on a fake client, its storage recording each write; its events recorded. */
async function setup(storage: KeyValueStore = createMemoryStorage(), overrides: Record<string, unknown> = {}) {
  const fake = createFakeClient();
  const writes: string[] = [];
  const { config } = parseConfig(
    { botId: 'yiu456ytyUjk', proxyUrl: '/askbox', consent: CONSENT, starters: 'Hours?', ...overrides },
    { tables: TABLES },
  );
  if (!config) throw new Error('bad config');
  const widget = startWidget(config, {
    chat: () => createChat,
    client: fake.client,
    storage: { ...storage, set: (key, value) => (writes.push(key), storage.set(key, value)) },
    tabStorage: { ...createMemoryStorage(), set: (key) => void writes.push(`tab:${key}`) },
  });
  widget.attach(document.body);
  widget.warm();
  handle = widget.handle;
  const events: unknown[] = [];
  handle.on('consent', (detail) => events.push(detail));
  return { fake, writes, events, storage };
}

const open = async () => {
  fireEvent.click(ui().getByRole('button', { name: /chat/i }));
  await waitFor(() => expect(ui().getByRole('dialog')).toBeTruthy());
};

afterEach(() => {
  handle?.destroy();
  document.body.replaceChildren();
});

describe('the consent gate', () => {
  it('shows the text, sanitised, as the gate’s description, with focus on Accept and a polite word', async () => {
    await setup();
    await open();
    const gate = ui().getByRole('group', { name: 'Before you chat' });
    const text = root().getElementById('askbox-consent-text');
    expect(gate.getAttribute('aria-describedby')).toBe('askbox-consent-text');
    expect(button('Accept').getAttribute('aria-describedby')).toBe('askbox-consent-text');
    expect(text?.querySelector('a')?.getAttribute('href')).toBe('https://example.com/privacy');
    expect(text?.querySelector('b')).toBeNull();
    expect(root().activeElement).toBe(button('Accept'));
    expect(status()).toBe('Please accept to start chatting.');
    // Starters send at once: none before consent.
    expect(ui().queryByRole('button', { name: 'Hours?' })).toBeNull();
  });

  it('keeps typed text without sending it; Enter moves to Accept; after Accept focus is in the box and Send sends', async () => {
    const { fake, writes, events } = await setup();
    await open();
    fireEvent.input(input(), { target: { value: 'Where is my parcel?' } });
    expect(button('Send message').hasAttribute('disabled')).toBe(true);
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(root().activeElement).toBe(button('Accept'));
    expect([fake.state.calls, fake.state.proofs, writes]).toEqual([[], 0, []]);

    fireEvent.click(button('Accept'));
    expect(ui().queryByRole('group', { name: 'Before you chat' })).toBeNull();
    expect(root().activeElement).toBe(input());
    expect(input().value).toBe('Where is my parcel?');
    expect(status()).toBe('Thank you. You can chat now.');
    expect(events).toEqual([{ accepted: true }]);
    expect(fake.state.sent).toEqual([]);
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(fake.state.sent).toEqual(['Where is my parcel?']));
  });

  it('after Decline, turns the chat off with a way back: focus on it, then on Accept again', async () => {
    const { fake, writes, events } = await setup();
    await open();
    fireEvent.input(input(), { target: { value: 'Hello' } });
    fireEvent.click(button('Decline'));
    const off = ui().getByRole('group', { name: /You declined/ });
    expect(off).toBeTruthy();
    expect(input().disabled).toBe(true);
    expect(root().activeElement).toBe(button('Read it again'));
    expect(events).toEqual([{ accepted: false }]);
    expect(writes).toEqual(['consent:yiu456ytyUjk@/askbox']);
    expect(fake.state.calls).toEqual([]);

    fireEvent.click(button('Read it again'));
    expect(root().activeElement).toBe(button('Accept'));
    expect(input().value).toBe('Hello');
  });

  it('is gone, with focus in the box as the panel opens, once accepted on an earlier visit', async () => {
    const storage = createMemoryStorage();
    const first = await setup(storage);
    await open();
    fireEvent.click(button('Accept'));
    handle?.destroy();
    document.body.replaceChildren();
    expect(first.storage.get('consent:yiu456ytyUjk@/askbox')).toBeDefined();

    const again = await setup(storage);
    await open();
    expect(ui().queryByRole('group', { name: 'Before you chat' })).toBeNull();
    expect(root().activeElement).toBe(input());
    expect(again.events).toEqual([]);
  });

  it('is forgotten by reset() (the visitor is gone): the next one on this device is asked again', async () => {
    const { storage } = await setup();
    await open();
    fireEvent.click(button('Accept'));
    expect(storage.get('consent:yiu456ytyUjk@/askbox')).toBeDefined();
    handle?.reset();
    expect(storage.get('consent:yiu456ytyUjk@/askbox')).toBeUndefined();
  });

  it('reads in the visitor’s language', async () => {
    await setup(createMemoryStorage(), { locale: 'de' });
    await open();
    expect(ui().getByRole('group', { name: 'Bevor Sie chatten' })).toBeTruthy();
    expect(button('Zustimmen')).toBeTruthy();
    expect(button('Ablehnen')).toBeTruthy();
  });

  it('is not there without a consent text', async () => {
    await setup(createMemoryStorage(), { consent: '' });
    await open();
    expect(root().querySelector('.consent')).toBeNull();
    expect(root().activeElement).toBe(input());
  });
});

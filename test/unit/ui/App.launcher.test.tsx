import { fireEvent, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/parse';
import type { KeyValueStore } from '../../../src/state/storage';
import type { WidgetHandle } from '../../../src/mount/handle';
import { HOST_TAG } from '../../../src/mount/shadow-host';
import { createChat } from '../../../src/mount/chat';
import { startWidget } from '../../../src/mount/widget';
import { createFakeClient, storedReply } from '../../helpers/fake-client';
import { createMemoryStorage } from '../../helpers/memory-storage';

const root = () => {
  const shadow = document.querySelector(HOST_TAG)?.shadowRoot;
  if (!shadow) throw new Error('no widget on the page');
  return shadow;
};
const ui = () => within(root() as unknown as HTMLElement);
const launcher = () => root().querySelector<HTMLButtonElement>('.launcher');
const name = () => launcher()?.getAttribute('aria-label');
const badge = () => root().querySelector('.launcher__badge')?.textContent;

let handles: WidgetHandle[] = [];

/** Starts and attaches a widget on a fake client; `tab` stands in for sessionStorage. */
function setup(overrides: Record<string, unknown> = {}, tab: KeyValueStore = createMemoryStorage()) {
  const fake = createFakeClient();
  const { config, issues } = parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox', ...overrides });
  if (!config) throw new Error(`bad config: ${JSON.stringify(issues)}`);
  const widget = startWidget(config, {
    chat: () => createChat,
    client: fake.client,
    storage: createMemoryStorage(),
    tabStorage: tab,
  });
  widget.attach(document.body);
  handles.push(widget.handle);
  return { fake, handle: widget.handle };
}

afterEach(() => {
  for (const handle of handles) handle.destroy();
  handles = [];
  document.body.replaceChildren();
});

describe('data-launcher-label', () => {
  it('shows the teaser in the closed launcher and leads its accessible name with it', () => {
    setup({ launcherLabel: 'Questions? Ask us' });
    expect(root().querySelector('.launcher__label')?.textContent).toBe('Questions? Ask us');
    expect(launcher()?.classList.contains('launcher--label')).toBe(true);
    expect(name()).toBe('Questions? Ask us, Chat');
  });

  it('is validated: at most 60 characters', () => {
    expect(parseConfig({ botId: 'b', proxyUrl: '/a', launcherLabel: 'x'.repeat(61) }).issues).toEqual([
      { key: 'launcherLabel', message: 'is longer than 60 characters' },
    ]);
  });
});

describe('the unread badge', () => {
  it('counts replies that complete while the panel is closed, says so in the name, and clears on open', async () => {
    const { fake, handle } = setup();
    handle.open();
    await ui().findByRole('dialog');
    void handle.send('Where is my parcel?');
    await waitFor(() => expect(fake.state.sent).toEqual(['Where is my parcel?']));
    fake.emit({ type: 'start' });
    handle.close();
    expect(badge()).toBe('');
    fake.state.storedReply = storedReply('On its way.');
    fake.emit({ type: 'end' });
    await waitFor(() => expect(badge()).toBe('1'));
    expect(name()).toBe('Chat, 1 unread');
    expect(root().querySelector('.launcher__badge')?.getAttribute('aria-hidden')).toBe('true');

    fireEvent.click(launcher() as HTMLElement);
    expect(badge()).toBe('');
    expect(name()).toBe('Chat');
    fireEvent.click(launcher() as HTMLElement);
    expect(name()).toBe('Chat');
  });

  it('stays empty for replies the visitor watches arrive', async () => {
    const { fake, handle } = setup();
    void handle.send('Hello?');
    await waitFor(() => expect(fake.state.sent).toEqual(['Hello?']));
    fake.state.storedReply = storedReply('Hi!');
    fake.emit({ type: 'end' });
    await ui().findByText('Hi!');
    handle.close();
    expect(badge()).toBe('');
    expect(name()).toBe('Chat');
  });
});

describe('data-launcher="false"', () => {
  it('places no launcher, and the page opens and closes the chat (focus on close: see launcher.spec.ts)', async () => {
    const { handle } = setup({ launcher: 'false' });
    expect(root().querySelector('button')).toBeNull();
    handle.open();
    const dialog = await ui().findByRole('dialog');
    expect(root().querySelector('.askbox--bare')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(ui().queryByRole('dialog')).toBeNull());
  });

  it('is validated', () => {
    expect(parseConfig({ botId: 'b', proxyUrl: '/a', launcher: 'no' }).issues).toEqual([
      { key: 'launcher', message: 'must be "true" or "false"' },
    ]);
    expect(parseConfig({ botId: 'b', proxyUrl: '/a' }).config?.launcher).toBe(true);
  });
});

describe('the open state, remembered for the session', () => {
  it('stores nothing before the visitor opens the panel, nor for a panel opened by data-open', () => {
    const tab = createMemoryStorage();
    const writes: string[] = [];
    const spy: KeyValueStore = { ...tab, set: (key, value) => (writes.push(`${key}=${value}`), tab.set(key, value)) };
    setup({ open: 'true' }, spy);
    expect(ui().getByRole('dialog')).toBeTruthy();
    expect(writes).toEqual([]);
  });

  it('reopens after a reload if the visitor left it open, and stays closed if they closed it', async () => {
    const tab = createMemoryStorage();
    const first = setup({}, tab);
    fireEvent.click(launcher() as HTMLElement);
    expect(tab.get('open:yiu456ytyUjk@/askbox')).toBe('1');
    first.handle.destroy();
    document.body.replaceChildren();

    const second = setup({}, tab);
    await ui().findByRole('dialog');
    expect(name()).toBe('Chat');
    fireEvent.keyDown(ui().getByRole('textbox', { name: 'Message' }), { key: 'Escape' });
    expect(tab.get('open:yiu456ytyUjk@/askbox')).toBe('0');
    second.handle.destroy();
    document.body.replaceChildren();

    // Closed wins over data-open within the session.
    setup({ open: 'true' }, tab);
    expect(ui().queryByRole('dialog')).toBeNull();
  });

  it('works on when sessionStorage throws (Safari private mode, sandboxed iframes)', async () => {
    const getter = Object.getOwnPropertyDescriptor(window, 'sessionStorage');
    Object.defineProperty(window, 'sessionStorage', {
      configurable: true,
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    try {
      const fake = createFakeClient();
      const { config } = parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox' });
      if (!config) throw new Error('bad config');
      const widget = startWidget(config, {
        chat: () => createChat,
        client: fake.client,
        storage: createMemoryStorage(),
      });
      handles.push(widget.handle);
      widget.attach(document.body);
      fireEvent.click(launcher() as HTMLElement);
      expect(await ui().findByRole('dialog')).toBeTruthy();
      widget.handle.close();
      await waitFor(() => expect(ui().queryByRole('dialog')).toBeNull());
    } finally {
      if (getter) Object.defineProperty(window, 'sessionStorage', getter);
    }
  });
});

import { fireEvent, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { TABLES } from '../../../src/config/locales/index';
import { parseConfig } from '../../../src/config/parse';
import type { WidgetHandle } from '../../../src/mount/handle';
import { createChat } from '../../../src/mount/chat';
import { startWidget } from '../../../src/mount/widget';
import { HOST_TAG } from '../../../src/mount/shadow-host';
import { partNames, PARTS } from '../../../src/styles/parts';
import { createMemoryStorage } from '../../helpers/memory-storage';
import { createFakeClient, storedReply } from '../../helpers/fake-client';

/**
 * The `part` names, a public API (styles/parts.ts): each is on the element it names, and on no other, so that a
 * page's `askbox-widget::part(…)` rule styles exactly what the README's table says.
 */
const root = () => {
  const shadow = document.querySelector(HOST_TAG)?.shadowRoot;
  if (!shadow) throw new Error('no widget on the page');
  return shadow;
};
const ui = () => within(root() as unknown as HTMLElement);
/** The elements whose `part` attribute is exactly `part` (a part's whole attribute, as styles/parts.ts holds it). */
const withPart = (part: string) =>
  [...root().querySelectorAll('[part]')].filter((el) => el.getAttribute('part') === part);
const input = () => ui().getByRole('textbox', { name: 'Message' });

let handle: WidgetHandle | undefined;
afterEach(() => {
  handle?.destroy();
  document.body.replaceChildren();
});

/** A widget on a fake client, opened, with one question asked and `reply` streaming or answered. */
async function opened() {
  const fake = createFakeClient();
  const { config } = parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox' }, { tables: TABLES });
  if (!config) throw new Error('bad config');
  const widget = startWidget(config, {
    chat: () => createChat,
    client: fake.client,
    storage: createMemoryStorage(),
    tabStorage: createMemoryStorage(),
  });
  widget.attach(document.body);
  widget.warm();
  handle = widget.handle;
  fireEvent.click(ui().getByRole('button', { name: 'Chat' }));
  await ui().findByRole('dialog');
  return fake;
}

describe('the part names', () => {
  it('are each a short lowercase name, and every name of the table is one of them', () => {
    for (const name of partNames()) expect(name).toMatch(/^[a-z]+(-[a-z]+)?$/);
    expect(partNames()).toEqual([
      'launcher',
      'panel',
      'header',
      'title',
      'messages',
      'bubble',
      'bubble-user',
      'bubble-bot',
      'sources',
      'composer',
      'input',
      'button',
      'button-send',
      'button-stop',
      'button-new',
      'button-menu',
      'button-close',
    ]);
    expect(Object.isFrozen(PARTS)).toBe(true);
  });

  it('name the launcher, the panel, its header, log, bubbles, sources, composer and buttons', async () => {
    const fake = await opened();
    expect(withPart(PARTS.launcher).map((el) => el.getAttribute('aria-label'))).toEqual(['Chat']);
    expect(withPart(PARTS.panel).map((el) => el.getAttribute('role'))).toEqual(['dialog']);
    expect(withPart(PARTS.header).map((el) => el.className)).toEqual(['head']);
    expect(withPart(PARTS.title).map((el) => el.textContent)).toEqual([
      root().getElementById('askbox-title')?.textContent,
    ]);
    expect(withPart(PARTS.messages).map((el) => el.getAttribute('role'))).toEqual(['log']);
    // The welcome message is the bot's.
    expect(withPart(PARTS.botBubble)).toHaveLength(1);
    expect(withPart(PARTS.composer).map((el) => el.tagName)).toEqual(['FORM']);
    expect(withPart(PARTS.input)).toEqual([input()]);
    expect(withPart(PARTS.newConversation).map((el) => el.getAttribute('aria-label'))).toEqual([
      'Start a new conversation',
    ]);
    expect(withPart(PARTS.menu).map((el) => el.getAttribute('aria-haspopup'))).toEqual(['menu']);
    expect(withPart(PARTS.close).map((el) => el.getAttribute('aria-label'))).toEqual(['Close']);
    expect(withPart(PARTS.send).map((el) => el.getAttribute('aria-label'))).toEqual(['Send message']);

    fireEvent.input(input(), { target: { value: 'Where is my parcel?' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(fake.state.sent).toEqual(['Where is my parcel?']));
    expect(withPart(PARTS.userBubble).map((el) => el.querySelector('.msg__text')?.textContent)).toEqual([
      'Where is my parcel?',
    ]);
    expect(withPart(PARTS.stop).map((el) => el.getAttribute('aria-label'))).toEqual(['Stop generating']);
    expect(withPart(PARTS.send)).toEqual([]);

    fake.emit({ type: 'start' });
    fake.chunk('On its way.');
    // The reply in flight is the bot's bubble too.
    await waitFor(() => expect(withPart(PARTS.botBubble).at(-1)?.classList.contains('msg--streaming')).toBe(true));
    fake.state.storedReply = storedReply('On its way.', {
      sources: [{ document_id: 'Jw31Pv6PMmro', document_name: 'Shipping', document_url: 'https://docs.test/shipping' }],
    });
    fake.emit({ type: 'end' });
    await ui().findByRole('link', { name: 'Shipping' });
    const bot = withPart(PARTS.botBubble);
    expect(bot).toHaveLength(1);
    expect(bot[0]?.textContent).toContain('On its way.');
    expect(withPart(PARTS.sources).map((el) => el.closest('[part]:not([part="sources"])'))).toEqual(bot);
    expect(withPart(PARTS.userBubble)).toHaveLength(1);
  });

  it('puts no part on any other element', async () => {
    await opened();
    const published = new Set(Object.values(PARTS));
    for (const el of root().querySelectorAll('[part]')) expect(published).toContain(el.getAttribute('part'));
  });
});

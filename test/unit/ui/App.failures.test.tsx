import { fireEvent, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChatClient, type ChatClient } from '../../../src/api/client';
import { ChatError } from '../../../src/api/errors';
import { parseConfig } from '../../../src/config/parse';
import type { WidgetHandle } from '../../../src/mount/handle';
import { HOST_TAG } from '../../../src/mount/shadow-host';
import { createChat } from '../../../src/mount/chat';
import { startWidget } from '../../../src/mount/widget';
import { createMemoryStorage } from '../../helpers/memory-storage';
import { createFakeClient, question, storedReply } from '../../helpers/fake-client';

/** A message's text as read, without its time (which depends on the clock and time zone). */
/** A message's text without its time (in a reply's footer row, or a question's bubble). */
const withoutTime = (message: Element) => {
  const copy = message.cloneNode(true) as Element;
  for (const time of copy.querySelectorAll('time')) time.remove();
  return copy.textContent;
};

const root = () => {
  const shadow = document.querySelector(HOST_TAG)?.shadowRoot;
  if (!shadow) throw new Error('no widget on the page');
  return shadow;
};
const ui = () => within(root() as unknown as HTMLElement);
const input = () => ui().getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
const send = async (text: string) => {
  await ui().findByRole('textbox', { name: 'Message' });
  fireEvent.input(input(), { target: { value: text } });
  fireEvent.keyDown(input(), { key: 'Enter' });
};

let handle: WidgetHandle | undefined;

/** Starts a widget on `client` (default: a fake one) with the panel open. */
function setup(overrides: Record<string, unknown> = {}, client?: ChatClient, storage = createMemoryStorage()) {
  const fake = createFakeClient();
  const { config } = parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox', ...overrides });
  if (!config) throw new Error('bad config');
  const widget = startWidget(config, { chat: () => createChat, client: client ?? fake.client, storage });
  widget.attach(document.body);
  handle = widget.handle;
  handle.open();
  return fake;
}

afterEach(() => {
  handle?.destroy();
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

describe('a failed reply', () => {
  it('shows the service’s apology once, with one Retry, and no second sentence of ours', async () => {
    const fake = setup();
    await send('question');
    fake.state.storedReply = storedReply('Sorry, something went wrong.', { failed_responding: true });
    fake.reply('Sorry, something went wrong.');
    const failed = await waitFor(() => {
      const el = root().querySelector('.msg--failed');
      if (!el) throw new Error('no failed reply yet');
      return el as HTMLElement;
    });
    expect(withoutTime(failed)).toBe('Assistant: Sorry, something went wrong.Retry');
    expect(ui().queryByText('The assistant could not answer this time.')).toBeNull();
    expect(ui().getAllByRole('button', { name: 'Retry' })).toHaveLength(1);
  });

  it('says the assistant could not answer when the failed reply has no text', async () => {
    const fake = setup();
    await send('question');
    fake.state.storedReply = storedReply('', { failed_responding: true });
    fake.reply();
    expect(await ui().findByText('The assistant could not answer this time.')).toBeTruthy();
    expect(ui().getAllByRole('button', { name: 'Retry' })).toHaveLength(1);
  });

  it('shows the exchange a 500 stored, and Retry asks again without a second question', async () => {
    const fake = setup();
    fake.state.refusals.push(new ChatError('http', 'HTTP 500', { status: 500 }));
    fake.state.listing = [
      question('q00000000001', 'Will it ship today?'),
      storedReply('The assistant is overloaded.', { id: 'f00000000001', failed_responding: true }),
    ];
    await send('Will it ship today?');
    await ui().findByText('The assistant is overloaded.');
    expect(input().value).toBe('');
    expect(ui().queryByRole('alert')).toBeNull();
    fake.state.listing = undefined;
    fake.state.storedReply = storedReply('Yes, before 3 pm.', { id: 'r00000000002' });
    fake.reply('Yes, before 3 pm.');
    fireEvent.click(ui().getByRole('button', { name: 'Retry' }));
    await ui().findByText('Yes, before 3 pm.');
    expect(ui().getAllByText('Will it ship today?')).toHaveLength(1);
    expect(ui().queryByText('The assistant is overloaded.')).toBeNull();
  });
});

/** A well-formed stored message, as the service sends it. */
const good = (id: string, content: string, machine: boolean, created_at: number) => ({
  id,
  content,
  machine,
  created_at,
  conversation_id: 'conv0000000a',
});

describe('the message limit', () => {
  it('shows the site’s notice and link as the reason sending waits; the draft stays editable', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fake = setup({
      limitMessage: 'Our assistant is resting.',
      limitLink: 'https://shop.example/contact',
      limitLinkText: 'Write to us',
    });
    fake.state.refusals.push(new ChatError('quota', 'HTTP 402', { status: 402, detail: 'Upgrade your plan.' }));
    await send('Is it in stock?');
    const notice = await waitFor(() => {
      const el = root().querySelector('#askbox-limit');
      if (!el) throw new Error('no notice yet');
      return el;
    });
    expect(notice.getAttribute('role')).toBe('status');
    expect(notice.textContent).toBe('Our assistant is resting. Write to us');
    const link = ui().getByRole('link', { name: 'Write to us' });
    expect([link.getAttribute('href'), link.getAttribute('rel')]).toEqual([
      'https://shop.example/contact',
      'noopener noreferrer',
    ]);
    expect(input().getAttribute('aria-describedby')).toBe('askbox-limit');
    expect([input().value, input().disabled]).toEqual(['Is it in stock?', false]);
    fireEvent.input(input(), { target: { value: 'Is it in stock now?' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(fake.state.sent).toEqual(['Is it in stock?']);
    expect(input().value).toBe('Is it in stock now?');
    expect(warn).toHaveBeenCalledWith("[askbox] The chat service's message limit is reached: Upgrade your plan.");

    fireEvent.click(ui().getByRole('button', { name: 'Start a new conversation' }));
    await waitFor(() => expect(root().querySelector('#askbox-limit')).toBeNull());
    expect(ui().getByRole('button', { name: 'Send message' })).toHaveProperty('disabled', false);
  });

  it('uses the default link text when the site gives a link alone', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fake = setup({ limitLink: 'https://shop.example/contact' });
    fake.state.refusals.push(new ChatError('quota', 'HTTP 402', { status: 402 }));
    await send('q');
    expect(await ui().findByRole('link', { name: 'Contact us' })).toBeTruthy();
    expect(root().querySelector('#askbox-limit')?.textContent).toContain("We can't answer new questions right now.");
  });
});

describe('a stalled stream', () => {
  it('shows “Still working…” next to the silent reply, with Stop still there', async () => {
    const fake = setup();
    await send('q');
    fake.emit({ type: 'start' });
    fake.chunk('Half a sen');
    await waitFor(() => expect(root().querySelector('.msg--streaming')?.textContent).toContain('Half a'));
    expect(ui().queryByText('Still working…')).toBeNull();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fake.chunk('tence');
      await vi.advanceTimersByTimeAsync(8000);
    } finally {
      vi.useRealTimers();
    }
    expect((await ui().findByText('Still working…')).getAttribute('role')).toBe('status');
    fireEvent.click(ui().getByRole('button', { name: 'Stop generating' }));
    await ui().findByText('Stopped.');
    expect(ui().queryByText('Still working…')).toBeNull();
  });
});

describe('malformed records from the service', () => {
  it('shows every good message of the history around the bad ones, with one console warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const body = {
      data: [
        good('m00000000001', 'First question', false, 1),
        { ...good('m00000000002', 'Bad id', true, 2), id: { toString: null } },
        good('m00000000003', 'First answer', true, 3),
        { ...good('m00000000004', 'Bad author', true, 4), machine: 'yes' },
        { ...good('m00000000005', '', false, 5), content: { toString: null } },
        { ...good('m00000000006', 'Sourced', true, 6), sources: { data: [{ document_name: { toString: null } }] } },
        null,
        'text',
      ],
      meta: { pagination: { total_pages: 1, next_page: null } },
    };
    const client = createChatClient({
      proxyUrl: '/askbox',
      fetch: async () => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }),
    });
    const storage = createMemoryStorage();
    storage.set('conversation:yiu456ytyUjk@/askbox', JSON.stringify({ id: 'conv0000000a', grant: 'grant-a' }));
    setup({}, client, storage);
    await waitFor(() => expect(root().querySelectorAll('.msg:not(.msg--welcome)')).toHaveLength(4));
    const shown = [...root().querySelectorAll('.msg:not(.msg--welcome)')].map(withoutTime);
    expect(shown).toEqual(['You: First question', 'Assistant: First answer', 'You: ', 'Assistant: Sourced']);
    expect(ui().queryByRole('alert')).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/^\[askbox\] Ignored 4 malformed message/);
  });
});

import { fireEvent, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatError } from '../../../src/api/errors';
import { TABLES } from '../../../src/config/locales/index';
import { parseConfig } from '../../../src/config/parse';
import { LIMIT_MESSAGE, LIMIT_NOUNS } from '../../../src/protocol/contract';
import type { WidgetHandle } from '../../../src/mount/handle';
import { createChat } from '../../../src/mount/chat';
import { startWidget } from '../../../src/mount/widget';
import { HOST_TAG } from '../../../src/mount/shadow-host';
import { createMemoryStorage } from '../../helpers/memory-storage';
import { createFakeClient, storedReply } from '../../helpers/fake-client';

// Every input of the widgets' sanitisers, recorded (they still sanitise).
const sanitized = vi.hoisted((): string[] => []);
vi.mock('../../../src/render/sanitize', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/render/sanitize')>();
  return {
    ...original,
    createSanitizer: (...args: Parameters<typeof original.createSanitizer>) => {
      const sanitize = original.createSanitizer(...args);
      return (html: string) => (sanitized.push(html), sanitize(html));
    },
  };
});

/** The widget's shadow root: the component tests query inside it, as a visitor's assistive technology does. */
const root = () => {
  const shadow = document.querySelector(HOST_TAG)?.shadowRoot;
  if (!shadow) throw new Error('no widget on the page');
  return shadow;
};
// Queries inside the shadow root: Testing Library only calls querySelectorAll on its container.
const ui = () => within(root() as unknown as HTMLElement);

const launcher = () => ui().getByRole('button', { name: /chat/i });
const input = () => ui().getByRole('textbox', { name: 'Message' });
const open = () => fireEvent.click(launcher());
const type = (text: string) => fireEvent.input(input(), { target: { value: text } });

let handle: WidgetHandle | undefined;

/** Starts a widget on a fake client and creates its chat, as hovering the launcher would. */
async function setup(overrides: Record<string, unknown> = {}, storage = createMemoryStorage()) {
  const fake = createFakeClient();
  const { config } = parseConfig(
    {
      botId: 'yiu456ytyUjk',
      proxyUrl: '/askbox',
      welcome: 'Hello **there**',
      title: 'Help desk',
      ...overrides,
    },
    { tables: TABLES },
  );
  if (!config) throw new Error('bad config');
  const widget = startWidget(config, {
    chat: () => createChat,
    client: fake.client,
    storage,
    tabStorage: createMemoryStorage(),
  });
  widget.attach(document.body);
  widget.warm();
  handle = widget.handle;
  return fake;
}

afterEach(() => {
  handle?.destroy();
  document.body.replaceChildren();
});

describe('launcher and panel', () => {
  it('opens a labelled dialog, moves focus into the composer, and shows the welcome message', async () => {
    await setup();
    expect(launcher().getAttribute('aria-expanded')).toBe('false');
    expect(launcher().getAttribute('aria-label')).toBe('Chat');
    expect(ui().queryByRole('dialog')).toBeNull();
    open();
    const dialog = ui().getByRole('dialog', { name: 'Help desk' });
    expect(dialog).toBeTruthy();
    expect(launcher().getAttribute('aria-expanded')).toBe('true');
    expect(launcher().getAttribute('aria-label')).toBe('Chat');
    await waitFor(() => expect(root().activeElement).toBe(input()));
    expect(dialog.querySelector('.msg--welcome strong')?.textContent).toBe('there');
  });

  it('closes on Escape and gives focus back to the launcher', async () => {
    await setup();
    open();
    await waitFor(() => expect(root().activeElement).toBe(input()));
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(ui().queryByRole('dialog')).toBeNull();
    expect(root().activeElement).toBe(launcher());
  });

  it('has accessible names on every control', async () => {
    await setup();
    open();
    for (const name of ['Start a new conversation', 'Close', 'Send message'])
      expect(ui().getByRole('button', { name })).toBeTruthy();
    expect(ui().getByRole('log', { name: 'Conversation' })).toBeTruthy();
  });
});

describe('sending and streaming', () => {
  it('sends on Enter, not on Shift+Enter, and renders the reply as it streams', async () => {
    const fake = await setup();
    open();
    type('Where is my parcel?');
    fireEvent.keyDown(input(), { key: 'Enter', shiftKey: true });
    expect(fake.state.sent).toEqual([]);
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(fake.state.sent).toEqual(['Where is my parcel?']));
    expect(ui().getByText('Where is my parcel?')).toBeTruthy();
    expect((input() as HTMLTextAreaElement).value).toBe('');
    expect(ui().getByRole('button', { name: 'Stop generating' })).toBeTruthy();

    fake.emit({ type: 'start' });
    fake.chunk('It is **on its');
    await waitFor(() => expect(root().querySelector('.msg--streaming')?.textContent).toContain('It is'));
    fake.chunk(' way**.');
    await waitFor(() => expect(root().querySelector('.msg--streaming strong')?.textContent).toBe('on its way'));

    fake.state.storedReply = storedReply('It is **on its way**, _see_ *Shipping*.', {
      sources: [{ document_id: 'Jw31Pv6PMmro', document_name: 'Shipping', document_url: 'https://docs.test/shipping' }],
    });
    fake.emit({ type: 'end' });
    const link = await ui().findByRole('link', { name: 'Shipping' });
    expect(link.getAttribute('href')).toBe('https://docs.test/shipping');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(root().querySelector('.msg--streaming')).toBeNull();
    // Announced as the words a reader sees, not as markdown.
    expect(root().querySelector('.sr-only[role="status"]')?.textContent).toBe(
      'Assistant: It is on its way, see Shipping.',
    );
    // Neither the header nor a reply's sources add a landmark to the page's.
    expect(root().querySelector('header, nav, [role="banner"], [role="navigation"]')).toBeNull();
    expect(ui().getByRole('button', { name: 'Send message' })).toBeTruthy();
  });

  it('keeps every block of a long streaming reply, in order, while its finished blocks are grouped', async () => {
    const fake = await setup();
    open();
    type('a long one');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(fake.state.sent).toEqual(['a long one']));
    fake.emit({ type: 'start' });
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1} is *here*.`);
    const reply = paragraphs.join('\n\n');
    for (let at = 0; at < reply.length; at += 7) fake.chunk(reply.slice(at, at + 7));
    const shown = () => [...root().querySelectorAll('.msg--streaming .md__block')].map((block) => block.textContent);
    // The parser holds back the last character until it knows what follows it.
    const expected = paragraphs.map((p) => p.replaceAll('*', '')).with(39, 'Paragraph 40 is here');
    await waitFor(() => expect(shown()).toEqual(expected));
    // 39 finished blocks in groups of 16, and the growing last one on its own.
    const groups = [...root().querySelectorAll('.msg--streaming .md__group')].map((g) => g.childElementCount);
    expect(groups).toEqual([16, 16, 7]);
  });

  it('shows the user message as plain text, never as HTML', async () => {
    await setup();
    open();
    type('<img src=x onerror=alert(1)> **not bold**');
    fireEvent.submit(input().closest('form')!);
    await ui().findByText('<img src=x onerror=alert(1)> **not bold**');
    expect(root().querySelector('.msg--user img, .msg--user strong')).toBeNull();
  });

  it('shows a counter near the 2,000-character limit and blocks sending past it, keeping the text', async () => {
    const fake = await setup();
    open();
    type('x'.repeat(1799));
    expect(ui().queryByText(/\/ 2000/)).toBeNull();
    type('x'.repeat(1850));
    expect(ui().getByText('1,850 / 2,000')).toBeTruthy();
    type('x'.repeat(2001));
    // Over the limit, the counter says so in words, not only in red.
    expect(root().querySelector('#askbox-counter')?.textContent).toBe('Your message is too long. 2,001 / 2,000');
    expect(ui().getByRole('button', { name: 'Send message' })).toHaveProperty('disabled', true);
    expect(input().getAttribute('aria-invalid')).toBe('true');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(fake.state.sent).toEqual([]);
    expect((input() as HTMLTextAreaElement).value).toHaveLength(2001);
    type('x'.repeat(2000));
    expect(ui().getByRole('button', { name: 'Send message' })).toHaveProperty('disabled', false);
    expect(input().getAttribute('aria-invalid')).toBe('false');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(fake.state.sent).toEqual(['x'.repeat(2000)]));
    // Characters, as the service counts them: 1,900 emoji are 3,800 UTF-16 units and still within the limit.
    type('😀'.repeat(1900));
    expect(root().querySelector('#askbox-counter')?.textContent).toBe('1,900 / 2,000');
    expect(input().getAttribute('aria-invalid')).toBe('false');
  });

  it('sends nothing more while a reply is on its way: Enter waits, and the button stops the reply instead', async () => {
    const fake = await setup();
    open();
    type('first');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(fake.state.sent).toEqual(['first']));
    type('second');
    fireEvent.keyDown(input(), { key: 'Enter' });
    fireEvent.submit(input().closest('form')!);
    expect(ui().queryByRole('button', { name: 'Send message' })).toBeNull();
    fireEvent.click(ui().getByRole('button', { name: 'Stop generating' }));
    await waitFor(() => expect(ui().getByRole('button', { name: 'Send message' })).toBeTruthy());
    expect(fake.state.sent).toEqual(['first']);
    expect((input() as HTMLTextAreaElement).value).toBe('second');
  });

  it('shows a calm notice for the message limit (not the service text), waits to send and keeps the text', async () => {
    // Issue 9, item 5: the service's owner-facing text goes to the console, the visitor reads ours.
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fake = await setup();
    fake.state.refusals.push(
      new ChatError('quota', 'HTTP 402', {
        status: 402,
        detail: 'You have reached the message limit for last 30 days, please wait till tomorrow or upgrade your plan.',
      }),
    );
    open();
    type('one more question');
    fireEvent.keyDown(input(), { key: 'Enter' });
    const notice = await ui().findByText("We can't answer new questions right now. Please try again later.");
    expect(notice.closest('[role="status"]')).toBeTruthy();
    expect(ui().queryByRole('alert')).toBeNull();
    expect(ui().queryByText(/upgrade your plan/)).toBeNull();
    expect((input() as HTMLTextAreaElement).value).toBe('one more question');
    expect(ui().queryByText('one more question', { selector: '.msg__text' })).toBeNull();
    expect(ui().getByRole('button', { name: 'Send message' })).toHaveProperty('disabled', true);
    expect(ui().queryByRole('button', { name: 'Dismiss' })).toBeNull();
    vi.restoreAllMocks();
  });

  it.each([
    [30, 'You are sending messages too quickly. Please wait 30 seconds and try again.'],
    [150, 'You are sending messages too quickly. Please wait 3 minutes and try again.'],
    [7200, 'You are sending messages too quickly. Please wait 2 hours and try again.'],
  ])(
    'tells the visitor how long to wait after a 429 (Retry-After %s), once, and gives the text back',
    async (retryAfter, sentence) => {
      const fake = await setup();
      fake.state.refusals.push(
        new ChatError('rate_limit', 'HTTP 429', { status: 429, detail: 'Too many messages.', retryAfter }),
      );
      open();
      type('a quick follow-up');
      fireEvent.keyDown(input(), { key: 'Enter' });
      await waitFor(() => expect(root().querySelector('#askbox-limit')).toBeTruthy());
      const notice = root().querySelector('#askbox-limit');
      // Heard politely, once: the sentence as the notice appeared; seen: the countdown.
      expect(notice?.getAttribute('role')).toBe('status');
      expect(notice?.querySelector('[aria-hidden="true"]')?.textContent).toBe(sentence);
      expect(notice?.querySelector('.sr-only')?.textContent).toBe(sentence);
      expect((input() as HTMLTextAreaElement).value).toBe('a quick follow-up');
      const send = ui().getByRole('button', { name: 'Send message' });
      expect([send.hasAttribute('disabled'), send.getAttribute('aria-describedby')]).toEqual([true, 'askbox-limit']);
      expect(ui().queryByRole('button', { name: 'Dismiss' })).toBeNull();
      expect(input().getAttribute('aria-describedby')).toBe('askbox-limit');
    },
  );

  it("names the proxy's new-conversation limit, not the message rate, after its 429", async () => {
    const fake = await setup();
    const detail = LIMIT_MESSAGE.replace('{noun}', LIMIT_NOUNS.conversation).replace('{seconds}', '40');
    fake.state.refusals.push(new ChatError('rate_limit', 'HTTP 429', { status: 429, detail, retryAfter: 40 }));
    open();
    type('a new topic');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(root().querySelector('#askbox-limit')).toBeTruthy());
    expect(root().querySelector('#askbox-limit .sr-only')?.textContent).toBe(
      'You are starting new conversations too quickly. Please wait 40 seconds and try again.',
    );
  });

  it('says "wait a moment" after a 429 without Retry-After, and lets the visitor send again at once', async () => {
    const fake = await setup();
    fake.state.refusals.push(new ChatError('rate_limit', 'HTTP 429', { status: 429 }));
    open();
    type('again');
    fireEvent.keyDown(input(), { key: 'Enter' });
    const alert = await ui().findByRole('alert');
    expect(alert.querySelector('.notice__text')?.textContent).toBe(
      'Too many messages at once. Please wait a moment and try again.',
    );
    expect(ui().getByRole('button', { name: 'Send message' })).toHaveProperty('disabled', false);
  });

  it('counts the wait down each second, then takes the notice away and enables sending, the draft intact', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'Date'] });
    try {
      const fake = await setup();
      fake.state.refusals.push(new ChatError('rate_limit', 'HTTP 429', { status: 429, retryAfter: 3 }));
      open();
      type('patience');
      fireEvent.keyDown(input(), { key: 'Enter' });
      const notice = () => root().querySelector('#askbox-limit');
      await vi.waitFor(() => expect(notice()).toBeTruthy());
      const seen = () => notice()?.querySelector('[aria-hidden="true"]')?.textContent;
      expect(seen()).toContain('wait 3 seconds');
      await vi.advanceTimersByTimeAsync(1000);
      expect(seen()).toContain('wait 2 seconds');
      expect(notice()?.querySelector('.sr-only')?.textContent).toContain('wait 3 seconds');
      await vi.advanceTimersByTimeAsync(2000);
      expect(notice()).toBeNull();
      expect((input() as HTMLTextAreaElement).value).toBe('patience');
      expect(ui().getByRole('button', { name: 'Send message' })).toHaveProperty('disabled', false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('marks a failed reply and retries it from its own Retry button', async () => {
    const fake = await setup();
    open();
    type('question');
    fireEvent.keyDown(input(), { key: 'Enter' });
    fake.emit({ type: 'start' });
    fake.chunk('Sorry, something went wrong.');
    fake.state.storedReply = storedReply('Sorry, something went wrong.', { failed_responding: true });
    fake.emit({ type: 'end' });
    // One message for a failed reply: the service's apology, not a second sentence of ours (issue 9, item 12).
    await waitFor(() => expect(root().querySelector('.msg--failed')?.textContent).toContain('Sorry, something went'));
    fireEvent.click(ui().getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(fake.state.sent).toEqual(['question', 'question']));
    expect(ui().getAllByText('question')).toHaveLength(1);
  });

  it('stops a streaming reply and keeps what arrived', async () => {
    const fake = await setup();
    open();
    type('long answer please');
    fireEvent.keyDown(input(), { key: 'Enter' });
    fake.emit({ type: 'start' });
    fake.chunk('Part one');
    await waitFor(() => expect(root().querySelector('.msg--streaming')).toBeTruthy());
    fireEvent.click(ui().getByRole('button', { name: 'Stop generating' }));
    expect(await ui().findByText('Stopped.')).toBeTruthy();
    expect(ui().getByText('Part one')).toBeTruthy();
  });

  it('offers the starter questions in an empty conversation, sends the one clicked, then puts them away', async () => {
    const fake = await setup({ starters: 'What do you ship?| How do returns work? |' });
    open();
    const group = ui().getByRole('group', { name: 'Suggested questions' });
    const chips = within(group).getAllByRole('button');
    expect(chips.map((chip) => chip.textContent)).toEqual(['What do you ship?', 'How do returns work?']);
    fireEvent.click(chips[1]!);
    await waitFor(() => expect(fake.state.sent).toEqual(['How do returns work?']));
    expect(ui().queryByRole('group', { name: 'Suggested questions' })).toBeNull();
    expect(ui().getByText('How do returns work?')).toBeTruthy();
  });

  it('copies a reply and a code block, saying "Copied", and dates each message in the visitor’s locale', async () => {
    const fake = await setup({ locale: 'de' });
    open();
    fake.state.storedReply = storedReply('Run:\n\n```sh\nnpm ci\n```', { created_at: 1_700_000_000 });
    void handle!.send('How?');
    fake.reply('Run:\n\n```sh\nnpm ci\n```');
    const copyReply = await ui().findByRole('button', { name: 'Antwort kopieren' });
    fireEvent.click(copyReply);
    await waitFor(() => expect(copyReply.parentElement?.textContent).toBe('Kopiert'));
    expect(await navigator.clipboard.readText()).toBe('Run:\n\n```sh\nnpm ci\n```');
    fireEvent.click(ui().getByRole('button', { name: 'Code kopieren' }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe('npm ci'));

    const time = root().querySelector('.msg--bot:not(.msg--welcome) time');
    expect(time?.getAttribute('datetime')).toBe('2023-11-14T22:13:20.000Z');
    expect(time?.textContent).toBe(
      new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeStyle: 'short' }).format(1_700_000_000_000),
    );
    // The visitor's own message is dated now: today's messages show the time alone.
    expect(root().querySelector('.msg--user time')?.textContent).toMatch(/^\d\d:\d\d$/);
  });

  it('starts a new conversation from the header', async () => {
    const fake = await setup();
    open();
    type('hi');
    fireEvent.keyDown(input(), { key: 'Enter' });
    fake.emit({ type: 'start' });
    fake.state.storedReply = storedReply('Hello!');
    fake.emit({ type: 'end' });
    await ui().findByText('Hello!');
    fireEvent.click(ui().getByRole('button', { name: 'Start a new conversation' }));
    expect(ui().queryByText('Hello!')).toBeNull();
    expect(root().querySelector('.msg--welcome')).toBeTruthy();
    expect(root().activeElement).toBe(input());

    // Reversible: the status line offers Undo, which brings the conversation back and focus to the message box.
    expect(root().querySelector('.notice--info')?.textContent).toBe('Conversation cleared.Undo');
    fireEvent.click(ui().getByRole('button', { name: 'Undo' }));
    expect(await ui().findByText('Hello!')).toBeTruthy();
    expect(root().querySelector('.notice--info')?.textContent).toBe('');
    expect(root().activeElement).toBe(input());
  });
});

describe('theming and position', () => {
  it('applies position and theme classes from config', async () => {
    await setup({ position: 'bottom-left', theme: 'dark' });
    expect(root().querySelector('.askbox--bottom-left.askbox--dark')).toBeTruthy();
  });
});

/** A message's words, without its speaker label and time. */
const words = (message: Element | undefined) => message?.querySelector('.md, .msg__text')?.textContent ?? '';

/** A message id of the service's shape. */
const id = (n: number) => `msg${String(n).padStart(9, '0')}`;

describe('a long history', () => {
  it('shows the latest 12 of 200 messages at once, then the older ones above them in batches, each sanitised once', async () => {
    const storage = createMemoryStorage();
    storage.set('conversation:yiu456ytyUjk@/askbox', JSON.stringify({ id: 'conv0000000a', grant: 'grant-a' }));
    const fake = await setup({}, storage);
    fake.state.history = Array.from({ length: 100 }, (_, i) => [
      { ...storedReply(`Question ${i + 1}`), id: id(2 * i), machine: false, created_at: 2 * i },
      storedReply(`Answer **${i + 1}**`, { id: id(2 * i + 1), created_at: 2 * i + 1 }),
    ]).flat();
    sanitized.length = 0;
    const shadow = root();
    const shown = () => [...shadow.querySelectorAll('.msg:not(.msg--welcome)')];
    // What each render showed: how many messages, and the last one.
    const seen: string[] = [];
    const observer = new MutationObserver(() => {
      const entry = `${shown().length} ${words(shown().at(-1))}`;
      if (seen.at(-1) !== entry) seen.push(entry);
    });
    observer.observe(shadow, { childList: true, subtree: true, characterData: true });

    open();
    // The order of the batches is the point here, not their speed: a loaded machine may take a few seconds.
    await waitFor(() => expect(shown()).toHaveLength(200), { timeout: 10_000 });
    observer.disconnect();
    expect(seen.filter((entry) => !entry.startsWith('0 '))).toEqual(
      [12, 32, 52, 72, 92, 112, 132, 152, 172, 192, 200].map((count) => `${count} Answer 100`),
    );
    expect(words(shown()[0])).toBe('Question 1');
    const answers = sanitized.filter((html) => html.includes('Answer'));
    expect(answers).toHaveLength(100);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../../src/config/parse';
import { TABLES } from '../../../src/config/locales/index';
import { createChat, type CreateChat } from '../../../src/mount/chat';
import { showGreeting, type ShowGreeting } from '../../../src/mount/greeting-bubble';
import { HOST_TAG } from '../../../src/mount/shadow-host';
import { startWidget } from '../../../src/mount/widget';
import { createFakeClient } from '../../helpers/fake-client';
import { createMemoryStorage } from '../../helpers/memory-storage';

beforeEach(() => {
  vi.useFakeTimers();
});
/** The widgets a test started: each destroyed after it (a widget puts its host back when a page removes it). */
const started: { destroy(): void }[] = [];

afterEach(() => {
  for (const widget of started.splice(0)) widget.destroy();
  vi.useRealTimers();
  vi.restoreAllMocks();
  document.body.replaceChildren();
  history.replaceState(null, '', '/');
});

const GREETING = 'Need a hand with your order?';

interface Options {
  settings?: Record<string, unknown>;
  /** The chat: by default a load that never ends. */
  chat?: () => CreateChat | Promise<CreateChat>;
  greeting?: () => ShowGreeting | Promise<ShowGreeting>;
  tab?: ReturnType<typeof createMemoryStorage>;
  strings?: () => Promise<{ pack: Readonly<Record<string, string>> } | undefined>;
}

/** A widget with a greeting after 2 s, its chat never loaded (the launcher alone draws the greeting). */
function start(options: Options = {}) {
  const { settings = {}, greeting = () => showGreeting, tab = createMemoryStorage(), strings } = options;
  const parsed = parseConfig({
    botId: 'yiu456ytyUjk',
    proxyUrl: '/askbox',
    greeting: GREETING,
    greetingDelay: '2',
    ...settings,
  });
  if (!parsed.config) throw new Error(JSON.stringify(parsed.issues));
  const chat = vi.fn(options.chat ?? (() => new Promise<CreateChat>(() => undefined)));
  const widget = startWidget(parsed.config, {
    chat,
    greeting,
    strings,
    client: createFakeClient().client,
    storage: createMemoryStorage(),
    tabStorage: tab,
  });
  widget.attach();
  started.push(widget.handle);
  const root = [...document.querySelectorAll(HOST_TAG)].at(-1)?.shadowRoot as ShadowRoot;
  const q = (selector: string) => root.querySelector<HTMLElement>(selector);
  return { widget, root, q, tab, chat };
}

describe('the greeting', () => {
  it('shows after its delay, not before: its words, a named close button, the badge and the live region', async () => {
    const { q } = start();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(q('.greeting')).toBeNull();
    expect(q('.greeting__live')?.getAttribute('role')).toBe('status');
    expect(q('.greeting__live')?.textContent).toBe('');
    expect(q('.launcher__badge')?.textContent).toBe('');
    await vi.advanceTimersByTimeAsync(1);
    expect(q('.greeting__text')?.textContent).toBe(GREETING);
    expect(q('.greeting__close')?.getAttribute('aria-label')).toBe('Dismiss greeting');
    expect(q('.greeting__live')?.textContent).toBe(GREETING);
    expect(q('.launcher__badge')?.textContent).toBe('1');
    expect(q('.launcher')?.getAttribute('aria-label')).toBe('Chat, 1 unread');
    // Before the launcher, in reading and tab order.
    expect(q('.greeting')?.nextElementSibling).toBe(q('.launcher'));
    expect(document.activeElement).toBe(document.body);
  });

  it('is dismissed by its close button for the session, focus going to the launcher', async () => {
    const tab = createMemoryStorage();
    const first = start({ tab });
    await vi.advanceTimersByTimeAsync(2_000);
    first.q('.greeting__close')?.focus();
    first.q('.greeting__close')?.click();
    expect(first.q('.greeting')).toBeNull();
    expect(first.q('.greeting__live')?.textContent).toBe('');
    expect(first.q('.launcher__badge')?.textContent).toBe('');
    expect(first.root.activeElement).toBe(first.q('.launcher'));
    first.widget.handle.destroy();
    // The next page of the visit.
    const next = start({ tab });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(next.q('.greeting')).toBeNull();
  });

  it('is dismissed by Escape within it; a click elsewhere leaves focus alone', async () => {
    const { q, root } = start();
    await vi.advanceTimersByTimeAsync(2_000);
    q('.greeting__close')?.click();
    expect(root.activeElement).toBeNull();
    const again = start({ settings: { instance: 'two' } });
    await vi.advanceTimersByTimeAsync(2_000);
    again.q('.greeting__text')?.focus();
    again.q('.greeting__text')?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(again.q('.greeting')).toBeNull();
    expect(again.root.activeElement).toBe(again.q('.launcher'));
  });

  it('opens the panel from its words, and goes: opened, it has had its turn', async () => {
    const tab = createMemoryStorage();
    const { q, chat } = start({ tab });
    await vi.advanceTimersByTimeAsync(2_000);
    q('.greeting__text')?.click();
    expect(chat).toHaveBeenCalled();
    expect(q('.greeting')).toBeNull();
    expect(q('.greeting__live')?.textContent).toBe('');
    expect(q('.launcher')?.getAttribute('aria-expanded')).toBe('true');
    expect(start({ tab, settings: { instance: 'x' } }).tab.get('greeted:yiu456ytyUjk@/askbox')).toBe('1');
  });

  it('does not show when the panel was opened before its delay', async () => {
    const { q, widget } = start();
    widget.handle.open();
    widget.handle.close();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(q('.greeting')).toBeNull();
  });

  it.each([
    ['its page rules keep it off the page', { greetingHideOn: '/' }],
    ['there is no launcher', { launcher: 'false' }],
    ['the widget is inline', { mode: 'inline', target: 'body' }],
    ['it is empty', { greeting: '' }],
  ])('does not show, nor load its file, when %s', async (_when, settings) => {
    const greeting = vi.fn(() => showGreeting);
    const { q } = start({ settings, greeting });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(q('.greeting')).toBeNull();
    expect(greeting).not.toHaveBeenCalled();
  });

  it('loads its file only when due, and follows its page rules through navigation', async () => {
    const greeting = vi.fn(() => showGreeting);
    history.replaceState(null, '', '/checkout');
    const { q } = start({ settings: { greetingHideOn: '/checkout' }, greeting });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(greeting).not.toHaveBeenCalled();
    history.pushState(null, '', '/products');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(greeting).toHaveBeenCalledTimes(1);
    expect(q('.greeting')).not.toBeNull();
    history.pushState(null, '', '/checkout');
    await vi.advanceTimersByTimeAsync(0);
    expect(q('.greeting')).toBeNull();
    expect(q('.launcher__badge')?.textContent).toBe('');
  });

  it("names its close button in the visitor's language, from the pack loaded for the chat", async () => {
    const strings = vi.fn(() => Promise.resolve({ pack: TABLES.de ?? {} }));
    const { q } = start({ settings: { locale: 'de' }, strings });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(q('.greeting__close')?.getAttribute('aria-label')).toBe('Begrüßung schließen');
    expect(strings).toHaveBeenCalledTimes(1);
  });

  it("names it as the site says, over the language's pack", async () => {
    const strings = vi.fn(() => Promise.resolve({ pack: TABLES.de ?? {} }));
    const { q } = start({ settings: { locale: 'de', textDismissGreeting: 'Weg damit' }, strings });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(q('.greeting__close')?.getAttribute('aria-label')).toBe('Weg damit');
  });

  it('stays away when its file cannot load, and leaves nothing behind when the widget goes', async () => {
    const failing = start({ greeting: () => Promise.reject(new Error('blocked')) });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(failing.q('.greeting')).toBeNull();
    expect(failing.q('.launcher__badge')?.textContent).toBe('');
    const { q, widget } = start({ settings: { instance: 'y' } });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(q('.greeting')).not.toBeNull();
    const shadow = [...document.querySelectorAll(HOST_TAG)].at(-1)?.shadowRoot;
    widget.handle.destroy();
    expect(shadow?.querySelector('.greeting, .greeting__live')).toBeFalsy();
  });
});

describe('the greeting in the chat', () => {
  it('is the first line of a new conversation, in place of the welcome', async () => {
    const { q, widget } = start({ chat: () => createChat, settings: { welcome: 'Welcome!' } });
    widget.handle.open();
    await vi.waitFor(() => expect(q('.msg--welcome')?.textContent).toBe(GREETING));
    expect(q('.panel')?.textContent).not.toContain('Welcome!');
  });

  it('leaves the welcome where its page rules keep the greeting away', async () => {
    const { q, widget } = start({ chat: () => createChat, settings: { welcome: 'Welcome!', greetingShowOn: '/help' } });
    widget.handle.open();
    await vi.waitFor(() => expect(q('.msg--welcome')?.textContent).toBe('Welcome!'));
  });
});

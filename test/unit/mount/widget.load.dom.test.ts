import { afterEach, describe, expect, it, vi } from 'vitest';
import { localize } from '../../../src/config/chat-text';
import { parseConfig } from '../../../src/config/parse';
import { createChat, type CreateChat } from '../../../src/mount/chat';
import type { ChatStrings } from '../../../src/mount/deps';
import { HOST_TAG } from '../../../src/mount/shadow-host';
import { startWidget } from '../../../src/mount/widget';
import { createMemoryStorage } from '../../helpers/memory-storage';
import { createFakeClient } from '../../helpers/fake-client';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

function config(options: Record<string, unknown> = {}) {
  const parsed = parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox', ...options });
  if (!parsed.config) throw new Error('bad config');
  return parsed.config;
}

const frame = () => document.querySelector(HOST_TAG)?.shadowRoot?.querySelector('.pending');

/** A chat source as the script tag's: a promise per load, the first `failures` of them refused. */
function source(failures: number) {
  let calls = 0;
  const made: Parameters<CreateChat>[0][] = [];
  const chat = () => {
    calls += 1;
    if (calls <= failures) return Promise.reject(new Error('integrity'));
    return Promise.resolve(((given, emit, deps) => (made.push(given), createChat(given, emit, deps))) as CreateChat);
  };
  return { chat, made, calls: () => calls };
}

describe('startWidget(): the chat behind the launcher', () => {
  it('shows the failure notice in the loading frame, and loads again on Retry, once, then opens the chat', async () => {
    const loads = source(1);
    const widget = startWidget(config(), {
      chat: loads.chat,
      client: createFakeClient().client,
      storage: createMemoryStorage(),
      tabStorage: createMemoryStorage(),
    });
    widget.attach(document.body);
    widget.handle.open();
    await vi.waitFor(() => expect(frame()?.querySelector('[role="alert"]')).toBeTruthy());
    widget.handle.open();
    widget.handle.open();
    await vi.waitFor(() => expect(frame()).toBeFalsy());
    expect([loads.calls(), loads.made.length]).toEqual([2, 1]);
    widget.handle.destroy();
  });

  it('creates the chat with the one config and the strings loaded with it, or English when they fail', async () => {
    const strings: ChatStrings = { pack: { title: 'Hilfe', welcome: 'Hallo' } };
    for (const [loaded, title] of [
      [strings, 'Hilfe'],
      [undefined, 'Ask us anything'],
    ] as const) {
      const loads = source(0);
      const widget = startWidget(config({ accent: '#112233' }), {
        chat: loads.chat,
        strings: () => Promise.resolve(loaded),
        client: createFakeClient().client,
        storage: createMemoryStorage(),
        tabStorage: createMemoryStorage(),
      });
      widget.warm();
      await vi.waitFor(() => expect(loads.made).toHaveLength(1));
      // The pack joins the one config; the chat reads its strings from it when it is created.
      expect([localize(loads.made[0]!).title, loads.made[0]?.accent]).toEqual([title, '#112233']);
      widget.handle.destroy();
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { ConversationRef } from '../../../src/api/types';
import { ChatError } from '../../../src/api/errors';
import { parseConfig } from '../../../src/config/parse';
import type { WidgetEvents } from '../../../src/state/events';
import { createFeedback, isRateable } from '../../../src/state/feedback';
import { localMessage, type ChatMessage } from '../../../src/state/messages';
import { createFakeClient } from '../../helpers/fake-client';
import { createMemoryStorage } from '../../helpers/memory-storage';

const FIRST = { id: 'conv00000001', grant: 'grant-1' };
const SECOND = { id: 'conv00000002', grant: 'grant-2' };

/** Ratings over a fake client, in the conversation `held.current`; `events` are the `feedback` events fired. */
function setup() {
  const fake = createFakeClient();
  const { config } = parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox' });
  const events: WidgetEvents['feedback'][] = [];
  const held: { current: ConversationRef | undefined } = { current: FIRST };
  const feedback = createFeedback({
    client: fake.client,
    storage: createMemoryStorage(),
    config: config!,
    emit: (type, detail) => type === 'feedback' && events.push(detail as WidgetEvents['feedback']),
    conversation: () => held.current,
  });
  /** What was sent, as `id rating comment? keepalive?` lines. */
  const sent = () =>
    fake.state.feedback.map((f) =>
      [f.conversation, f.messageId, f.rating, f.comment, f.keepalive && 'keepalive'].filter(Boolean).join(' '),
    );
  return { fake, feedback, events, held, sent };
}

describe('which messages can be rated', () => {
  // A reply as the service stored it: its own id, not a local one.
  const reply: ChatMessage = { ...localMessage('assistant', 'Hi', 'done'), id: 'Rep1y0000001' };
  const cases: [title: string, change: Partial<ChatMessage>, rateable: boolean][] = [
    ['a complete reply the service stored', {}, true],
    ['an id with "local-" past its start', { id: 'x-local-1' }, true],
    ["the visitor's own message", { role: 'user' }, false],
    ['a reply still pending', { status: 'pending' }, false],
    ['a reply stopped part-way', { status: 'stopped' }, false],
    ['a failed reply', { status: 'failed' }, false],
    ['a reply the service never stored (a local id)', { id: 'local-3' }, false],
  ];
  it.each(cases)('%s', (_title, change, rateable) => {
    expect(isRateable({ ...reply, ...change })).toBe(rateable);
  });
});

describe('one rating, one record', () => {
  it('sends a thumbs-up at once, and fires `feedback` once', async () => {
    const { feedback, events, sent } = setup();
    expect(await feedback.rate('reply1', 'up')).toBe('sent');
    expect(sent()).toEqual(['conv00000001 reply1 up']);
    expect(events).toEqual([{ messageId: 'reply1', conversationId: 'conv00000001', rating: 'up', comment: undefined }]);
  });

  it('holds a thumbs-down while its comment box is open, then sends it once with the comment', async () => {
    const { feedback, events, sent } = setup();
    expect(await feedback.rate('reply1', 'down')).toBe('held');
    expect(feedback.commenting.value).toBe('reply1');
    expect(feedback.ratings.value.reply1).toBe('down');
    expect(sent()).toEqual([]);
    expect(events).toEqual([]);
    expect(await feedback.finish('reply1', 'Out of date')).toBe(true);
    expect(sent()).toEqual(['conv00000001 reply1 down Out of date']);
    expect(events).toEqual([
      { messageId: 'reply1', conversationId: 'conv00000001', rating: 'down', comment: 'Out of date' },
    ]);
    expect(feedback.commenting.value).toBeNull();
    // Nothing waits any more: neither a second finish nor a flush sends again.
    expect(await feedback.finish('reply1', 'Again')).toBe(false);
    feedback.flush();
    expect(sent()).toHaveLength(1);
  });

  it('skipped, sends the thumbs-down once without a comment', async () => {
    const { feedback, events, sent } = setup();
    await feedback.rate('reply1', 'down');
    expect(await feedback.finish('reply1')).toBe(true);
    expect(sent()).toEqual(['conv00000001 reply1 down']);
    expect(events).toHaveLength(1);
  });

  it('flushes a waiting thumbs-down with keepalive, to the conversation it was given in', async () => {
    const { feedback, events, held, sent } = setup();
    await feedback.rate('reply1', 'down');
    held.current = SECOND;
    feedback.flush();
    await Promise.resolve();
    expect(sent()).toEqual(['conv00000001 reply1 down keepalive']);
    expect(events).toEqual([expect.objectContaining({ conversationId: 'conv00000001', rating: 'down' })]);
    expect(feedback.commenting.value).toBeNull();
  });

  it('sends a waiting thumbs-down without its comment when another reply is rated', async () => {
    const { feedback, sent } = setup();
    await feedback.rate('reply1', 'down');
    await feedback.rate('reply2', 'down');
    expect(sent()).toEqual(['conv00000001 reply1 down']);
    expect(feedback.commenting.value).toBe('reply2');
    await feedback.rate('reply3', 'up');
    expect(sent()).toEqual(['conv00000001 reply1 down', 'conv00000001 reply2 down', 'conv00000001 reply3 up']);
  });

  it('changed to a thumbs-up before its comment, is sent as the thumbs-up only', async () => {
    const { feedback, events, sent } = setup();
    await feedback.rate('reply1', 'down');
    await feedback.rate('reply1', 'down');
    await feedback.rate('reply1', 'up');
    feedback.flush();
    expect(sent()).toEqual(['conv00000001 reply1 up']);
    expect(events.map((e) => e.rating)).toEqual(['up']);
  });

  it('drops a waiting thumbs-down of a deleted conversation, and keeps one of another', async () => {
    const { feedback, sent } = setup();
    await feedback.rate('reply1', 'down');
    feedback.forget([{ id: 'reply1' } as ChatMessage]);
    feedback.flush();
    expect(sent()).toEqual([]);
    expect(feedback.ratings.value.reply1).toBeUndefined();

    const other = setup();
    await other.feedback.rate('reply1', 'down');
    other.feedback.forget([{ id: 'reply9' } as ChatMessage]);
    expect(other.feedback.commenting.value).toBeNull();
    other.feedback.flush();
    expect(other.sent()).toEqual(['conv00000001 reply1 down keepalive']);
  });

  it('keeps the latest 200 ratings', async () => {
    const { feedback } = setup();
    for (let n = 0; n <= 200; n++) await feedback.rate(`reply${n}`, 'up');
    expect(Object.keys(feedback.ratings.value)).toHaveLength(200);
    expect(feedback.ratings.value.reply0).toBeUndefined();
    expect(feedback.ratings.value.reply200).toBe('up');
  });

  it('keeps a rating that failed, and Retry sends it again with its comment without firing `feedback` again', async () => {
    const { fake, feedback, events, sent } = setup();
    fake.state.actionError = new ChatError('rate_limit', 'HTTP 429', { status: 429 });
    await feedback.rate('reply1', 'down');
    expect(await feedback.finish('reply1', 'Wrong')).toBe(false);
    expect(feedback.sending.value).toEqual({ reply1: 'failed' });
    fake.state.actionError = undefined;
    expect(await feedback.retry('reply1')).toBe(true);
    expect(sent()).toEqual(['conv00000001 reply1 down Wrong']);
    expect(feedback.sending.value).toEqual({});
    expect(events).toHaveLength(1);
  });

  it('rates nothing without a conversation', async () => {
    const { feedback, held, sent } = setup();
    held.current = undefined;
    expect(await feedback.rate('reply1', 'up')).toBe('failed');
    expect(await feedback.retry('reply1')).toBe(false);
    expect(sent()).toEqual([]);
  });
});

import { describe, expect, it, vi } from 'vitest';
import type { FeedbackEvent } from '../../../../../src/proxy/core/options';
import { setup } from '../../../../helpers/proxy';

/** A visitor rates a reply of a conversation they started, through a proxy with these options. */
const rate = async (options: Parameters<typeof setup>[0] = {}) => {
  const proxy = setup(options);
  const mine = await proxy.start();
  const response = await proxy.call(
    'POST',
    '/feedback',
    { conversation_id: mine.id, message_id: 'Rep1y0000001', rating: 'down', comment: ' Wrong price ' },
    { 'x-askbox-grant': mine.grant },
  );
  return { ...proxy, response, mine };
};

/** Where the Node and Workers proxy hands a visitor's rating: `onFeedback`, else one `feedback` log line. */
describe('proxy: ratings reach the site', () => {
  it('awaits onFeedback with the rating, the trimmed comment and the visitor, and calls nobody upstream', async () => {
    const events: FeedbackEvent[] = [];
    const { response, mine, upstreamCalls } = await rate({ onFeedback: async (event) => void events.push(event) });
    expect(response.status).toBe(200);
    // The answer names what was rated, as the widget reads it.
    expect(await response.json()).toEqual({
      data: { conversation_id: mine.id, message_id: 'Rep1y0000001', rating: 'down' },
    });
    expect(events).toEqual([
      {
        conversationId: mine.id,
        messageId: 'Rep1y0000001',
        rating: 'down',
        comment: 'Wrong price',
        visitorId: expect.any(String),
      },
    ]);
    expect(upstreamCalls.map((call) => new URL(call.url).pathname)).toEqual(['/api/v1/conversations']);
  });

  it('answers 503 with Retry-After, and logs once without the key, when onFeedback fails', async () => {
    const { response, logs } = await rate({
      onFeedback: () => Promise.reject(new Error('analytics down')),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    const errors = logs.filter((entry) => entry.level === 'error');
    expect(errors).toEqual([
      { level: 'error', event: 'feedback', message: 'onFeedback failed: Error: analytics down' },
    ]);
  });

  it('logs the rating as one info line of event feedback without onFeedback', async () => {
    const { response, logs, mine } = await rate();
    expect(response.status).toBe(200);
    const lines = logs.filter((entry) => entry.event === 'feedback');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!.message!)).toMatchObject({ conversationId: mine.id, rating: 'down' });
  });

  it('does not call onFeedback for a refused rating', async () => {
    const onFeedback = vi.fn();
    const proxy = setup({ onFeedback });
    const mine = await proxy.start();
    const other = await proxy.start();
    const response = await proxy.call(
      'POST',
      '/feedback',
      { conversation_id: mine.id, message_id: 'Rep1y0000001', rating: 'up' },
      { 'x-askbox-grant': other.grant },
    );
    expect(response.status).toBe(422);
    expect(onFeedback).not.toHaveBeenCalled();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatError } from '../../../src/api/errors';
import { STALL_HINT_MS } from '../../../src/state/stall';
import { createTestModel } from '../../helpers/model';
import { storedReply } from '../../helpers/fake-client';

const QUOTA_TEXT =
  'You have reached the message limit for last 30 days, please wait till tomorrow or upgrade your plan.';

const setup = () => createTestModel();

/** Lets the fake stream's promises settle; vi.waitFor would move the fake clock. */
const flush = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

const quota = () => new ChatError('quota', 'HTTP 402', { status: 402, detail: QUOTA_TEXT });

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('chat model: the message limit (402)', () => {
  it('keeps the draft, waits to send, logs the service text once and emits quota with it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { model, state, events } = setup();
    state.refusals.push(quota());
    model.setDraft('one more question');
    await model.send();
    expect([model.messages.value, model.draft.value]).toEqual([[], 'one more question']);
    expect([model.held.value, model.canSend.value, model.failure.value?.can]).toEqual([true, false, 'restart']);
    expect(events.at(-1)).toEqual({ type: 'quota', detail: { message: QUOTA_TEXT } });
    expect(events.some((e) => e.type === 'error')).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe(`[askbox] The chat service's message limit is reached: ${QUOTA_TEXT}`);

    // The draft stays editable; sending, from the composer or the page, waits; dismissing does not lift it.
    model.setDraft('edited');
    expect([model.draft.value, model.canSend.value]).toEqual(['edited', false]);
    await model.send();
    await model.send('from the page');
    model.dismiss();
    expect([state.sent, model.held.value]).toEqual([['one more question'], true]);
  });

  it('offers no Retry on a failed reply while the limit holds', async () => {
    const { model, state, reply } = setup();
    state.storedReply = storedReply('', { failed_responding: true });
    reply();
    await model.send('question');
    expect(model.canRetryReply.value).toBe(true);
    state.refusals.push(quota());
    await model.retry();
    expect([model.held.value, model.canRetryReply.value]).toEqual([true, false]);
    await model.retry();
    expect(state.sent).toEqual(['question', 'question']);
  });

  it('lifts with a new conversation, and logs the service text only once per widget', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { model, state, reply, events } = setup();
    state.refusals.push(quota(), quota());
    await model.send('first');
    model.newConversation();
    // The refused text is still in the composer, ready to send.
    expect([model.held.value, model.draft.value, model.canSend.value]).toEqual([false, 'first', true]);
    model.setDraft('second');
    await model.send();
    expect(model.held.value).toBe(true);
    expect(events.filter((e) => e.type === 'quota')).toHaveLength(2);
    expect(warn).toHaveBeenCalledTimes(1);
    model.newConversation();
    reply('ok');
    await model.send('third');
    expect(model.messages.value.map((m) => m.text)).toEqual(['third', 'ok']);
  });
});

describe('chat model: a stream that goes silent', () => {
  it(`says it is still working after ${STALL_HINT_MS} ms without a chunk, and stops saying so when one arrives`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { model, emit, chunk } = setup();
    const sending = model.send('q');
    emit({ type: 'start' });
    await flush();
    expect(model.status.value.type).toBe('streaming');
    chunk('Half a sen');
    await flush();
    expect(model.streaming.value).toBe('Half a sen');
    vi.advanceTimersByTime(STALL_HINT_MS - 1);
    expect(model.stalled.value).toBe(false);
    vi.advanceTimersByTime(1);
    expect(model.stalled.value).toBe(true);
    chunk('tence.');
    await flush();
    expect(model.stalled.value).toBe(false);
    vi.advanceTimersByTime(STALL_HINT_MS - 1);
    expect(model.stalled.value).toBe(false);
    vi.advanceTimersByTime(1);
    expect(model.stalled.value).toBe(true);
    // Stop stays available while stalled, and ends the hint with the reply.
    expect(model.busy.value).toBe(true);
    model.stop();
    await sending;
    expect([model.stalled.value, model.messages.value.at(-1)?.status]).toEqual([false, 'stopped']);
    vi.advanceTimersByTime(STALL_HINT_MS * 2);
    expect(model.stalled.value).toBe(false);
  });
});

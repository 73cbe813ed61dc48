import { describe, expect, it, vi } from 'vitest';
import { ChatError } from '../../../src/api/errors';
import type { KeyValueStore } from '../../../src/state/storage';
import { createMemoryStorage } from '../../helpers/memory-storage';
import { createTestModel } from '../../helpers/model';
import { storedReply } from '../../helpers/fake-client';

const KEY = 'conversation:bot000000001@/askbox';
const STORED = JSON.stringify({ id: 'conv0000000a', grant: 'grant-a' });

const setup = (storage?: KeyValueStore) => createTestModel({}, storage);

type Model = ReturnType<typeof setup>['model'];

const shape = (model: Model) => model.messages.value.map((m) => [m.role, m.status, m.text]);
const storedWith = (conversation: string) => {
  const storage = createMemoryStorage();
  storage.set(KEY, conversation);
  return storage;
};
const question = (id: string, content: string) => ({ ...storedReply(content), id, machine: false, created_at: 1 });
const quota = () => new ChatError('quota', 'Quota', { status: 402, detail: 'You reached the message limit.' });

describe('chat model: a conversation', () => {
  it('touches nothing until the visitor engages, and creates the conversation with the first message', async () => {
    const reads: string[] = [];
    const memory = createMemoryStorage();
    const { model, state, statuses, storage, reply } = setup({
      ...memory,
      get: (key) => (reads.push(key), memory.get(key)),
    });
    expect([state.calls, reads]).toEqual([[], []]);
    model.open();
    await Promise.resolve();
    expect(state.calls).toEqual([]);
    expect(reads).toEqual([KEY]);

    model.setDraft('  Where is my parcel?  ');
    const sending = model.send();
    expect(shape(model)).toEqual([['user', 'pending', 'Where is my parcel?']]);
    expect([model.draft.value, model.busy.value, model.status.value.type]).toEqual(['', true, 'sending']);
    reply('It is ', 'on its way.');
    await sending;
    expect(state.calls).toEqual(['create', 'stream', 'latest']);
    expect(storage.get(KEY)).toBe(JSON.stringify({ id: 'conv00000001', grant: 'grant-1' }));
    expect(shape(model)).toEqual([
      ['user', 'done', 'Where is my parcel?'],
      ['assistant', 'done', 'It is on its way.'],
    ]);
    expect(statuses).toEqual(['idle', 'sending', 'streaming', 'idle']);
    expect(model.streaming.value).toBe('');
  });

  it('streams into `streaming`, then commits the stored reply with its id and sources', async () => {
    const { model, state, emit, chunk } = setup();
    state.storedReply = storedReply('one two', {
      sources: [{ document_id: 'd1', document_name: 'Shipping', document_url: 'https://x.test/s' }],
    });
    const sending = model.send('q');
    emit({ type: 'start' });
    chunk('one ');
    await vi.waitFor(() => expect(model.streaming.value).toBe('one '));
    expect(model.status.value.type).toBe('streaming');
    chunk('two');
    await vi.waitFor(() => expect(model.streaming.value).toBe('one two'));
    emit({ type: 'end' });
    await sending;
    expect(model.messages.value.at(-1)).toMatchObject({ id: 'reply0000001', text: 'one two', status: 'done' });
    expect(model.messages.value.at(-1)?.sources).toEqual([{ id: 'd1', title: 'Shipping', url: 'https://x.test/s' }]);
    expect(model.announcement.value?.id).toBe('reply0000001');
  });

  it('emits open, send, reply and close, in order', async () => {
    const { model, events, reply } = setup();
    model.open();
    reply('hi');
    await model.send('hello');
    model.close();
    model.close();
    expect(events.map((e) => e.type)).toEqual(['open', 'send', 'reply', 'close']);
    expect(events[1]?.detail).toEqual({ text: 'hello' });
  });

  it('sends exactly 2,000 characters, refuses 2,001 and keeps them, and ignores a second send while busy', async () => {
    const { model, state, reply } = setup();
    model.setDraft('x'.repeat(2001));
    expect(model.canSend.value).toBe(false);
    await model.send();
    expect(state.sent).toEqual([]);
    expect(model.draft.value).toHaveLength(2001);
    await model.send('y'.repeat(2001));
    expect([state.sent, model.draft.value]).toEqual([[], 'y'.repeat(2001)]);

    model.setDraft('z'.repeat(2000));
    expect(model.canSend.value).toBe(true);
    const first = model.send();
    await model.send('second while busy');
    reply('ok');
    await first;
    expect(state.sent).toEqual(['z'.repeat(2000)]);
    // Characters, as the service counts them: 2,001 emoji are refused, 2,000 (4,000 UTF-16 units) are sent.
    await model.send('😀'.repeat(2001));
    expect(state.sent).toEqual(['z'.repeat(2000)]);
    const emoji = model.send('😀'.repeat(2000));
    reply('ok');
    await emoji;
    expect(state.sent).toEqual(['z'.repeat(2000), '😀'.repeat(2000)]);
  });

  it('keeps the draft when the page sends other text', async () => {
    const { model, reply } = setup();
    model.setDraft('half typed');
    reply('ok');
    await model.send('From a button');
    expect(model.draft.value).toBe('half typed');
  });
});

describe('chat model: history', () => {
  it('restores the stored conversation when the panel opens', async () => {
    const { model, state, statuses } = setup(storedWith(STORED));
    state.history = [question('m1', 'first question'), storedReply('first answer')];
    model.open();
    expect(model.status.value.type).toBe('loading');
    await vi.waitFor(() => expect(model.status.value.type).toBe('idle'));
    expect(shape(model)).toEqual([
      ['user', 'done', 'first question'],
      ['assistant', 'done', 'first answer'],
    ]);
    expect(statuses).toEqual(['idle', 'loading', 'idle']);
    model.close();
    model.open();
    expect(state.calls).toEqual(['list']);
  });

  it('loads the history before a message sent with the panel closed, and asks in that conversation', async () => {
    const { model, state, reply } = setup(storedWith(STORED));
    state.history = [question('m1', 'earlier')];
    reply('ok');
    await model.send('later');
    expect(state.calls).toEqual(['list', 'stream', 'latest']);
    expect(state.sentTo).toEqual(['conv0000000a']);
    expect(shape(model).map((m) => m[2])).toEqual(['earlier', 'later', 'ok']);
  });

  it('starts afresh, without a request, from a value an older widget stored', async () => {
    for (const old of ['gonegonegone', '{"id":"gonegonegone"}', '{"id":"../x","grant":"g"}', 'null', '{oops', '[]']) {
      const { model, state, storage, reply } = setup(storedWith(old));
      model.open();
      await Promise.resolve();
      expect([state.calls, storage.get(KEY), model.failure.value]).toEqual([[], undefined, undefined]);
      reply('ok');
      await model.send('hello');
      expect(state.calls[0]).toBe('create');
    }
  });

  it('starts afresh when the stored conversation is gone', async () => {
    const { model, state, storage } = setup(storedWith(STORED));
    state.gone.add('conv0000000a');
    model.open();
    await vi.waitFor(() => expect(model.status.value.type).toBe('idle'));
    expect([storage.get(KEY), model.failure.value]).toEqual([undefined, undefined]);
  });

  it('offers one Retry for a history that failed to load, and loads it again with it', async () => {
    const { model, state, events } = setup(storedWith(STORED));
    state.historyError = new ChatError('network', 'Failed to fetch');
    model.open();
    await vi.waitFor(() => expect(model.failure.value?.can).toBe('reload'));
    expect(events.at(-1)).toEqual({ type: 'error', detail: { kind: 'network', message: 'Failed to fetch' } });
    state.historyError = undefined;
    state.history = [question('m1', 'back again')];
    await model.retry();
    expect(shape(model)).toEqual([['user', 'done', 'back again']]);
    expect([model.status.value.type, model.failure.value]).toEqual(['idle', undefined]);
  });

  it('offers no Retry when repeating cannot help, and dismissing clears the notice', async () => {
    const { model, state } = setup(storedWith(STORED));
    state.historyError = new ChatError('auth', 'Forbidden', { status: 403 });
    model.open();
    await vi.waitFor(() => expect(model.failure.value?.can).toBe('none'));
    expect(model.canRetryReply.value).toBe(false);
    await model.retry();
    expect(state.calls).toEqual(['list']);
    model.dismiss();
    expect(model.status.value.type).toBe('idle');
  });

  it('waits out a 429 on the history (no Retry into the wait), then reads it before the next message', async () => {
    const { model, state } = setup(storedWith(STORED));
    // Kept, not reloaded: the service asked for a wait, so a Retry would only meet the 429 again.
    state.historyError = new ChatError('rate_limit', 'Slow down', { status: 429, retryAfter: 0.5 });
    model.open();
    await vi.waitFor(() => expect(model.failure.value?.can).toBe('wait'));
    await model.retry();
    expect(state.calls).toEqual(['list']);
    state.historyError = undefined;
    state.history = [question('m1', 'earlier')];
    await vi.waitFor(() => expect(model.status.value.type).toBe('idle'));
    const sent = model.send('and now?');
    await vi.waitFor(() => expect(state.calls).toEqual(['list', 'list', 'stream']));
    expect(shape(model)).toEqual([
      ['user', 'done', 'earlier'],
      ['user', 'pending', 'and now?'],
    ]);
    model.stop();
    await sent;
  });
});

describe('chat model: failures', () => {
  it.each([
    ['quota', quota(), 'restart'],
    ['rate-limited', new ChatError('rate_limit', 'Slow down', { status: 429, retryAfter: 30 }), 'wait'],
    ['failed', new ChatError('http', 'Server error', { status: 500 }), 'none'],
  ])('gives the text back when the message is refused (%s)', async (_, error, can) => {
    const { model, state, events } = setup();
    state.refusals.push(error);
    model.setDraft('my question');
    await model.send();
    expect([model.messages.value, model.draft.value]).toEqual([[], 'my question']);
    expect(model.failure.value).toEqual({
      can,
      error,
      // A 429's Retry-After: sending waits until then.
      ...(can === 'wait' && { until: expect.closeTo(Date.now() + 30_000, -3) }),
    });
    expect(model.canRetryReply.value).toBe(false);
    // The message limit is a state of its own, with its own event (issue 9, item 5).
    expect(events.at(-1)?.type).toBe(can === 'restart' ? 'quota' : 'error');
  });

  it('holds sending for the Retry-After of a 429, then ends the failure by itself, the draft intact', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { model, state } = setup();
      state.refusals.push(new ChatError('rate_limit', 'Slow down', { status: 429, retryAfter: 5 }));
      model.setDraft('my question');
      await model.send();
      expect([model.held.value, model.canSend.value]).toEqual([true, false]);
      // Neither dismissing nor sending again gets past the wait: the refused attempt is the only one.
      model.dismiss();
      await model.send();
      expect([model.failure.value?.can, state.sent]).toEqual(['wait', ['my question']]);
      await vi.advanceTimersByTimeAsync(4999);
      expect(model.failure.value?.can).toBe('wait');
      await vi.advanceTimersByTimeAsync(1);
      expect([model.status.value.type, model.canSend.value, model.draft.value]).toEqual(['idle', true, 'my question']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a message the connection lost as a pending bubble, and sends it once by itself when it returns', async () => {
    const { model, state, reply, online, events } = setup();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    state.refusals.push(new ChatError('network', 'Failed to fetch'));
    await model.send('are you there?');
    // The text stays where the visitor put it; the draft is theirs to go on typing in, but not to send meanwhile.
    expect(shape(model)).toEqual([['user', 'pending', 'are you there?']]);
    // The browser said it was online: the proxy, not the visitor's connection, is named, on the console.
    expect(model.failure.value).toEqual({ can: 'resend', error: expect.any(ChatError), setup: true });
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
    model.setDraft('and another thing');
    expect([model.held.value, model.canSend.value]).toEqual([true, false]);
    await model.send();
    model.dismiss();
    expect([state.sent, model.failure.value?.can]).toEqual([['are you there?'], 'resend']);
    online.value = false;
    online.value = true;
    await vi.waitFor(() => expect(state.sent).toHaveLength(2));
    reply('Yes.');
    await vi.waitFor(() => expect(model.status.value.type).toBe('idle'));
    expect(state.sent).toEqual(['are you there?', 'are you there?']);
    expect(shape(model)).toEqual([
      ['user', 'done', 'are you there?'],
      ['assistant', 'done', 'Yes.'],
    ]);
    expect(model.draft.value).toBe('and another thing');
    expect(events.map((e) => e.type)).toEqual(['send', 'error', 'reply']);
  });

  it('sends nothing while the browser is offline: the message waits, pending, until the connection returns', async () => {
    const { model, state, reply, online } = setup();
    online.value = false;
    await model.send('are you there?');
    expect([state.calls, shape(model), model.failure.value?.can]).toEqual([
      [],
      [['user', 'pending', 'are you there?']],
      'resend',
    ]);
    // Retry while still offline sends nothing either.
    await model.retry();
    expect([state.calls, model.failure.value?.can]).toEqual([[], 'resend']);
    reply('Yes.');
    online.value = true;
    await vi.waitFor(() => expect(model.status.value.type).toBe('idle'));
    expect([state.calls, shape(model).map((m) => m[1])]).toEqual([
      ['create', 'stream', 'latest'],
      ['done', 'done'],
    ]);
  });

  it('sends nothing when it returns but the conversation cannot be read: the message may have arrived', async () => {
    const { model, state, online } = setup(storedWith(STORED));
    state.refusals.push(new ChatError('network', 'Failed to fetch'));
    await model.send('did it arrive?');
    state.listingError = new ChatError('network', 'Failed to fetch');
    online.value = false;
    online.value = true;
    await vi.waitFor(() => expect(state.calls.at(-1)).toBe('latest'));
    await vi.waitFor(() => expect(model.failure.value?.can).toBe('resend'));
    expect([state.sent, shape(model)]).toEqual([['did it arrive?'], [['user', 'pending', 'did it arrive?']]]);
  });

  it('reads back, when the connection returns, a reply it cut off, instead of asking for it again', async () => {
    const { model, state, emit, chunk, fail, online } = setup();
    const sending = model.send('tell me everything');
    emit({ type: 'start' });
    chunk('Everything begins');
    // The connection goes mid-reply; the service finishes and stores the reply all the same.
    fail(new ChatError('network', 'Failed to fetch'));
    state.listingError = new ChatError('network', 'Failed to fetch');
    await sending;
    expect(shape(model)).toEqual([
      ['user', 'done', 'tell me everything'],
      ['assistant', 'failed', 'Everything begins'],
    ]);
    expect(model.failure.value?.can).toBe('resend');
    state.listingError = undefined;
    state.storedReply = storedReply('Everything begins with a question.');
    online.value = false;
    online.value = true;
    await vi.waitFor(() => expect(model.status.value.type).toBe('idle'));
    expect(state.sent).toEqual(['tell me everything']);
    expect(shape(model)).toEqual([
      ['user', 'done', 'tell me everything'],
      ['assistant', 'done', 'Everything begins with a question.'],
    ]);
  });

  it('reads back, and does not send twice, a message the service got before the connection went', async () => {
    const { model, state } = setup();
    state.refusals.push(new ChatError('network', 'Failed to fetch'));
    model.setDraft('typed meanwhile');
    await model.send('did it arrive?');
    // The service stored the question and answered; only the response was lost.
    state.listing = [question('q00000000001', 'did it arrive?'), storedReply('It did.')];
    await model.retry();
    expect(state.sent).toEqual(['did it arrive?']);
    expect(shape(model)).toEqual([
      ['user', 'done', 'did it arrive?'],
      ['assistant', 'done', 'It did.'],
    ]);
    expect([model.draft.value, model.status.value.type]).toEqual(['typed meanwhile', 'idle']);
  });

  it('holds sending only after a 429, for at most the longest timer, and lets a newer status end the wait', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { model, state } = setup();
      // A 503 may carry Retry-After too: it is no reason to hold the visitor's next message.
      state.refusals.push(new ChatError('http', 'Busy', { status: 503, retryAfter: 30 }));
      await model.send('one');
      expect([model.failure.value?.can, model.held.value]).toEqual(['none', false]);
      // A wait longer than a timer can take (about 24.8 days) is not cut short by an overflowing delay.
      state.refusals.push(new ChatError('rate_limit', 'Slow down', { status: 429, retryAfter: 3_000_000 }));
      await model.send();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(model.failure.value?.can).toBe('wait');
      model.newConversation();
      state.refusals.push(new ChatError('network', 'Failed to fetch'));
      await model.send('two');
      await vi.advanceTimersByTimeAsync(3_000_000_000);
      expect(model.failure.value?.can).toBe('resend');
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not overwrite a draft typed while the refused message was on its way', async () => {
    const { model, state } = setup();
    state.refusals.push(quota());
    const sending = model.send('first');
    model.setDraft('typed meanwhile');
    await sending;
    expect(model.draft.value).toBe('typed meanwhile');
  });

  it('clears the failure when the visitor sends again', async () => {
    const { model, state, reply } = setup();
    state.refusals.push(new ChatError('http', 'Busy', { status: 503 }));
    await model.send('q');
    reply('ok');
    await model.send('q');
    expect([model.failure.value, shape(model).length]).toEqual([undefined, 2]);
  });

  it('retries a failed_responding reply without repeating the question, replacing it once accepted', async () => {
    const { model, state, reply, events } = setup();
    state.storedReply = storedReply('', { failed_responding: true });
    reply();
    await model.send('question');
    expect(shape(model)).toEqual([
      ['user', 'done', 'question'],
      ['assistant', 'failed', ''],
    ]);
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
    expect([model.failure.value, model.canRetryReply.value]).toEqual([undefined, true]);

    state.storedReply = storedReply('second time lucky', { id: 'reply0000002' });
    const retrying = model.retry();
    expect(shape(model).at(-1)).toEqual(['assistant', 'failed', '']);
    expect(model.canRetryReply.value).toBe(false);
    reply('second time lucky');
    await retrying;
    expect(shape(model)).toEqual([
      ['user', 'done', 'question'],
      ['assistant', 'done', 'second time lucky'],
    ]);
    expect(state.sent).toEqual(['question', 'question']);
  });

  it('keeps the failed reply and its one Retry when asking again is refused', async () => {
    const { model, state, reply } = setup();
    state.storedReply = storedReply('', { failed_responding: true });
    reply();
    await model.send('question');
    state.refusals.push(new ChatError('http', 'Bad gateway', { status: 502 }));
    await model.retry();
    expect(shape(model).at(-1)).toEqual(['assistant', 'failed', '']);
    expect(model.failure.value?.can).toBe('none');
    expect(model.canRetryReply.value).toBe(true);
  });

  it('recovers the stored reply when the stream is cut', async () => {
    const { model, state, emit, chunk, fail } = setup();
    state.storedReply = storedReply('complete reply text');
    emit({ type: 'start' });
    chunk('compl');
    fail(new ChatError('stream', 'Cut'));
    await model.send('q');
    expect(shape(model).at(-1)).toEqual(['assistant', 'done', 'complete reply text']);
    expect(model.failure.value).toBeUndefined();
  });

  it('keeps the partial text of a lost reply, marked failed, with exactly one Retry: on the reply', async () => {
    const { model, emit, chunk, fail, reply, state } = setup();
    emit({ type: 'start' });
    chunk('abcd');
    fail(new ChatError('stream', 'Cut'));
    await model.send('q');
    expect(shape(model).at(-1)).toEqual(['assistant', 'failed', 'abcd']);
    expect(model.failure.value).toMatchObject({ can: 'none', error: { kind: 'stream' } });
    expect(model.canRetryReply.value).toBe(true);
    reply('again');
    await model.retry();
    expect(shape(model).map((m) => m[2])).toEqual(['q', 'again']);
    expect(state.sent).toEqual(['q', 'q']);
  });

  it('delivers the message in a new conversation when the one in use is gone, once', async () => {
    for (const gone of [
      new ChatError('not_found', 'Not found', { status: 404 }),
      new ChatError('http', 'Invalid', { status: 422, fields: ['conversation_id'] }),
    ]) {
      const { model, state, reply, storage } = setup(storedWith(STORED));
      model.open();
      await vi.waitFor(() => expect(model.status.value.type).toBe('idle'));
      state.refusals.push(gone);
      reply('ok');
      await model.send('hello');
      expect(state.sentTo).toEqual(['conv0000000a', 'conv00000001']);
      expect(state.createdWith).toEqual(['grant-a']);
      expect(storage.get(KEY)).toContain('conv00000001');
      expect(shape(model)).toEqual([
        ['user', 'done', 'hello'],
        ['assistant', 'done', 'ok'],
      ]);
    }
  });

  it('does not loop when a conversation it just created is refused', async () => {
    const { model, state } = setup();
    state.refusals.push(new ChatError('not_found', 'Not found', { status: 404 }));
    await model.send('hello');
    expect(state.calls).toEqual(['create', 'stream']);
    expect(model.failure.value?.error.kind).toBe('not_found');
  });
});

describe('chat model: stopping and starting over', () => {
  it('stops a reply, keeping what arrived', async () => {
    const { model, emit, chunk } = setup();
    const sending = model.send('q');
    emit({ type: 'start' });
    chunk('partial');
    await vi.waitFor(() => expect(model.streaming.value).toBe('partial'));
    model.stop();
    await sending;
    expect(shape(model).at(-1)).toEqual(['assistant', 'stopped', 'partial']);
    expect([model.failure.value, model.status.value.type]).toEqual([undefined, 'idle']);
  });

  it('stops before the reply starts: the question goes back to the composer, with no error', async () => {
    const { model, events } = setup();
    model.setDraft('never mind');
    const sending = model.send();
    await vi.waitFor(() => expect(events.map((e) => e.type)).toContain('send'));
    model.stop();
    await sending;
    expect([model.messages.value, model.draft.value, model.failure.value]).toEqual([[], 'never mind', undefined]);
  });

  it('starts a new conversation, bringing the previous grant, and the old reply writes nothing', async () => {
    const { model, state, storage, reply, chunk, emit } = setup();
    reply('first');
    await model.send('hello');
    const late = model.send('slow one');
    emit({ type: 'start' });
    chunk('cut short');
    await vi.waitFor(() => expect(model.streaming.value).toBe('cut short'));
    model.newConversation();
    await late;
    expect([model.messages.value, model.streaming.value, model.status.value.type]).toEqual([[], '', 'idle']);
    expect(storage.get(KEY)).toBeUndefined();
    reply('second');
    await model.send('hello again');
    expect(state.createdWith).toEqual([undefined, 'grant-1']);
    expect(shape(model).map((m) => m[2])).toEqual(['hello again', 'second']);
  });

  it('undoes a new conversation until the visitor sends again: messages and the stored conversation come back', async () => {
    const { model, storage, reply } = setup();
    model.undoNewConversation();
    expect(model.messages.value).toEqual([]);
    reply('first');
    await model.send('hello');
    const before = model.messages.value;
    const stored = storage.get(KEY);
    model.newConversation();
    expect([model.messages.value, storage.get(KEY), model.cleared.value?.messages]).toEqual([[], undefined, before]);
    model.undoNewConversation();
    expect([model.messages.value, storage.get(KEY), model.cleared.value]).toEqual([before, stored, null]);

    model.newConversation();
    reply('second');
    await model.send('a fresh start');
    expect(model.cleared.value).toBeNull();
    model.undoNewConversation();
    expect(shape(model).map((m) => m[2])).toEqual(['a fresh start', 'second']);
  });

  it('offers no undo when there was nothing to clear, nor for a question the service had not taken', async () => {
    const { model } = setup();
    model.newConversation();
    expect(model.cleared.value).toBeNull();
    const sending = model.send('not taken yet');
    model.newConversation();
    await sending;
    expect(model.cleared.value).toBeNull();
  });

  it('aborts the reply in flight when disposed', async () => {
    const { model, emit } = setup();
    const sending = model.send('q');
    emit({ type: 'start' });
    await vi.waitFor(() => expect(model.status.value.type).toBe('streaming'));
    model[Symbol.dispose]();
    await sending;
    // The aborted stream ended the send; a disposed model writes nothing more, not even its idle status.
    expect([model.status.value.type, model.messages.value.length]).toEqual(['streaming', 1]);
  });
});

/** A gate the test opens: reads through the fake client wait on it. */
function gate() {
  const opener: { open?: () => void } = {};
  const closed = new Promise<void>((resolve) => {
    opener.open = resolve;
  });
  return { closed, open: () => opener.open?.() };
}

describe('chat model: guards', () => {
  it('allows a send only with real text, within the limit, while nothing is on its way', async () => {
    const { model, reply } = setup();
    for (const [draft, ok] of [
      ['', false],
      ['   ', false],
      [' a ', true],
      ['x'.repeat(2000), true],
      ['x'.repeat(2001), false],
      // Characters, as the service counts them: 2000 emoji are 4000 UTF-16 units.
      ['😀'.repeat(1500), true],
      ['😀'.repeat(2000), true],
      ['😀'.repeat(2001), false],
    ] as const) {
      model.setDraft(draft);
      expect(model.canSend.value, JSON.stringify(draft.slice(0, 5))).toBe(ok);
    }
    model.setDraft('question');
    const sending = model.send();
    model.setDraft('next');
    expect(model.canSend.value).toBe(false);
    reply('ok');
    await sending;
    expect(model.canSend.value).toBe(true);
  });

  it('counts loading the history as busy: a send waits for it, and only one load runs', async () => {
    const { model, state } = setup(storedWith(STORED));
    const held = gate();
    state.gate = held.closed;
    model.open();
    expect([model.busy.value, model.canSend.value]).toEqual([true, false]);
    await model.send('too early');
    model.close();
    model.open();
    held.open();
    await vi.waitFor(() => expect(model.status.value.type).toBe('idle'));
    expect(state.calls).toEqual(['list']);
    expect(state.sent).toEqual([]);
  });

  it('opens once: a second open() emits nothing and loads nothing', async () => {
    const { model, events, state } = setup(storedWith(STORED));
    model.open();
    model.open();
    await vi.waitFor(() => expect(model.status.value.type).toBe('idle'));
    expect(events.map((e) => e.type)).toEqual(['open']);
    expect(state.calls).toEqual(['list']);
  });

  it('does not list the history of a conversation it created itself when the panel opens again', async () => {
    const { model, state, reply } = setup();
    reply('ok');
    await model.send('hello');
    model.close();
    model.open();
    await Promise.resolve();
    expect(state.calls).toEqual(['create', 'stream', 'latest']);
  });

  it('offers Retry only for a failed reply that is the last message', async () => {
    const { model, state } = setup(storedWith(STORED));
    state.history = [
      question('m1', 'first'),
      storedReply('', { id: 'r1', failed_responding: true }),
      question('m2', 'second'),
      storedReply('fine', { id: 'r2' }),
    ];
    model.open();
    await vi.waitFor(() => expect(model.messages.value).toHaveLength(4));
    expect(model.canRetryReply.value).toBe(false);
    await model.retry();
    expect(state.sent).toEqual([]);
  });

  it('treats a 422 about the content as a refusal, not as a conversation gone', async () => {
    const { model, state } = setup(storedWith(STORED));
    state.refusals.push(new ChatError('http', 'Invalid', { status: 422, fields: ['content'] }));
    await model.send('hello');
    expect(state.calls).toEqual(['list', 'stream']);
    expect(model.failure.value?.error.fields).toEqual(['content']);
  });

  it('gives the text back over a draft of mere spaces, and clears a draft the page sent itself', async () => {
    const { model, state, reply } = setup();
    // A refusal that leaves sending open (a 402 now waits for a new conversation, issue 9, item 5).
    state.refusals.push(new ChatError('http', 'Busy', { status: 503 }));
    const sending = model.send('refused');
    model.setDraft('   ');
    await sending;
    expect(model.draft.value).toBe('refused');
    model.setDraft('  hello  ');
    reply('ok');
    await model.send('hello');
    expect(model.draft.value).toBe('');
    // However either is spaced.
    model.setDraft('thanks');
    reply('ok');
    await model.send(' thanks\n');
    expect(model.draft.value).toBe('');
  });

  it('dismisses a failure only: dismissing while sending changes nothing', async () => {
    const { model, reply } = setup();
    const sending = model.send('q');
    model.dismiss();
    expect(model.status.value.type).toBe('sending');
    reply('ok');
    await sending;
  });

  it('keeps no empty bubble when stopped before the first words, and leaves nothing streaming', async () => {
    const { model, emit } = setup();
    const sending = model.send('q');
    emit({ type: 'start' });
    await vi.waitFor(() => expect(model.status.value.type).toBe('streaming'));
    model.stop();
    await sending;
    expect(shape(model)).toEqual([['user', 'done', 'q']]);
    expect(model.streaming.value).toBe('');
  });

  it('marks a stopped reply as the visitor’s, never flagged, and clears the streaming text', async () => {
    const { model, emit, chunk } = setup();
    const sending = model.send('q');
    emit({ type: 'start' });
    chunk('part');
    await vi.waitFor(() => expect(model.streaming.value).toBe('part'));
    model.stop();
    await sending;
    expect(model.messages.value.at(-1)).toMatchObject({ status: 'stopped', flagged: false, sources: [] });
    expect(model.streaming.value).toBe('');
  });

  it('stops loading the history on request, without an error, and loads it on the next open', async () => {
    const { model, state } = setup(storedWith(STORED));
    const held = gate();
    state.gate = held.closed;
    model.open();
    model.stop();
    await vi.waitFor(() => expect(model.status.value.type).toBe('idle'));
    expect(model.failure.value).toBeUndefined();
    state.gate = undefined;
    state.history = [question('m1', 'kept')];
    model.close();
    model.open();
    await vi.waitFor(() => expect(model.messages.value).toHaveLength(1));
    held.open();
  });
});

describe('chat model: stale work writes nothing', () => {
  it('drops a history that arrives after the visitor started over', async () => {
    const { model, state } = setup(storedWith(STORED));
    const held = gate();
    state.gate = held.closed;
    state.history = [question('m1', 'old')];
    model.open();
    model.newConversation();
    held.open();
    // The history arrives, and the model handles it, in microtasks of the opened gate: all run before the next task.
    await new Promise((resolve) => setImmediate(resolve));
    expect([model.messages.value, model.status.value.type]).toEqual([[], 'idle']);
  });

  it('drops events and a stored reply that arrive after the visitor started over', async () => {
    const { model, state, emit, chunk } = setup();
    const held = gate();
    const sending = model.send('q');
    emit({ type: 'start' });
    await vi.waitFor(() => expect(model.status.value.type).toBe('streaming'));
    model.newConversation();
    chunk('late words');
    await sending;
    expect([model.streaming.value, model.messages.value]).toEqual(['', []]);

    state.gate = held.closed;
    state.storedReply = storedReply('stored too late');
    const second = model.send('again');
    emit({ type: 'end' });
    await vi.waitFor(() => expect(state.calls.at(-1)).toBe('latest'));
    model.newConversation();
    held.open();
    await second;
    expect(model.messages.value).toEqual([]);
  });

  it('drops a recovered reply that arrives after the visitor started over', async () => {
    const { model, state, emit, fail } = setup();
    const held = gate();
    state.gate = held.closed;
    state.storedReply = storedReply('recovered too late');
    const sending = model.send('q');
    emit({ type: 'start' });
    fail(new ChatError('stream', 'Cut'));
    await vi.waitFor(() => expect(state.calls.at(-1)).toBe('latest'));
    model.newConversation();
    held.open();
    await sending;
    expect([model.messages.value, model.failure.value]).toEqual([[], undefined]);
  });
});

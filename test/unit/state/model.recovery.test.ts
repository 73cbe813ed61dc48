import { describe, expect, it } from 'vitest';
import { ChatError } from '../../../src/api/errors';
import { collapseRetries } from '../../../src/state/exchange';
import { createTestModel } from '../../helpers/model';
import { question, storedReply } from '../../helpers/fake-client';

const setup = createTestModel;

type Model = ReturnType<typeof setup>['model'];
const shape = (model: Model) => model.messages.value.map((m) => [m.role, m.status, m.text]);
const serverError = () => new ChatError('http', 'HTTP 500', { status: 500, detail: 'Server Error' });
const apology = (id: string) => storedReply('Sorry, I could not answer.', { id, failed_responding: true });

describe('chat model: a 500 on send keeps the exchange the service stored', () => {
  it('shows the stored question and failed reply, with Retry, and keeps no text in the composer', async () => {
    const { model, state, events } = setup();
    state.refusals.push(serverError());
    state.listing = [question('q00000000001', 'my question'), apology('f00000000001')];
    model.setDraft('my question');
    await model.send();
    expect(state.calls).toEqual(['create', 'stream', 'latest']);
    expect(shape(model)).toEqual([
      ['user', 'done', 'my question'],
      ['assistant', 'failed', 'Sorry, I could not answer.'],
    ]);
    expect(model.messages.value.map((m) => m.id)).toEqual(['q00000000001', 'f00000000001']);
    expect([model.draft.value, model.failure.value, model.canRetryReply.value]).toEqual(['', undefined, true]);
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
  });

  it('retries by asking again, showing one question and the new reply in place of the failed one', async () => {
    const { model, state, reply } = setup();
    state.refusals.push(serverError());
    const first = question('q00000000001', 'my question');
    state.listing = [first, apology('f00000000001')];
    await model.send('my question');
    // The API has no "regenerate": asking again posts the question again, and the service holds it twice.
    state.listing = [first, apology('f00000000001'), question('q00000000002', 'my question'), storedReply('Fine now.')];
    reply('Fine now.');
    await model.retry();
    expect(state.sent).toEqual(['my question', 'my question']);
    expect(shape(model)).toEqual([
      ['user', 'done', 'my question'],
      ['assistant', 'done', 'Fine now.'],
    ]);
  });

  it('replaces the failed reply with the new stored one when the retry meets a 500 again', async () => {
    const { model, state } = setup();
    const first = question('q00000000001', 'my question');
    state.refusals.push(serverError(), serverError());
    state.listing = [first, apology('f00000000001')];
    await model.send('my question');
    state.listing = [first, apology('f00000000001'), question('q00000000002', 'my question'), apology('f00000000002')];
    await model.retry();
    expect(shape(model)).toEqual([
      ['user', 'done', 'my question'],
      ['assistant', 'failed', 'Sorry, I could not answer.'],
    ]);
    expect(model.messages.value.map((m) => m.id)).toEqual(['q00000000002', 'f00000000002']);
    expect(model.canRetryReply.value).toBe(true);
  });

  it('shows the stored question with a failed reply of its own when the service stored no reply', async () => {
    const { model, state } = setup();
    state.refusals.push(serverError());
    state.listing = [question('q00000000001', 'my question')];
    await model.send('my question');
    expect(shape(model)).toEqual([
      ['user', 'done', 'my question'],
      ['assistant', 'failed', ''],
    ]);
    expect(model.canRetryReply.value).toBe(true);
  });

  it.each([
    ['nothing stored', () => []],
    ['only an earlier, known exchange', () => [question('sent00000001', 'first'), storedReply('one')]],
    ['another question last', () => [question('q00000000009', 'something else')]],
  ])('falls back to giving the text back when listing finds %s', async (_, listing) => {
    const { model, state, reply } = setup();
    reply('one');
    await model.send('first');
    state.refusals.push(serverError());
    state.listing = listing();
    model.setDraft('second');
    await model.send();
    expect(shape(model).map((m) => m[2])).toEqual(['first', 'one']);
    expect([model.draft.value, model.failure.value?.error.status]).toEqual(['second', 500]);
  });

  it('does not list anything after a refusal that stores nothing (a 422, a 429, a 402)', async () => {
    const { model, state } = setup();
    state.refusals.push(new ChatError('http', 'HTTP 422', { status: 422, fields: ['content'] }));
    await model.send('q');
    expect(state.calls).toEqual(['create', 'stream']);
  });
});

describe('chat model: the right reply is recovered', () => {
  it('never takes an earlier failed reply for the reply to a question whose stream was cut', async () => {
    const { model, state, emit, chunk, fail } = setup();
    // A 500 whose exchange could not be read at the time: its failed reply is stored but was never shown.
    state.refusals.push(serverError());
    state.listing = [];
    await model.send('earlier question');
    state.listing = [
      question('q00000000001', 'earlier question'),
      apology('f00000000001'),
      question('q00000000002', 'new question'),
    ];
    emit({ type: 'start' });
    chunk('Half an ans');
    fail(new ChatError('stream', 'Cut'));
    await model.send('new question');
    expect(shape(model)).toEqual([
      ['user', 'done', 'new question'],
      ['assistant', 'failed', 'Half an ans'],
    ]);
    expect(model.canRetryReply.value).toBe(true);
  });

  it('recovers the reply stored after the question just asked, past an earlier failed reply', async () => {
    const { model, state, emit, fail } = setup();
    state.listing = [
      question('q00000000001', 'earlier'),
      apology('f00000000001'),
      question('q00000000002', 'now'),
      storedReply('The whole answer.', { id: 'r00000000002' }),
    ];
    emit({ type: 'start' });
    fail(new ChatError('stream', 'Cut'));
    await model.send('now');
    expect(shape(model)).toEqual([
      ['user', 'done', 'now'],
      ['assistant', 'done', 'The whole answer.'],
    ]);
  });
});

const q = (id: string, text = 'why?') => question(id, text);

describe('collapseRetries', () => {
  it('shows a retried question once, with the reply it finally got', () => {
    const list = [
      q('q1', 'hello'),
      storedReply('hi', { id: 'r1' }),
      q('q2'),
      apology('f2'),
      q('q3'),
      apology('f3'),
      q('q4'),
      storedReply('because', { id: 'r4' }),
      // Asked again on purpose after a good answer: both stay.
      q('q5'),
      storedReply('still because', { id: 'r5' }),
      // A question stored twice with no reply in between (a 500 that stored no reply, then Retry).
      q('q6', 'again'),
      q('q7', 'again'),
    ];
    expect(collapseRetries(list).map((m) => m.id)).toEqual(['q1', 'r1', 'q4', 'r4', 'q5', 'r5', 'q7']);
  });
});

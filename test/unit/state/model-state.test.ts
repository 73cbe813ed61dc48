import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { ChatError } from '../../../src/api/errors';
import { MAX_MESSAGE_LENGTH } from '../../../src/config/schema';
import { localMessage } from '../../../src/state/messages';
import { createModelState } from '../../../src/state/model-state';
import type { Failure } from '../../../src/state/status';

const ERROR = new ChatError('http', 'HTTP 500', { status: 500 });
const QUESTION = localMessage('user', 'Hi', 'done');
const FAILED_REPLY = localMessage('assistant', 'Sorry', 'failed');

/** A model state that failed with `failure` after a send. */
function failedWith(failure: Failure) {
  const state = createModelState(signal(true));
  state.go('send');
  state.go('fail', failure);
  return state;
}

describe('the model state: what the status lets the visitor do', () => {
  it('shows the typing dots until the reply’s first text', () => {
    const state = createModelState(signal(true));
    expect(state.silent.value).toBe(true);
    state.streaming.value = 'Hel';
    expect(state.silent.value).toBe(false);
    state.streaming.value = '';
    expect(state.silent.value).toBe(true);
  });

  it('empties the short note when a reply completes', () => {
    const state = createModelState(signal(true));
    state.note.value = 'Copied';
    state.announcement.value = FAILED_REPLY;
    expect(state.note.value).toBe('');
  });

  it('lets a draft go only while at rest, neither blank nor over the limit', () => {
    const state = createModelState(signal(true));
    expect(state.canSend.value).toBe(false);
    state.draft.value = '  \n ';
    expect(state.canSend.value).toBe(false);
    state.draft.value = 'x'.repeat(MAX_MESSAGE_LENGTH);
    expect(state.canSend.value).toBe(true);
    state.draft.value = 'x'.repeat(MAX_MESSAGE_LENGTH + 1);
    expect(state.canSend.value).toBe(false);
    state.draft.value = 'Hi';
    state.go('send');
    expect([state.busy.value, state.canSend.value]).toEqual([true, false]);
  });

  it('offers Retry for a failed last reply, unless busy, held back or waiting for a reload', () => {
    const state = failedWith({ can: 'none', error: ERROR });
    expect(state.canRetryReply.value).toBe(false);
    state.messages.value = [QUESTION, FAILED_REPLY];
    expect(state.canRetryReply.value).toBe(true);
    state.go('send');
    expect(state.canRetryReply.value).toBe(false);

    const waiting = failedWith({ can: 'wait', until: Date.now() + 60_000, error: ERROR });
    waiting.messages.value = [QUESTION, FAILED_REPLY];
    expect([waiting.held.value, waiting.canRetryReply.value]).toEqual([true, false]);

    const reload = failedWith({ can: 'reload', error: ERROR });
    reload.messages.value = [QUESTION, FAILED_REPLY];
    expect([reload.held.value, reload.canRetryReply.value]).toEqual([false, false]);
    reload.go('dismiss');
    expect(reload.canRetryReply.value).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import type { ApiMessage } from '../../../src/api/types';
import { collapseRetries, findExchange } from '../../../src/state/exchange';

/** A stored message: `q:` the visitor's, `r:` a reply, `x:` a failed reply; then its id and text. */
function stored(spec: string): ApiMessage {
  const [kind, id, content = ''] = spec.split(':') as [string, string, string?];
  return {
    id,
    content,
    machine: kind !== 'q',
    failed_responding: kind === 'x',
    flagged: false,
    created_at: 0,
    sources: [],
  };
}
const list = (...specs: string[]) => specs.map(stored);
const ids = (messages: readonly ApiMessage[] | undefined) => messages?.map((m) => m.id);

describe('the exchange of the question just asked', () => {
  it.each([
    ['the last question and the reply after it', list('q:q1:Hi', 'r:r1:Hello', 'q:q2:Price?', 'r:r2:5'), [], 'q2 r2'],
    ['the question alone, while no reply is stored', list('q:q1:Hi', 'r:r1:Hello', 'q:q2:Price?'), [], 'q2 -'],
    ['the question with the spaces the service kept around it', list('q:q2:  Price?\n'), [], 'q2 -'],
    ['the first reply after it the widget does not know', list('q:q2:Price?', 'x:r1:Sorry', 'r:r2:5'), ['r1'], 'q2 r2'],
    ['never a reply that came before it', list('r:r0:Welcome', 'q:q2:Price?'), [], 'q2 -'],
  ])('finds %s', (_title, messages, known, expected) => {
    const found = findExchange(messages, 'Price?', new Set(known));
    expect(`${found?.question.id} ${found?.reply?.id ?? '-'}`).toBe(expected);
  });

  it.each([
    ['the list is empty', list(), []],
    ['only replies are stored', list('r:r1:Hello'), []],
    ['the last question is another text', list('q:q1:Price?', 'q:q2:Shipping?'), []],
    ['the widget knows the last question already', list('q:q2:Price?', 'r:r2:5'), ['q2']],
  ])('finds nothing when %s', (_title, messages, known) => {
    expect(findExchange(messages, 'Price?', new Set(known))).toBeUndefined();
  });
});

describe('the history as the visitor saw it', () => {
  it.each([
    ['a question asked again after a failed reply shows once', ['q:a:Hi', 'x:f:Sorry', 'q:b:Hi', 'r:c:Hello'], 'b c'],
    ['so does the first question of a conversation', ['q:a:Hi', 'x:f:Sorry', 'q:b:Hi'], 'b'],
    ['a retry after several failed replies too', ['q:a:Hi', 'x:f:Sorry', 'x:g:Sorry', 'q:b:Hi', 'r:c:Hi'], 'b c'],
    ['a question asked again after an answer is kept twice', ['q:a:Hi', 'r:r:Hello', 'q:b:Hi', 'r:c:Hello'], 'a r b c'],
    ['another question after a failed reply is kept', ['q:a:Hi', 'x:f:Sorry', 'q:b:Price?'], 'a f b'],
    ['replies with the same text are all kept', ['q:a:Hi', 'x:f:Sorry', 'x:g:Sorry'], 'a f g'],
    ['a question asked twice in a row is shown once', ['q:a:Hi', 'q:b:Hi', 'r:c:Hello'], 'b c'],
  ])('%s', (_title, specs, expected) => {
    expect(ids(collapseRetries(list(...specs)))?.join(' ')).toBe(expected);
  });
});

import { batch } from '@preact/signals';
import { toChatError } from '../api/errors.js';
import { collapseRetries } from './exchange.js';
import { toChatMessage } from './messages.js';
import type { SendingDeps } from './sending.js';
import { IDLE } from './status.js';

/** What loading the history reads and writes: the model's context (see `SendingDeps`). */
export type HistoryDeps = Pick<
  SendingDeps,
  'client' | 'session' | 'conversations' | 'thread' | 'status' | 'runs' | 'fail'
>;

/**
 * The stored conversation's history: read once, when the panel first opens or the first message is sent, and
 * again for a conversation resumed. `loaded` is also set when there is nothing earlier to read (a conversation just
 * created, or brought back by Undo).
 */
export function createHistory({ client, session, conversations, thread, status, runs, fail }: HistoryDeps) {
  const history = {
    loaded: false,
    async load(): Promise<void> {
      // Without a stored conversation there is nothing to load; reading the session again later costs nothing.
      const stored = session.current();
      if (!stored) return;
      const run = runs.begin();
      status.value = { type: 'loading' };
      try {
        const list = await client.listAllMessages(stored, run.signal);
        if (!run.live()) return;
        history.loaded = true;
        batch(() => {
          thread.value = collapseRetries(list).map(toChatMessage);
          status.value = IDLE;
        });
      } catch (caught) {
        if (!run.live()) return;
        const err = toChatError(caught, run.signal);
        if (err.kind === 'not_found' || err.status === 401 || err.status === 422) {
          // Deleted upstream, or its grant expired or is not this visitor's: start afresh rather than show an error.
          conversations.drop(stored.id);
          session.forget();
          status.value = IDLE;
        } else if (err.kind === 'aborted') {
          status.value = IDLE;
        } else {
          fail(err, 'reload');
        }
      }
    },
  };
  return history;
}

import { batch } from '@preact/signals';
import type { ChatClient } from '../api/client.js';
import { toChatError } from '../api/errors.js';
import type { Conversations } from './conversations.js';
import { collapseRetries } from './exchange.js';
import type { Fail } from './fail.js';
import { createMachine, type Transitions } from './machine.js';
import { toChatMessage } from './messages.js';
import type { ModelState } from './model-state.js';
import type { Runs } from './runs.js';
import type { Session } from './session.js';

/** Whether the conversation shown still has stored history to read before it is whole. */
export type HistoryState = 'unread' | 'read';

/**
 * What tells the history apart: its read succeeded (`fetched`); a conversation was created here (`created`) or
 * brought back by Undo (`restored`), so there is nothing earlier to read; an earlier conversation is shown
 * (`resumed`), whose history is still to read.
 */
export type HistoryEvent = 'fetched' | 'created' | 'restored' | 'resumed';

/**
 * The history's transitions. A read is started only for an unread history, so `fetched` comes only from `unread`;
 * a conversation created or restored is whole, and one resumed has its history to read, from either state.
 */
export const HISTORY_TRANSITIONS: Transitions<HistoryState, HistoryEvent> = {
  unread: { fetched: 'read', created: 'read', restored: 'read', resumed: 'unread' },
  read: { created: 'read', restored: 'read', resumed: 'unread' },
};

interface HistoryDeps {
  client: ChatClient;
  session: Session;
  conversations: Conversations;
  runs: Runs;
  fail: Fail;
  state: ModelState;
}

/**
 * The stored conversation's history: read once, when the panel first opens or the first message is sent, and
 * again for a conversation resumed. It counts as read also when there is nothing earlier to read (a conversation
 * just created, or brought back by Undo).
 */
export function createHistory({ client, session, conversations, runs, fail, state }: HistoryDeps) {
  const machine = createMachine(HISTORY_TRANSITIONS, 'unread');
  return {
    /** Whether the history is read: nothing earlier is left to load. */
    get loaded() {
      return machine.state.value === 'read';
    },
    /** Moves the history on `event` (see `HISTORY_TRANSITIONS`): its one writer. */
    go: machine.go,
    async load(): Promise<void> {
      // Without a stored conversation there is nothing to load; reading the session again later costs nothing.
      const stored = session.current();
      if (!stored) return;
      const run = runs.begin();
      state.go('load');
      try {
        const list = await client.listAllMessages(stored, run.signal);
        if (!run.live()) return;
        machine.go('fetched');
        batch(() => {
          state.messages.value = collapseRetries(list).map(toChatMessage);
          state.go('done');
        });
      } catch (caught) {
        if (!run.live()) return;
        const err = toChatError(caught, run.signal);
        if (err.kind === 'not_found' || err.status === 401 || err.status === 422) {
          // Deleted upstream, or its grant expired or is not this visitor's: start afresh rather than show an error.
          conversations.drop(stored.id);
          session.forget();
          state.go('done');
        } else if (err.kind === 'aborted') {
          state.go('done');
        } else {
          fail(err, 'reload');
        }
      }
    },
  };
}

/** A model's history. */
export type History = ReturnType<typeof createHistory>;

import { signal } from '@preact/signals';
import type { ChatClient } from '../api/client.js';
import type { ApiConversation } from '../api/types.js';
import { titleOf, toTitle, type Conversations, type Earlier, type ListState } from './conversations.js';
import { createMachine, type Transitions } from './machine.js';

/** What moves a signed-in person's list: a read is asked for (`load`), and the proxy answered (`fetched`) or not. */
export type ListEvent = 'load' | 'fetched' | 'failed';

/**
 * The list's transitions. It is read each time it is shown (a conversation started
 * on another device then appears) or retried after a failure; a read on its way is not asked for twice, and only a
 * read on its way ends fetched or failed.
 */
export const LIST_TRANSITIONS: Transitions<ListState, ListEvent> = {
  unread: { load: 'loading' },
  loading: { fetched: 'read', failed: 'failed' },
  read: { load: 'loading' },
  failed: { load: 'loading' },
};

/** What the proxy lists, what this chat knows, and the site's name for its conversations (`titleOf`). */
interface Joined {
  listed: readonly ApiConversation[];
  known: readonly Earlier[];
  site: string;
}

/**
 * The proxy's list as the panel shows it: the proxy's is the whole list (a conversation deleted on another device is
 * gone), joined with what this chat knows: a conversation used here keeps its first question as title and its last
 * activity; one from another device is titled with the question in its name. Newest activity first.
 */
function join({ listed, known, site }: Joined): Earlier[] {
  const byId = new Map(known.map((entry) => [entry.id, entry]));
  return listed
    .map(({ id, grant, name, createdAt }): Earlier => {
      const here = byId.get(id);
      return { id, grant, title: here?.title ?? titleOf(site, name), at: here?.at ?? createdAt };
    })
    .sort((a, b) => b.at - a.at);
}

interface PersonListDeps {
  client: ChatClient;
  /** The site's name for its conversations (`data-conversation-name`), which starts each one's name. */
  conversationName: string;
  now?: () => number;
}

/**
 * A signed-in person's conversations: read from the proxy (`GET /conversations`, each with a fresh grant for them),
 * never from or to this browser's storage, so that the same list is theirs on every device and nothing of it stays
 * here after logout. A conversation used here joins it at once; the proxy lists it from then on.
 */
export function createPersonList({ client, conversationName, now = Date.now }: PersonListDeps): Conversations {
  const list = signal<readonly Earlier[]>([]);
  const machine = createMachine(LIST_TRANSITIONS, 'unread');
  const shown = signal(false);
  const load = () => {
    if (!machine.go('load')) return;
    client.listConversations().then(
      (listed) => {
        list.value = join({ listed, known: list.peek(), site: conversationName });
        machine.go('fetched');
      },
      () => void machine.go('failed'),
    );
  };
  return {
    shown,
    show: (on) => {
      shown.value = on;
      if (on) load();
    },
    all: () => list.value,
    touch: ({ id, grant }, question) => {
      const others = list.peek().filter((entry) => entry.id !== id);
      const title = list.peek().find((entry) => entry.id === id)?.title ?? toTitle(question);
      list.value = [{ id, grant, title, at: now() }, ...others];
    },
    drop: (id) => {
      list.value = list.peek().filter((entry) => entry.id !== id);
    },
    state: machine.state,
    reload: load,
  };
}

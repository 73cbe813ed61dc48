import { signal } from '@preact/signals';
import type { ChatClient } from '../api/client.js';
import type { ConversationRef } from '../api/types.js';

/** Where deleting the conversation stands: asked to confirm, on its way, or refused by the service. */
export type RemovalState = 'idle' | 'confirm' | 'deleting' | 'failed';

interface Deps {
  client: ChatClient;
  conversation: () => ConversationRef | undefined;
  /** Empties the panel and storage, with no Undo. */
  discard: () => void;
}

/**
 * "Delete this conversation": asked, confirmed, then deleted at the service through the proxy. Only once the
 * service has deleted it is it cleared here; a refusal leaves everything in place and says so.
 */
export function createRemoval({ client, conversation, discard }: Deps) {
  const state = signal<RemovalState>('idle');
  return {
    state,
    ask: () => void (state.value = 'confirm'),
    cancel: () => void (state.value = 'idle'),
    /** Deletes the conversation; resolves whether it is gone. */
    async confirm(): Promise<boolean> {
      const held = conversation();
      state.value = 'deleting';
      try {
        // Nothing stored at the service (every message failed before it took one): there is nothing to delete there.
        if (held) await client.deleteConversation(held);
      } catch {
        state.value = 'failed';
        return false;
      }
      discard();
      state.value = 'idle';
      return true;
    },
  };
}

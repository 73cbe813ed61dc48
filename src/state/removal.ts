import type { ChatClient } from '../api/client.js';
import type { ConversationRef } from '../api/types.js';
import { createMachine, type Transitions } from './machine.js';

/** Where deleting the conversation stands: asked to confirm, on its way, or refused by the service. */
export type RemovalState = 'idle' | 'confirm' | 'deleting' | 'failed';

/**
 * What moves it: the visitor asks to delete (`ask`), takes it back (`cancel`) or confirms (`confirm`); the service
 * deleted the conversation (`deleted`) or refused (`refused`).
 */
export type RemovalEvent = 'ask' | 'cancel' | 'confirm' | 'deleted' | 'refused';

/**
 * The removal's transitions. The question can be asked from anywhere but while the delete is on its way, and
 * confirmed whenever it is not on its way (a page may confirm without asking; a refused delete can be tried
 * again). Only a delete on its way ends deleted or refused: cancelled meanwhile, its refusal is not shown.
 */
export const REMOVAL_TRANSITIONS: Transitions<RemovalState, RemovalEvent> = {
  idle: { ask: 'confirm', confirm: 'deleting' },
  confirm: { ask: 'confirm', cancel: 'idle', confirm: 'deleting' },
  deleting: { cancel: 'idle', deleted: 'idle', refused: 'failed' },
  failed: { ask: 'confirm', cancel: 'idle', confirm: 'deleting' },
};

interface RemovalDeps {
  client: ChatClient;
  conversation: () => ConversationRef | undefined;
  /** Empties the panel and storage, with no Undo. */
  discard: () => void;
}

/**
 * "Delete this conversation": asked, confirmed, then deleted at the service through the proxy. Only once the
 * service has deleted it is it cleared here; a refusal leaves everything in place and says so.
 */
export function createRemoval({ client, conversation, discard }: RemovalDeps) {
  const { state, go } = createMachine(REMOVAL_TRANSITIONS, 'idle');
  return {
    state,
    ask: () => void go('ask'),
    cancel: () => void go('cancel'),
    /** Deletes the conversation; resolves whether it is gone (false at once while a delete is on its way). */
    async confirm(): Promise<boolean> {
      if (!go('confirm')) return false;
      const held = conversation();
      try {
        // Nothing stored at the service (every message failed before it took one): there is nothing to delete there.
        if (held) await client.deleteConversation(held);
      } catch {
        go('refused');
        return false;
      }
      discard();
      go('deleted');
      return true;
    },
  };
}

/**
 * Where one send is:
 * - `sending`: the message is on its way (first, if the connection lost it, what the service stored is read back:
 *   it may have reached it);
 * - `accepted`: the service took it (the visitor's bubble is sent, a failed reply asked again for goes);
 * - `streaming`: its reply is arriving;
 * - `committed`: the reply is shown, as the service stored it when that can be read;
 * - `read-back`: the send or its stream broke, but the service had stored the exchange, which is shown as stored;
 * - `failed`: the failure is shown (a reply that broke off stays, failed, with its Retry);
 * - `waiting`: the connection was lost: the message (pending, if the service had not taken it) or its cut reply
 *   waits for the connection's return, to be read back or sent again;
 * - `stopped`: the visitor stopped it (what arrived of the reply is kept).
 */
export type SendPhase =
  | 'sending'
  | 'accepted'
  | 'streaming'
  | 'committed'
  | 'read-back'
  | 'failed'
  | 'waiting'
  | 'stopped';

/**
 * A send's transitions: the phases each phase may move to. Until the service accepts, a failure may still have
 * stored the exchange (read back), a lost connection waits, anything else fails; once accepted, the reply streams
 * and ends committed, read back, failed, waiting or stopped. Those five end the send (they move nowhere, so
 * they are not listed): Retry, or the connection's return, starts a new one.
 */
export const SEND_TRANSITIONS: Readonly<Partial<Record<SendPhase, readonly SendPhase[]>>> = {
  sending: ['accepted', 'read-back', 'failed', 'waiting', 'stopped'],
  accepted: ['streaming'],
  streaming: ['committed', 'read-back', 'failed', 'waiting', 'stopped'],
};

/** One send's place in `SEND_TRANSITIONS`: the model's send code moves only through `go`. */
export interface SendFlow {
  readonly phase: SendPhase;
  /**
   * Moves to `to` if the table allows it and the send is still `live` (no new conversation has made it stale);
   * whether it did, so the caller writes state only then.
   */
  go(to: SendPhase): boolean;
}

/** A new send, `sending`; `live` says whether its results may still be shown. */
export function createSendFlow(live: () => boolean): SendFlow {
  let phase: SendPhase = 'sending';
  return {
    get phase() {
      return phase;
    },
    go(to) {
      if (!live() || !SEND_TRANSITIONS[phase]?.includes(to)) return false;
      phase = to;
      return true;
    },
  };
}

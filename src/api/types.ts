/**
 * What the widget reads of the Cody v1 API (shared/cody-api.md §2), as `parse.ts` returns it: checked and
 * normalised, so nothing past the API boundary trusts the network's shapes.
 */

/** A conversation as the widget holds it: its id and the proxy's grant for it, which every call about it carries. */
export interface ConversationRef {
  id: string;
  /** SECURITY: the grant is what makes the conversation this visitor's; the id alone opens nothing. */
  grant: string;
}

/** One of a signed-in person's conversations, as the proxy lists them (`GET /conversations`), with a fresh grant. */
export interface ApiConversation extends ConversationRef {
  name: string;
  /** When it was created, in ms since the epoch. */
  createdAt: number;
}

/** A document a reply drew on; the service leaves any field out at times, so each may be undefined. */
export interface ApiSource {
  document_id?: string | undefined;
  document_name?: string | undefined;
  document_url?: string | undefined;
}

/** A stored message. */
export interface ApiMessage {
  id: string;
  /** The text; for a failed reply, the service's error text; empty when the service sent none. */
  content: string;
  /** True for the bot's replies, false for the visitor's messages. */
  machine: boolean;
  failed_responding: boolean;
  flagged: boolean;
  /** Unix seconds. */
  created_at: number;
  /** Always an array, though the service sends an array, one object or nothing (`includes=sources`). */
  sources: ApiSource[];
}

/** One page of `GET /messages`. */
export interface ApiMessagePage {
  messages: ApiMessage[];
  /** How many records were dropped as malformed. */
  dropped: number;
  /** At least 1. */
  totalPages: number;
  /** The next page's number, when the service names one. */
  nextPage: number | undefined;
}

/** One event of a reply stream, after the `[START]` / `{"chunk"}` / `[END]` framing is decoded. */
export type StreamEvent = { type: 'start' } | { type: 'chunk'; text: string } | { type: 'end' };

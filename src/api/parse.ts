import { ChatError } from './errors.js';
import type { ApiConversation, ApiMessage, ApiMessagePage, ApiSource, ConversationRef } from './types.js';

/**
 * The API boundary: every body the widget reads from the network passes through one of these parsers, which
 * check its shape and return the types of `types.ts`, or throw a `ChatError('http')`. Nothing is cast: strings are
 * strings and ids bounded strings, so rendering never meets a value that throws.
 * Keys the widget does not read are ignored: the service may add fields.
 */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** SECURITY: own keys only, so a host page that polluted `Object.prototype` cannot supply a missing field. */
export function own(value: unknown, key: string): unknown {
  return isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const malformed = (what: string) => new ChatError('http', `The proxy sent ${what}`);

/** The longest id kept: the service's are 12 characters; anything much longer is not an id. */
const MESSAGE_ID = /^[\x21-\x7e]{1,64}$/;

/**
 * A message, or undefined when it lacks a usable id, author or time (they decide what is shown and in which order).
 * Every other field is coerced: text that is not a string reads as empty, a flag that is not `true` as false.
 */
export function parseMessage(value: unknown): ApiMessage | undefined {
  const id = own(value, 'id');
  const machine = own(value, 'machine');
  const createdAt = own(value, 'created_at');
  // A number id is still an id; anything else (an object with `toString: null`…) would throw where it is used.
  const key = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : text(id);
  if (!key || !MESSAGE_ID.test(key) || typeof machine !== 'boolean') return undefined;
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) return undefined;
  return {
    id: key,
    content: text(own(value, 'content')) ?? '',
    machine,
    failed_responding: own(value, 'failed_responding') === true,
    flagged: own(value, 'flagged') === true,
    created_at: createdAt,
    sources: parseSources(own(value, 'sources')),
  };
}

/** `sources` is `{data: [...]}`, in one documented example `{data: {...}}`, or absent; always an array here. */
function parseSources(value: unknown): ApiSource[] {
  const data = own(value, 'data');
  const items: unknown[] = Array.isArray(data) ? data : isRecord(data) ? [data] : [];
  return items.filter(isRecord).map((item) => ({
    document_id: text(own(item, 'document_id')),
    document_name: text(own(item, 'document_name')),
    document_url: text(own(item, 'document_url')),
  }));
}

/**
 * A page of `GET /messages`: `{data: Message[], meta?: {pagination?: {total_pages, next_page}}}`. A record that is
 * not a usable message is dropped and counted, so one bad record costs itself, not the history.
 */
export function parseMessagePage(body: unknown): ApiMessagePage {
  const data = own(body, 'data');
  if (!Array.isArray(data)) throw malformed('a message list without its data');
  const pagination = own(own(body, 'meta'), 'pagination');
  const messages = data.flatMap((item) => parseMessage(item) ?? []);
  return {
    messages,
    dropped: data.length - messages.length,
    totalPages: pageNumber(own(pagination, 'total_pages')) ?? 1,
    nextPage: pageNumber(own(pagination, 'next_page')),
  };
}

function pageNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : undefined;
}

/** Conversation ids are short tokens; the widget puts them in URLs, so nothing else is accepted. */
const CONVERSATION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A grant travels in a request header: visible ASCII only (a control character would make fetch throw), bounded. */
const GRANT = /^[\x21-\x7e]{1,4096}$/;

/** `{id, grant}` (as the widget stores it): a conversation id and a non-empty grant, or undefined. */
export function parseConversationRef(value: unknown): ConversationRef | undefined {
  const id = text(own(value, 'id'));
  const grant = text(own(value, 'grant'));
  return id !== undefined && CONVERSATION_ID.test(id) && grant && GRANT.test(grant) ? { id, grant } : undefined;
}

/** The proxy's answer to `POST /conversations`: `{data: {id}, meta: {grant}}`. */
export function parseCreatedConversation(body: unknown): ConversationRef {
  const created = parseConversationRef({ id: own(own(body, 'data'), 'id'), grant: own(own(body, 'meta'), 'grant') });
  // SECURITY: a proxy that grants nothing leaves the widget with nothing it could use.
  if (!created) throw malformed('no grant for the new conversation');
  return created;
}

/** The longest conversation name kept: the list shows a line of it. */
const MAX_NAME = 200;

/**
 * The proxy's answer to `GET /conversations`, a signed-in person's list: `{data: [{id, name, bot_id, created_at,
 * grant}]}`, `created_at` an ISO time. An entry without a usable id, grant or time is dropped, so one bad record costs
 * itself, not the list; a name that is not a string reads as empty.
 */
export function parseConversationList(body: unknown): ApiConversation[] {
  const data = own(body, 'data');
  if (!Array.isArray(data)) throw malformed('a conversation list without its data');
  return data.flatMap((item: unknown) => {
    const ref = parseConversationRef(item);
    const createdAt = Date.parse(text(own(item, 'created_at')) ?? '');
    if (!ref || !Number.isFinite(createdAt)) return [];
    return [{ ...ref, name: (text(own(item, 'name')) ?? '').slice(0, MAX_NAME), createdAt }];
  });
}

/** The service's answer to `DELETE /conversations/{id}`: `{data: true}`; anything else is no deletion. */
export function parseDeleted(body: unknown): void {
  if (own(body, 'data') !== true) throw malformed('no confirmation of the deletion');
}

/** The proxy's answer to `POST /feedback`: `{data: {message_id, …}}` naming the rated reply. */
export function parseFeedbackTaken(body: unknown, messageId: string): void {
  if (own(own(body, 'data'), 'message_id') !== messageId) throw malformed('no receipt for the feedback');
}

const MAX_DETAIL = 500;

/** The service's error envelope `{message, errors?}`: its text for people, and the fields a 422 names. */
export function parseErrorBody(body: unknown): { detail: string | undefined; fields: string[] } {
  const errors = own(body, 'errors');
  // The text may be shown to the visitor (a 422's rule): a runaway body is cut to a sentence's length.
  return {
    detail: text(own(body, 'message'))?.slice(0, MAX_DETAIL),
    fields: isRecord(errors) ? Object.keys(errors) : [],
  };
}

/** The text of a stream event's `{"chunk": "…"}`; undefined for any other JSON, which is not ours to fail on. */
export function parseChunk(value: unknown): string | undefined {
  return text(own(value, 'chunk'));
}

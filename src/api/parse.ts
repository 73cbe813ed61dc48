import { ChatError } from './errors.js';
import type { ApiMessage, ApiMessagePage, ApiSource, ConversationRef } from './types.js';

/**
 * The API boundary: every body the widget reads from the network passes through one of these parsers, which
 * check its shape and return the types of `types.ts`, or throw a `ChatError('http')`. Nothing is cast.
 * Keys the widget does not read are ignored: the service may add fields.
 */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** SECURITY: own keys only, so a host page that polluted `Object.prototype` cannot supply a missing field. */
function own(value: unknown, key: string): unknown {
  return isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const malformed = (what: string) => new ChatError('http', `The proxy sent ${what}`);

/** A message; its id, author and time are required, as they decide what is shown and in which order. */
export function parseMessage(value: unknown): ApiMessage {
  if (!isRecord(value)) throw malformed('a message that is not an object');
  const id = own(value, 'id');
  const machine = own(value, 'machine');
  const createdAt = own(value, 'created_at');
  if (typeof id !== 'string' || !id) throw malformed('a message without an id');
  if (typeof machine !== 'boolean') throw malformed('a message without its author');
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) throw malformed('a message without a time');
  return {
    id,
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

/** A page of `GET /messages`: `{data: Message[], meta?: {pagination?: {total_pages, next_page}}}`. */
export function parseMessagePage(body: unknown): ApiMessagePage {
  const data = own(body, 'data');
  if (!Array.isArray(data)) throw malformed('a message list without its data');
  const pagination = own(own(body, 'meta'), 'pagination');
  return {
    messages: data.map(parseMessage),
    totalPages: pageNumber(own(pagination, 'total_pages')) ?? 1,
    nextPage: pageNumber(own(pagination, 'next_page')),
  };
}

function pageNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : undefined;
}

/** Conversation ids are short tokens; the widget puts them in URLs, so nothing else is accepted. */
const CONVERSATION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `{id, grant}` (as the widget stores it): a conversation id and a non-empty grant, or undefined. */
export function parseConversationRef(value: unknown): ConversationRef | undefined {
  const id = text(own(value, 'id'));
  const grant = text(own(value, 'grant'));
  return id !== undefined && CONVERSATION_ID.test(id) && grant ? { id, grant } : undefined;
}

/** The proxy's answer to `POST /conversations`: `{data: {id}, meta: {grant}}`. */
export function parseCreatedConversation(body: unknown): ConversationRef {
  const created = parseConversationRef({ id: own(own(body, 'data'), 'id'), grant: own(own(body, 'meta'), 'grant') });
  // SECURITY: a proxy that grants nothing leaves the widget with nothing it could use.
  if (!created) throw malformed('no grant for the new conversation');
  return created;
}

/** The service's error envelope `{message, errors?}`: its text for people, and the fields a 422 names. */
export function parseErrorBody(body: unknown): { detail: string | undefined; fields: string[] } {
  const errors = own(body, 'errors');
  return { detail: text(own(body, 'message')), fields: isRecord(errors) ? Object.keys(errors) : [] };
}

/** The text of a stream event's `{"chunk": "…"}`; undefined for any other JSON, which is not ours to fail on. */
export function parseChunk(value: unknown): string | undefined {
  return text(own(value, 'chunk'));
}

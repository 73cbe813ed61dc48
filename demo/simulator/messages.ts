import { answer } from './knowledge';
import type { ScenarioReply } from './scenario';
import type { Document, StoredMessage } from './store';

/** The text a failed reply stores (`failed_responding: true`), as the docs describe for the 500 path. */
export const FAILED_REPLY_TEXT = "Sorry, I couldn't generate a response right now. Please try again in a moment.";

/** A reply the simulator has decided on, before it is stored or streamed. */
export interface PlannedReply {
  text: string;
  sourceIds: string[];
  flagged: boolean;
  failed: boolean;
}

/** Decides the reply to `question` from the scenario entry, falling back to the knowledge base. */
export function planReply(question: string, script: ScenarioReply, documents: readonly Document[]): PlannedReply {
  const failed = script.failedResponding === true || script.status === 500;
  const kb = answer(question, documents);
  const sourceIds = script.sources
    ? script.sources.flatMap((key) => documents.filter((d) => d.id === key || d.name === key).map((d) => d.id))
    : kb.sourceIds;
  return {
    text: failed ? (script.text ?? FAILED_REPLY_TEXT) : (script.text ?? kb.text),
    sourceIds: failed ? [] : sourceIds,
    flagged: script.flagged === true,
    failed,
  };
}

/** Rough token count for `usage`: about four characters a token. */
export const estimateTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/** Serialises a stored message with the requested `includes` (`sources`, `usage`). */
export function toApiMessage(
  message: StoredMessage,
  includes: ReadonlySet<string>,
  documents: readonly Document[],
  origin: string,
  basePath: string,
) {
  const out: Record<string, unknown> = {
    id: message.id,
    content: message.content,
    conversation_id: message.conversation_id,
    machine: message.machine,
    failed_responding: message.failed_responding,
    flagged: message.flagged,
    created_at: message.created_at,
  };
  if (includes.has('sources')) {
    out.sources = {
      data: message.source_ids.flatMap((id) => {
        const doc = documents.find((d) => d.id === id);
        return doc
          ? [
              {
                type: 'written',
                document_id: doc.id,
                document_name: doc.name,
                document_url: `${origin}${basePath}/documents/${doc.id}`,
                created_at: doc.created_at,
              },
            ]
          : [];
      }),
    };
  }
  if (includes.has('usage')) out.usage = { tokens: message.tokens, credits: message.machine ? 1 : 0 };
  return out;
}

/** Parses the `includes` CSV; unknown values are ignored. */
export function parseIncludes(query: URLSearchParams): Set<string> {
  return new Set(
    (query.get('includes') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

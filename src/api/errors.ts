import { LIMIT_NOUNS } from '../protocol/contract.js';

/** What went wrong, coarse enough for the UI to pick a sentence and decide whether to offer a retry. */
export type ChatErrorKind =
  | 'config'
  | 'auth'
  | 'network'
  | 'http'
  | 'rate_limit'
  | 'quota'
  | 'not_found'
  | 'stream'
  | 'aborted';

const RETRYABLE: ReadonlySet<ChatErrorKind> = new Set(['network', 'http', 'rate_limit', 'stream']);

/** The one error type the API layer throws; every failure is mapped to it exactly once. */
export class ChatError extends Error {
  // `declare`: set once in the constructor, not defined as undefined first (the bundle's bytes).
  override readonly name = 'ChatError';
  declare readonly kind: ChatErrorKind;
  declare readonly status: number | undefined;
  /** The service's own `message` (e.g. the 402 quota text or a 422 rule), safe to show as plain text. */
  declare readonly detail: string | undefined;
  /** The input fields a 422 names (the keys of its `errors`). */
  declare readonly fields: readonly string[];
  /** Seconds to wait before trying again, from a 429's `Retry-After`. */
  declare readonly retryAfter: number | undefined;
  /**
   * The answer came from a server that is not the Askbox proxy (see `notProxyError`): the site's `data-proxy-url`
   * points at the wrong place. The message says what came back.
   */
  declare readonly notProxy: boolean;
  declare readonly retryable: boolean;

  constructor(
    kind: ChatErrorKind,
    message: string,
    options: {
      status?: number;
      detail?: string;
      fields?: readonly string[];
      retryAfter?: number | undefined;
      notProxy?: boolean;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.detail = options.detail;
    this.fields = options.fields ?? [];
    this.retryAfter = options.retryAfter;
    this.notProxy = options.notProxy === true;
    this.retryable = RETRYABLE.has(kind) && options.status !== 422;
  }
}

/**
 * Whether a 429 is the Askbox proxy's limit on new conversations rather than on messages: its message names the
 * contract's noun for it (src/protocol/contract.ts, the same in every runtime).
 */
export function isConversationLimit(error: ChatError): boolean {
  return error.kind === 'rate_limit' && Boolean(error.detail?.includes(LIMIT_NOUNS.conversation));
}

/** Type guard for `ChatError`. */
export function isChatError(value: unknown): value is ChatError {
  return value instanceof ChatError;
}

/** Maps an HTTP status to an error kind (cody-api.md §3). */
export function kindForStatus(status: number): ChatErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 402) return 'quota';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 429) return 'rate_limit';
  return 'http';
}

/** `Retry-After` in whole seconds from now: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  // An HTTP date starts with the day's name; anything else (a negative or fractional number) is unreadable.
  const date = /^[A-Za-z]/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The error for an answer that is not the Askbox proxy's (a static site's 404 page, a host's 501 for a POST, an
 * app's HTML fallback), naming its status and content type for the console: `answered 404 text/html, not the Askbox
 * proxy`. Its kind is `http`, whatever the status: a stranger's 404 says nothing about the conversation.
 */
export function notProxyError(response: Response): ChatError {
  const type = response.headers.get('content-type')?.split(';')[0]?.trim() || 'without a content type';
  return new ChatError('http', `answered ${response.status} ${type}, not the Askbox proxy`, {
    status: response.status,
    notProxy: true,
  });
}

/** Maps anything thrown by fetch or a stream read to a ChatError. */
export function toChatError(error: unknown, signal?: AbortSignal): ChatError {
  if (isChatError(error)) return error;
  if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) {
    return new ChatError('aborted', 'Aborted', { cause: error });
  }
  return new ChatError('network', error instanceof Error ? error.message : 'Network error', { cause: error });
}

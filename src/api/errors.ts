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
  override readonly name = 'ChatError';
  readonly kind: ChatErrorKind;
  readonly status: number | undefined;
  /** The service's own `message` (e.g. the 402 quota text or a 422 rule), safe to show as plain text. */
  readonly detail: string | undefined;
  /** The input fields a 422 names (the keys of its `errors`). */
  readonly fields: readonly string[];
  readonly retryable: boolean;

  constructor(kind: ChatErrorKind, message: string, options: { status?: number; detail?: string; fields?: readonly string[]; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.detail = options.detail;
    this.fields = options.fields ?? [];
    this.retryable = RETRYABLE.has(kind) && options.status !== 422;
  }
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

/** Turns a non-2xx response into a ChatError, reading the service's `{message}` body when there is one. */
export async function toHttpError(response: Response): Promise<ChatError> {
  let detail: string | undefined;
  let fields: string[] = [];
  try {
    const body = (await response.json()) as { message?: unknown; errors?: unknown } | null;
    if (typeof body?.message === 'string') detail = body.message;
    if (body?.errors && typeof body.errors === 'object') fields = Object.keys(body.errors);
  } catch {
    // Not JSON (an HTML error page from a CDN, say): the status alone decides.
  }
  return new ChatError(kindForStatus(response.status), `HTTP ${response.status}`, { status: response.status, detail, fields });
}

/** Maps anything thrown by fetch or a stream read to a ChatError. */
export function toChatError(error: unknown, signal?: AbortSignal): ChatError {
  if (isChatError(error)) return error;
  if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) {
    return new ChatError('aborted', 'Aborted', { cause: error });
  }
  return new ChatError('network', error instanceof Error ? error.message : 'Network error', { cause: error });
}

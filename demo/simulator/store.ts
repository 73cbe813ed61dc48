/** The simulator's in-memory data, shaped like the service's resources (cody-api.md §2). */

export interface Bot {
  id: string;
  name: string;
  model: string;
  created_at: number;
}

export interface Document {
  id: string;
  name: string;
  folder_id: string;
  content: string;
  created_at: number;
}

export interface Conversation {
  id: string;
  name: string;
  bot_id: string;
  document_ids: string[];
  created_at: number;
}

export interface StoredMessage {
  id: string;
  content: string;
  conversation_id: string;
  machine: boolean;
  failed_responding: boolean;
  flagged: boolean;
  created_at: number;
  source_ids: string[];
  tokens: number;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A 12-character alphanumeric id, like the service's hash ids. */
export function newId(length = 12): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** Unix seconds. */
export const nowSeconds = (now: () => number) => Math.floor(now() / 1000);

/** The default page size: Laravel's paginator default (cody-api.md §0.2). */
const DEFAULT_PER_PAGE = 15;
const MAX_PER_PAGE = 100;

/** Pages a list the way the service does: `{data, meta: {pagination}}`, 1-based `page`, optional `per_page`. */
export function paginate<T>(items: readonly T[], query: URLSearchParams): { data: T[]; meta: { pagination: object } } {
  const perPage = clampInt(query.get('per_page'), DEFAULT_PER_PAGE, 1, MAX_PER_PAGE);
  const page = clampInt(query.get('page'), 1, 1, Number.MAX_SAFE_INTEGER);
  const total = items.length;
  // Laravel's LengthAwarePaginator reports at least one page, even for an empty list.
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const data = items.slice((page - 1) * perPage, page * perPage);
  return {
    data,
    meta: {
      pagination: {
        count: data.length,
        total,
        per_page: perPage,
        total_pages: totalPages,
        next_page: page < totalPages ? page + 1 : null,
        previous_page: page > 1 ? Math.min(page - 1, totalPages) : null,
      },
    },
  };
}

function clampInt(value: string | null, fallback: number, min: number, max: number): number {
  const n = value === null ? NaN : Number.parseInt(value, 10);
  return Number.isFinite(n) ? Math.min(Math.max(n, min), max) : fallback;
}

/** Case-insensitive substring match, for the `keyword` filters. */
export function matchesKeyword(name: string, keyword: string | null): boolean {
  return !keyword || name.toLowerCase().includes(keyword.toLowerCase());
}

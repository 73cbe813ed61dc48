/** Wire shapes of the Cody v1 API (see shared/cody-api.md §2), as far as the widget reads them. */

export interface ApiConversation {
  id: string;
  name: string;
  bot_id: string;
  created_at: number;
}

export interface ApiSource {
  type?: string;
  document_id?: string;
  document_name?: string;
  document_url?: string;
  created_at?: number;
}

export interface ApiMessage {
  id: string;
  content: string;
  conversation_id: string;
  machine: boolean;
  failed_responding?: boolean;
  flagged?: boolean;
  created_at: number;
  /** Only with `includes=sources`; the docs show both an array and a single object under `data`. */
  sources?: { data?: ApiSource[] | ApiSource | null } | null;
}

export interface ApiPagination {
  count: number;
  total: number;
  per_page: number;
  total_pages: number;
  next_page?: number | null;
  previous_page?: number | null;
}

export interface ApiList<T> {
  data: T[];
  meta?: { pagination?: ApiPagination };
}

/** One event of a reply stream, after the `[START]` / `{"chunk"}` / `[END]` framing is decoded. */
export type StreamEvent = { type: 'start' } | { type: 'chunk'; text: string } | { type: 'end' };

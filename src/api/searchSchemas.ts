// The site's own search (the discovery API's `POST /v1/search/{domain}`, authenticated with an
// assistant API key): what the extension sends and reads of it. Every field of a result is optional
// as the spec has it, and a result is kept as it came: its `path` (a site path or a URL) and its
// `content` are API values, shown as text and mapped to a workspace file by the one mapping (src/docs).
import * as z from 'zod/mini';

/** One result: the matching content, the path or URL of its page, and metadata the spec leaves open. */
const SearchResult = z.looseObject({
  content: z.optional(z.nullable(z.string())),
  path: z.optional(z.nullable(z.string())),
  metadata: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
});

/** The answer: the results, best first. */
export const SearchResults = z.array(SearchResult);
export type SearchResults = z.output<typeof SearchResults>;

/** The largest page the spec allows, and what a check asks for: enough to see a page ranked 7th. */
export const SEARCH_MAX_PAGE_SIZE = 50;

/** What one search sends (the spec's body; `filter` and `scoreThreshold` are not used: a check searches as readers do). */
export interface SearchQuery {
  query: string;
  /** 1..50; the platform's default is 10. */
  pageSize?: number;
}

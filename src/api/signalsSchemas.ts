// The wire contract of the reader-signals endpoints (analytics OpenAPI: feedback, feedback/by-page,
// assistant, assistant/threads, searches, views). Lenient where the platform may grow: an unknown
// feedback source or status is kept as text, optional fields may be missing, and only what the
// extension uses is required.
import * as z from 'zod/mini';
import { VisitorRow, VisitorTotals } from './schemas';

const Count = z.number().check(z.nonnegative());
const nullableText = z.optional(z.nullable(z.string()));

export const FeedbackByPageRow = z.object({ path: z.string(), thumbsUp: Count, thumbsDown: Count, code: Count, total: Count });
export type FeedbackByPageRow = z.infer<typeof FeedbackByPageRow>;

export const FeedbackByPage = z.object({ feedback: z.array(FeedbackByPageRow), hasMore: z.boolean() });
export type FeedbackByPage = z.infer<typeof FeedbackByPage>;

/**
 * One feedback entry; the three shapes of the spec share these fields (`helpful` only on contextual
 * ones; `code`, `filename` and `lang`, the code block a reader flagged, only on `code_snippet` ones).
 */
const FeedbackItem = z.object({
  id: z.string(),
  path: z.string(),
  comment: nullableText,
  createdAt: nullableText,
  source: z.string(),
  status: z.string(),
  helpful: z.optional(z.boolean()),
  code: nullableText,
  filename: nullableText,
  lang: nullableText,
});

export const FeedbackPage = z.object({
  feedback: z.array(FeedbackItem),
  nextCursor: nullableText,
  hasMore: z.optional(z.boolean()),
});
export type FeedbackPage = z.infer<typeof FeedbackPage>;

const AssistantTurn = z.object({
  id: z.string(),
  timestamp: z.string(),
  query: z.string(),
  resolutionStatus: z.string(),
  queryCategory: nullableText,
  pageUrl: nullableText,
});

export const AssistantPage = z.object({
  conversations: z.array(AssistantTurn),
  nextCursor: nullableText,
  hasMore: z.optional(z.boolean()),
});
export type AssistantPage = z.infer<typeof AssistantPage>;

export const AssistantThread = z.object({
  threadId: z.string(),
  createdAt: z.string(),
  messages: z.array(z.object({ id: z.string(), role: z.string(), content: z.string(), createdAt: z.string() })),
});
export type AssistantThread = z.infer<typeof AssistantThread>;

const SearchRow = z.object({
  searchQuery: z.string(),
  hits: Count,
  ctr: Count,
  topClickedPage: nullableText,
  lastSearchedAt: z.optional(z.string()),
});

export const SearchesPage = z.object({ searches: z.array(SearchRow), totalSearches: Count, nextCursor: nullableText });
export type SearchesPage = z.infer<typeof SearchesPage>;

/** Same shape as visitors, counting view events. */
export const ViewsPage = z.object({ totals: VisitorTotals, views: z.array(VisitorRow), hasMore: z.boolean() });
export type ViewsPage = z.infer<typeof ViewsPage>;

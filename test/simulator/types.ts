// Public types of the Mintlify admin API simulator. Kept in their own module so the pure parts
// (jobs, visitors, faults) and the HTTP server can share them without import cycles.
import type { PreviewDeployments, PreviewOptions } from './previews';

/** What a job becomes when its active period ends. */
export type JobOutcome = 'pr' | 'noChanges' | 'fail';

export type JobStatus = 'active' | 'completed' | 'archived' | 'failed';

export interface SimulatorOptions {
  /** 0 = a random free port. Always bound to 127.0.0.1. */
  port?: number;
  /** Preview deployments: how long each is queued and builds, the organisation's deployments a minute. */
  previews?: PreviewOptions;
  /** Known project ids; default ['demo-project']. Any other projectId gets 404 {error:'Project not found'}. */
  projects?: string[];
  /** `source` of every job created through the API; default the GitHub demo repository and a made-up branch. */
  newJobSource?: { repository: string; ref: string };
  /** How long a job stays 'active' after creation or a follow-up; default 30_000. */
  jobDurationMs?: number;
  /** Visitors data seed; default 42. */
  seed?: number;
  /** Number of distinct doc paths; default 3000. */
  pathCount?: number;
  /** Paths given the most read ranks, before the usual ones (e.g. one with a right-to-left override); default none. */
  topPaths?: readonly string[];
  /** Per-day records cover [today - days, today]; default 120. */
  days?: number;
  /** 'YYYY-MM-DD' (UTC) the data set ends on; default the UTC date of now() at start. */
  today?: string;
  /** Sliding one-hour limit per project on POST create + POST message; default 100. */
  agentPostLimitPerHour?: number;
  /** Sliding one-hour limit for the whole simulator (one organisation) on visitors GETs; default 100. */
  analyticsLimitPerHour?: number;
  /** These keys get 403 on POST endpoints; GET still works. */
  readOnlyKeys?: string[];
  /** Injectable clock (ms since epoch); default Date.now. All time logic uses it. */
  now?: () => number;
  /** Sizes of the reader-signals data set; default DEFAULT_SIGNALS, LARGE_SIGNALS for the large site. */
  signals?: { feedbackItems: number; assistantTurns: number; searchTerms: number };
  /** The docs site the assistant's page URLs point into (default DOCS_SITE); `https://acme.dev/docs` for a site served under a base path. */
  docsSite?: string;
  /** Added to every answer (on top of any latency fault); default 0. Used by the CLI's --latency-ms. */
  latencyMs?: number;
}

export interface RecordedRequest {
  method: string;
  /** Exactly as received (req.url without the query), still percent-encoded. */
  rawPath: string;
  /** rawPath split on '/', each segment percent-decoded (a segment that does not decode is kept raw). */
  segments: string[];
  query: Record<string, string>;
  /** The Authorization header as received. Never logged anywhere else. */
  authorization?: string;
  /** The User-Agent header as received. */
  userAgent?: string;
  /** Parsed JSON body if any, or the raw string if it was not JSON. */
  body?: unknown;
  /** Status the simulator answered; 0 while pending or if nothing was delivered (dropped connection). */
  status: number;
  /** now() when received. */
  at: number;
}

/** What the API returns (components.schemas.AgentJob). */
export interface SimJob {
  id: string;
  status: JobStatus;
  source: { repository: string; ref: string | null };
  model: string;
  prLink: string | null;
  createdAt: string;
  archivedAt: string | null;
}

/** Initial state for Simulator.addJob. Every field is optional. */
export type AddJobInit = Partial<SimJob> & {
  /** What the job becomes when its active period ends. Derived from status/prLink/prompt when absent. */
  outcome?: JobOutcome;
  /** Length of this job's active periods (creation and every follow-up); default jobDurationMs. */
  activeForMs?: number;
  /** Only used to derive the outcome by the prompt convention ('fail', 'no changes'). */
  prompt?: string;
  /** Outcome that the next follow-up switches to (e.g. a 'no changes' job that yields a PR once asked again). */
  outcomeAfterFollowUp?: JobOutcome;
  /**
   * The agent's work in the round a follow-up starts, run when the follow-up arrives, before it is
   * answered (a test pushes a commit to the job's branch in its bare repository: the branch moves).
   */
  nextRound?: (prompt: string) => void;
};

export type Fault =
  /** Delay the answer; the request is still served normally. */
  | { kind: 'latency'; ms: number }
  /** Answer this status: an HTML proxy page when html is true, else `body` as JSON, else JSON {error}. */
  | { kind: 'status'; status: number; html?: boolean; body?: unknown }
  /** Destroy the socket without answering. */
  | { kind: 'drop' }
  /** The route's success status, application/json, a truncated body. */
  | { kind: 'malformedJson' }
  /** The route's success status with valid JSON that breaks the schema. */
  | { kind: 'schemaBreak' }
  /** 429 {error}; Retry-After only when retryAfterSeconds is given. */
  | { kind: 'rateLimit'; retryAfterSeconds?: number }
  /** Visitors only: 200 with the real totals, visitors: [] and hasMore: true. */
  | { kind: 'emptyPageHasMore' }
  /** List routes only (visitors, views, feedback, feedback/by-page, assistant, searches): paging that never ends (endlessPaging.ts). */
  | { kind: 'pagingNeverEnds'; how: EndlessPaging }
  /** Served normally (state changes happen), then the headers and half the body, then silence. */
  | { kind: 'stallAfterHeaders' }
  /** Served normally, the body one byte every `intervalMs` (default 1000). */
  | { kind: 'trickle'; intervalMs?: number }
  /** Not served at all: the request is read and never answered, the socket stays open. */
  | { kind: 'noAnswer' }
  /** Served normally (a follow-up is applied), then the socket is reset mid-body: the answer is lost. */
  | { kind: 'answerThenReset' };

/**
 * How a `pagingNeverEnds` server misbehaves. sameCursor: every page answers the same next cursor
 * (new rows each time); endless: the cursor changes for ever, and offset pages say hasMore for
 * ever, over rows that never run out; emptyPages: hasMore (and a new cursor) over empty pages;
 * sameRows: every page the same rows, whatever the offset or cursor.
 */
export type EndlessPaging = 'sameCursor' | 'endless' | 'emptyPages' | 'sameRows';

export interface FaultRule {
  fault: Fault;
  /** How many requests it applies to; default until cleared. */
  times?: number;
  /** Only requests with this method (case-insensitive). */
  method?: string;
  /** Only requests whose raw or decoded path contains this string. */
  pathIncludes?: string;
}

export interface VisitorCounts {
  human: number;
  ai: number;
  total: number;
}

export interface VisitorRow extends VisitorCounts {
  path: string;
}

export interface VisitorsRange {
  dateFrom?: string;
  dateTo?: string;
}

export interface Simulator {
  /** 'http://127.0.0.1:PORT' */
  readonly url: string;
  /** Every request in arrival order, including rejected and faulted ones. */
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  /** The simulator's clock (options.now, default Date.now). */
  now(): number;
  /** Closes the server, destroys open sockets and clears all timers. */
  close(): Promise<void>;

  /** Rules are checked in order; the first matching one with times left applies and its count decrements. */
  addFault(rule: FaultRule): void;
  clearFaults(): void;

  /** That key gets 401 from now on. */
  revokeKey(key: string): void;

  /** Creates a job directly (no request recorded, no rate limit); returns its current view. */
  addJob(projectId: string, init?: AddJobInit): SimJob;
  /** Current view (after lazy transition); no request recorded. */
  peekJob(projectId: string, id: string): SimJob | undefined;
  /** What the job becomes when its active period ends (the next period if the current one is over). */
  setOutcome(projectId: string, id: string, outcome: JobOutcome): void;
  /** Status archived, archivedAt = now. */
  archiveJob(projectId: string, id: string): void;
  /** Later GET/POST get 404. */
  deleteJob(projectId: string, id: string): void;
  /** Serve this raw JSON for GETs of this job instead; undefined restores. */
  setRawJob(projectId: string, id: string, raw: Record<string, unknown> | undefined): void;

  resetRateLimits(): void;
  /** Preview deployments (External API) and the rendered site their URLs point at (previews.ts). */
  readonly previews: PreviewDeployments;
  /** `source` of the jobs created through the API from now on; undefined restores the default. */
  setNewJobSource(source: { repository: string; ref: string } | undefined): void;

  /** Ground truth (no request recorded, no rate limit): what paging would return, concatenated. */
  visitorsFor(projectId: string, range: VisitorsRange): { totals: VisitorCounts; visitors: VisitorRow[] };
  /** Ground truth of the five reader-signals endpoints for a range (no request recorded, no rate limit). */
  signalsFor(projectId: string, range: VisitorsRange): SignalsTruth;
  /** The thread GET /assistant/threads/{id} returns, or undefined (404). */
  assistantThreadFor(threadId: string): AssistantThread | undefined;
}

// ---- Reader signals: the shapes of the analytics OpenAPI's schemas ----------------------

export type FeedbackSource = 'code_snippet' | 'contextual' | 'agent' | 'thumbs_only';
export type FeedbackStatus = 'pending' | 'in_progress' | 'resolved' | 'dismissed';

interface FeedbackBase {
  id: string;
  path: string;
  comment: string | null;
  createdAt: string | null;
  source: FeedbackSource;
  status: FeedbackStatus;
}

/** One of FeedbackResponse's three item shapes: contextual, code snippet, or base (agent, thumbs only). */
export type FeedbackItem =
  | (FeedbackBase & { source: 'contextual'; helpful: boolean; contact: string | null })
  | (FeedbackBase & { source: 'code_snippet'; code: string; filename: string | null; lang: string | null })
  | (FeedbackBase & { source: 'agent' | 'thumbs_only' });

export interface FeedbackByPageRow {
  path: string;
  thumbsUp: number;
  thumbsDown: number;
  code: number;
  total: number;
}

export interface AssistantTurn {
  id: string;
  timestamp: string;
  query: string;
  response: string;
  responseType: 'answer' | 'clarifying_question';
  sources: { title: string; url: string }[];
  resolutionStatus: 'answered' | 'unanswered';
  queryCategory: string | null;
  pageUrl: string | null;
}

export interface AssistantThread {
  threadId: string;
  createdAt: string;
  messages: { id: string; role: 'user' | 'assistant'; content: string; createdAt: string }[];
}

export interface SearchRow {
  searchQuery: string;
  hits: number;
  ctr: number;
  topClickedPage: string | null;
  lastSearchedAt: string;
}

/** Everything the five signal endpoints would return for a range, all pages concatenated. */
export interface SignalsTruth {
  byPage: FeedbackByPageRow[];
  feedback: FeedbackItem[];
  assistant: AssistantTurn[];
  searches: SearchRow[];
  totalSearches: number;
  views: { totals: VisitorCounts; views: VisitorRow[] };
}

// The wire contract, once. Every type the extension uses for API data is inferred from these
// schemas, and they are parsed only where data enters: HTTP responses (client.ts).
// zod/mini keeps the bundle and activation small (see BENCHMARKS.md); it is the same zod.
import * as z from 'zod/mini';

const KNOWN_JOB_STATUSES = ['active', 'completed', 'archived', 'failed'] as const;
type KnownJobStatus = (typeof KNOWN_JOB_STATUSES)[number];
/** `unknown` stands for a status the platform added after this version was written. */
type JobStatus = KnownJobStatus | 'unknown';

const optionalText = z.optional(z.nullable(z.string()));

const AgentJobWire = z.object({
  id: z.string().check(z.minLength(1)),
  status: z.string(),
  source: z.optional(
    z.nullable(
      z.object({
        repository: optionalText,
        ref: optionalText,
      }),
    ),
  ),
  model: optionalText,
  prLink: optionalText,
  createdAt: optionalText,
  archivedAt: optionalText,
});

function toJobStatus(status: string): JobStatus {
  return (KNOWN_JOB_STATUSES as readonly string[]).includes(status) ? (status as KnownJobStatus) : 'unknown';
}

/**
 * An agent job. Only `id` and `status` are required: the spec does not say which fields are, and
 * a job missing its model should still show. A status we do not know becomes `unknown` (the
 * original word is kept in `reportedStatus`) so a new platform state cannot break the tree.
 */
export const AgentJob = z.pipe(
  AgentJobWire,
  z.transform((job) => ({
    id: job.id,
    status: toJobStatus(job.status),
    reportedStatus: job.status,
    repository: job.source?.repository ?? undefined,
    ref: job.source?.ref ?? undefined,
    model: job.model ?? undefined,
    prLink: job.prLink ?? undefined,
    createdAt: job.createdAt ?? undefined,
    archivedAt: job.archivedAt ?? undefined,
  })),
);
export type AgentJob = z.output<typeof AgentJob>;

const Count = z.number().check(z.nonnegative());

export const VisitorRow = z.object({ path: z.string(), human: Count, ai: Count, total: Count });
export type VisitorRow = z.infer<typeof VisitorRow>;

export const VisitorTotals = z.object({ human: Count, ai: Count, total: Count });
export type VisitorTotals = z.infer<typeof VisitorTotals>;

export const VisitorsPage = z.object({
  totals: VisitorTotals,
  visitors: z.array(VisitorRow),
  hasMore: z.boolean(),
});
export type VisitorsPage = z.infer<typeof VisitorsPage>;

/** Error bodies of both APIs: `{ error, details?: [{ message }] }`. */
export const ErrorBody = z.object({
  error: z.string(),
  details: z.optional(z.array(z.object({ message: z.string() }))),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

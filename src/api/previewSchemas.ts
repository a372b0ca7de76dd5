// The External API's preview deployment and its status (the platform's published "External API"):
// what the extension reads of them. Every field is optional as the spec has them, and a status the
// platform adds later reads as `unknown` (kept in `reportedStatus`), so a new state cannot break a row.
import * as z from 'zod/mini';

const text = z.optional(z.nullable(z.string()));
const texts = z.optional(z.nullable(z.array(z.string())));

/** The answer to `POST /v1/project/preview/{projectId}` (202). */
export const PreviewDeployment = z.object({
  statusId: z.string().check(z.minLength(1)),
  previewUrl: text,
});
export type PreviewDeployment = z.output<typeof PreviewDeployment>;

const KNOWN_UPDATE_STATUSES = ['queued', 'in_progress', 'success', 'failure'] as const;
type UpdateState = (typeof KNOWN_UPDATE_STATUSES)[number] | 'unknown';

const UpdateStatusWire = z.object({
  _id: text,
  status: z.string(),
  summary: text,
  logs: texts,
  subdomain: text,
  screenshot: text,
  screenshotLight: text,
  screenshotDark: text,
  commit: z.optional(
    z.nullable(
      z.object({
        sha: text,
        ref: text,
        message: text,
        filesChanged: z.optional(z.nullable(z.object({ added: texts, modified: texts, removed: texts }))),
      }),
    ),
  ),
  createdAt: text,
  endedAt: text,
});

/** The answer to `GET /v1/project/update-status/{statusId}`, with what is absent left out. */
export const UpdateStatus = z.pipe(
  UpdateStatusWire,
  z.transform((wire) => ({
    status: ((KNOWN_UPDATE_STATUSES as readonly string[]).includes(wire.status) ? wire.status : 'unknown') as UpdateState,
    reportedStatus: wire.status,
    summary: wire.summary ?? undefined,
    logs: wire.logs ?? [],
    screenshotLight: wire.screenshotLight ?? wire.screenshot ?? undefined,
    screenshotDark: wire.screenshotDark ?? undefined,
    commit: wire.commit
      ? {
          sha: wire.commit.sha ?? undefined,
          ref: wire.commit.ref ?? undefined,
          message: wire.commit.message ?? undefined,
          added: wire.commit.filesChanged?.added ?? [],
          modified: wire.commit.filesChanged?.modified ?? [],
          removed: wire.commit.filesChanged?.removed ?? [],
        }
      : undefined,
    createdAt: wire.createdAt ?? undefined,
    endedAt: wire.endedAt ?? undefined,
  })),
);
export type UpdateStatus = z.output<typeof UpdateStatus>;

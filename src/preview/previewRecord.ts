// What a job's preview is, in pure terms: the record every window shares, built from the platform's
// answers; its stage; whether it shows the branch's latest round; and the addresses it may open.
// The preview URL, the screenshots and everything in a status are API values: shown as text, and
// opened only when they are https (or plain http on loopback, which is the simulator's), never with
// our key. No vscode import: unit-tested.
import type { PreviewDeployment, UpdateStatus } from '../api';
import { DEFAULT_TIMINGS, type PollTimings } from '../poll/pollTimings';
import { boundPreview, type SharedPreview } from '../sync/previewState';

export type { SharedPreview };

/** The most log lines kept of one build (the last ones: where a build says what broke), and their length. */
export const KEPT_LOG_LINES = 200;
export const KEPT_LOG_LINE_CHARS = 1_000;

/**
 * A build's log as this machine keeps it (buildLogs.ts), not in the shared state: its last lines,
 * each cut to KEPT_LOG_LINE_CHARS, with what the platform sent counted, so that whatever quotes it
 * can say how much it leaves out.
 */
export interface BuildLog {
  /** The deployment's status ID: whose log this is. */
  statusId: string;
  lines: string[];
  /** Each kept line's length as the platform sent it. */
  lengths: number[];
  /** How many lines the platform sent. */
  total: number;
  /** The build's summary, whole. */
  summary?: string;
}

/** The log of a status read, as it is kept. */
export function keptLog(statusId: string, status: UpdateStatus): BuildLog {
  const last = status.logs.slice(-KEPT_LOG_LINES);
  return {
    statusId,
    lines: last.map((line) => line.slice(0, KEPT_LOG_LINE_CHARS)),
    lengths: last.map((line) => line.length),
    total: status.logs.length,
    ...(status.summary !== undefined && { summary: status.summary }),
  };
}

/** How long a status is followed after the deployment was asked for: past it, the row says so and polling stops. */
export const PREVIEW_STATUS_BOUND_MS = 20 * 60_000;

/**
 * How a preview's status is read: every 5 s for the first 5 minutes (a docs build takes about a
 * minute or two), then every 15 s; four times slower while no window of the project has the focus.
 * The 5 s interval is the floor: the bench (figure "preview") counts the reads a preview took against it.
 */
export const PREVIEW_TIMINGS: PollTimings = {
  ...DEFAULT_TIMINGS,
  intervalMs: 15_000,
  fastIntervalMs: 5_000,
  fastPhaseMs: 5 * 60_000,
  steadyReadsPerHour: 240,
  maxInFlight: 2,
  backoffBaseMs: 5_000,
  backoffMaxMs: 2 * 60_000,
};

/** The record of a deployment just asked for. */
export function deployed(branch: string, answer: PreviewDeployment, now: number): SharedPreview {
  return { branch, statusId: answer.statusId, ...(answer.previewUrl && { previewUrl: answer.previewUrl }), requestedAt: now, status: 'queued' };
}

/**
 * The record after a status read, as every window shares it: the status, its summary, the commit,
 * its files and the screenshots, bounded (the log is kept apart: keptLog).
 */
export function withStatus(before: SharedPreview, status: UpdateStatus, now: number): SharedPreview {
  const commit = status.commit;
  // A commit's files replace the earlier ones, and what was left out of them.
  const { filesLeftOut: _earlier, ...rest } = before;
  return boundPreview({
    ...(commit ? rest : before),
    status: status.status === 'unknown' ? status.reportedStatus : status.status,
    checkedAt: now,
    ...(status.summary !== undefined && { summary: status.summary }),
    ...(commit?.sha && { sha: commit.sha }),
    ...(commit && { files: { added: commit.added, modified: commit.modified, removed: commit.removed } }),
    ...(status.screenshotLight && { screenshotLight: status.screenshotLight }),
    ...(status.screenshotDark && { screenshotDark: status.screenshotDark }),
  });
}

type Stage = 'building' | 'ready' | 'failed' | 'unfinished';

/** Where a preview stands: still building (queued, in progress, a word we do not know), ready, failed, or no longer followed. */
export function stageOf(preview: SharedPreview): Stage {
  if (preview.status === 'success') return 'ready';
  if (preview.status === 'failure') return 'failed';
  return preview.gaveUpAt !== undefined ? 'unfinished' : 'building';
}

/** Whether the status is still worth reading: not ended, and within the bound. */
export function isFollowed(preview: SharedPreview, now: number): boolean {
  return stageOf(preview) === 'building' && now - preview.requestedAt < PREVIEW_STATUS_BOUND_MS;
}

/**
 * True when the preview is of an older commit than the branch's tip the writer last fetched (Review
 * Changes): the agent has had another round since. Unknown either side: not older.
 */
export function isOlder(preview: SharedPreview, tip: string | undefined): boolean {
  const sha = preview.sha?.toLowerCase();
  const head = tip?.toLowerCase();
  if (!sha || !head || sha.length < 7 || head.length < 7) return false;
  return !(sha.startsWith(head) || head.startsWith(sha));
}

/** An address the extension may open: https, or http on loopback (the simulator's); undefined otherwise. */
export function openable(url: string | undefined): URL | undefined {
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.username || parsed.password) return undefined;
  if (parsed.protocol === 'https:') return parsed;
  return parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname) ? parsed : undefined;
}

/** A page of the preview: its site path (`/quickstart`, `/` for home) under the preview's address, which may itself have a path. */
export function pageUrl(previewUrl: string, sitePath: string): URL | undefined {
  const base = openable(previewUrl);
  if (!base) return undefined;
  const root = new URL(base.href.endsWith('/') ? base.href : `${base.href}/`);
  root.search = '';
  root.hash = '';
  const relative = sitePath.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
  const page = new URL(relative, root);
  // A site path never climbs out of the preview (encoded segments cannot, and `..` was refused when the path was made).
  return page.href.startsWith(root.href) ? page : undefined;
}

/** Whether the build removed this file (a repository path, POSIX). */
export function removedIn(preview: SharedPreview, repositoryPath: string): boolean {
  return preview.files?.removed.includes(repositoryPath) ?? false;
}

// Ask the Agent to Fix the Build, as every window shares it (the `buildFixes` area of the shared
// state, src/sync/previewState.ts): per job, the fix being sent, every window's claim to send it
// (src/jobs/followUpClaims.ts: sent from one window at a time, as a review is) and the last one sent,
// for which build, and whether its answer was lost. A second ask for the same build is a choice
// the writer makes knowing the first, never a second send by accident.
import { FollowUpClaims, type SendClaim, type Sending } from '../jobs/followUpClaims';
import type { BuildFixRecord, SharedBuildFixes } from '../sync/previewState';
import type { WindowSync } from '../sync/windowSync';

/** What the fixes use of the shared state: their area, the windows' lease (which are live), and a read of every window's file now. */
export type BuildFixSync = Pick<WindowSync, 'buildFixes' | 'lease' | 'refresh'>;

/** A fix of a build that went to the agent, or may have (its answer was lost, or its window closed while it was being sent). */
export interface FixSent {
  at: number;
  lost: boolean;
}

export class BuildFixes {
  private readonly claims: FollowUpClaims;

  constructor(
    private readonly sync: BuildFixSync,
    /** The current project (the jobs view's). */
    private readonly project: () => string | undefined,
  ) {
    this.claims = new FollowUpClaims({
      lease: sync.lease,
      refresh: () => sync.refresh(),
      onDidChange: sync.buildFixes.onDidChange,
      project,
      marks: (p, jobId) => sync.buildFixes.value[p]?.[jobId],
      change: (p, jobId, edit) => sync.buildFixes.change((fixes, next) => edit(recordIn(fixes, p, jobId), next)),
    });
  }

  /** The fix of this build (`statusId`) sent from any window, if one was, or may have been. */
  sentFor(jobId: string, statusId: string): FixSent | undefined {
    const sent = this.record(jobId)?.sent?.v;
    if (sent?.statusId === statusId) return { at: sent.at, lost: sent.lost ?? false };
    const orphaned = this.claims.orphanedAt(jobId);
    return orphaned !== undefined ? { at: orphaned, lost: true } : undefined;
  }

  /** A fix of the job's build being sent from another window, if one is. */
  sendingElsewhere(jobId: string): Sending | undefined {
    return this.claims.elsewhere(jobId);
  }

  /** Claims the fix for this window to send (one window at a time); a fix recorded meanwhile stands against it. */
  claim(jobId: string): Promise<SendClaim> {
    return this.claims.claim(jobId, () => JSON.stringify(this.record(jobId)?.sent ?? null));
  }

  /** Records the outcome of this window's send (sent, or its answer lost) of the build's fix, ending its claim, in one write. */
  recordSent(jobId: string, statusId: string, { at, lost }: FixSent): Promise<void> {
    const project = this.project();
    const end = this.claims.ending(jobId);
    if (!project) return Promise.resolve();
    return this.sync.buildFixes.change((fixes, next) => {
      const record = recordIn(fixes, project, jobId);
      record.sent = { v: { statusId, at, ...(lost && { lost }) }, s: next() };
      end?.(record, next);
    });
  }

  private record(jobId: string): BuildFixRecord | undefined {
    const project = this.project();
    return project ? this.sync.buildFixes.value[project]?.[jobId] : undefined;
  }
}

function recordIn(fixes: SharedBuildFixes, project: string, jobId: string): BuildFixRecord {
  return ((fixes[project] ??= {})[jobId] ??= {});
}

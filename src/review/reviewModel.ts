// The reviews of the current project's agent jobs, as every window shares them (the `reviews` area
// of the shared state, src/sync/reviewState.ts): each job's comments, pending or sent, the round
// (commit of the agent's branch) they are drawn on, and whether a send lost its answer. Every
// change shows in this window at once; the promise each change returns is its write to the shared
// folder, which a caller may let go (util/background.ts) without losing the change here.
import * as vscode from 'vscode';
import { FollowUpClaims, type SendClaim } from '../jobs/followUpClaims';
import { applyReviewChange, type ReviewChange, type ReviewRecord, type ReviewSending, type SharedReviewComment, type SharedReviews } from '../sync/reviewState';
import type { WindowSync } from '../sync/windowSync';
import { Disposable } from '../util/lifecycle';

/** A time of day as the writer's clock reads it (10:42): when a review was sent, or a send lost its answer. */
export function clockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

export interface ReviewComment extends SharedReviewComment {
  id: string;
  jobId: string;
}

/** One review sent to the agent: its comments, and when. */
interface SentReview {
  sentAt: number;
  comments: ReviewComment[];
}

/** What the model uses of the shared state: the reviews' area, the windows' lease (which are live), and a read of every window's file now. */
export type ReviewSync = Pick<WindowSync, 'reviews' | 'lease' | 'refresh'>;

/** Sending the review: this window may send it now (release() when the send ended without a word), or another send is under way. */

export class ReviewModel extends Disposable {
  private readonly emitter = this.register(new vscode.EventEmitter<void>());
  /** Fires when the project's reviews changed here or in another window, or the project changed. */
  readonly onDidChange = this.emitter.event;
  private lastProject: string | undefined;
  private seq = 0;
  /** Sending a review from one window at a time: the claims and the mark in each job's record. */
  private readonly claims: FollowUpClaims;

  constructor(
    private readonly sync: ReviewSync,
    /** The current project (the jobs view's). */
    private readonly project: () => string | undefined,
  ) {
    super();
    this.lastProject = project();
    this.claims = new FollowUpClaims({
      lease: sync.lease,
      refresh: () => sync.refresh(),
      onDidChange: sync.reviews.onDidChange,
      project,
      marks: (p, jobId) => sync.reviews.value[p]?.[jobId],
      change: (p, jobId, edit) => sync.reviews.change((reviews, next) => edit(recordIn(reviews, p, jobId), next)),
    });
    this.register(sync.reviews.onDidChange(() => this.emitter.fire()));
    // The jobs view's project changed: the lease hears it first.
    this.register(
      sync.lease.onDidChange(() => {
        if (this.project() === this.lastProject) return;
        this.lastProject = this.project();
        this.emitter.fire();
      }),
    );
  }

  /** Every comment of the job that is not deleted, pending and sent. */
  comments(jobId: string): ReviewComment[] {
    const record = this.record(jobId);
    if (!record) return [];
    return Object.entries(record.c)
      .flatMap(([id, c]) => (c.v ? [{ ...c.v, id, jobId }] : []))
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  pending(jobId: string): ReviewComment[] {
    return this.comments(jobId).filter((c) => c.sentAt === undefined);
  }

  comment(jobId: string, id: string): ReviewComment | undefined {
    return this.comments(jobId).find((c) => c.id === id);
  }

  /** The reviews sent to the job, oldest first: its rounds. */
  sent(jobId: string): SentReview[] {
    const rounds = new Map<number, ReviewComment[]>();
    for (const c of this.comments(jobId)) if (c.sentAt !== undefined) rounds.set(c.sentAt, [...(rounds.get(c.sentAt) ?? []), c]);
    return [...rounds].sort(([a], [b]) => a - b).map(([sentAt, comments]) => ({ sentAt, comments }));
  }

  /** The commit of the agent's branch last shown in Review Changes (any window): the round comments are drawn on. */
  tip(jobId: string): string | undefined {
    return this.record(jobId)?.tip?.v;
  }

  /**
   * When a send of this review lost its answer (ms), if it did and nothing was sent since; also a
   * send whose outcome was never recorded (its window closed first).
   */
  lost(jobId: string): number | undefined {
    return this.record(jobId)?.lost?.v ?? this.claims.orphanedAt(jobId);
  }

  /** A send of the review under way, in this window or another, if any. */
  inFlight(jobId: string): ReviewSending | undefined {
    return this.claims.inFlight(jobId);
  }

  /**
   * Claims the review for this window to send, unless a send of it is already under way
   * (src/jobs/followUpClaims.ts): a send that lost its answer meanwhile stands against the claim (and,
   * its caller checks, one that sent any of the comments). Sending, the mark `sending` shows it to
   * every window; both go when markSent or setLost records the outcome, or with release().
   */
  claimSend(jobId: string): Promise<SendClaim> {
    return this.claims.claim(jobId, () => this.lost(jobId));
  }

  /** A new id for a comment written in this window: never another window's. */
  newId(): string {
    return `${this.sync.lease.windowId}.${Date.now().toString(36)}.${++this.seq}`;
  }

  put(jobId: string, id: string, comment: SharedReviewComment): Promise<void> {
    return this.change(jobId, { comment: id, value: comment });
  }

  edit(jobId: string, id: string, body: string): Promise<void> {
    const current = this.comment(jobId, id);
    if (!current || current.body === body) return Promise.resolve();
    const { id: _id, jobId: _job, ...comment } = current;
    return this.change(jobId, { comment: id, value: { ...comment, body } });
  }

  remove(jobId: string, id: string): Promise<void> {
    return this.change(jobId, { comment: id, value: null });
  }

  /**
   * Records what went to the agent at `at`: the comments exactly as they were composed, in one
   * write, and that no send is in doubt or under way any more. A comment edited since it was
   * composed stays pending with its new text, and the text the agent got is kept as sent beside it;
   * one deleted since stays deleted.
   */
  async markSent(jobId: string, composed: readonly ReviewComment[], at: number): Promise<void> {
    const project = this.project();
    if (!project) return;
    // Every window's latest edits first: an edit made elsewhere while the send was under way is kept.
    await this.sync.refresh();
    const end = this.claims.ending(jobId);
    const writes = composed.flatMap(({ id, jobId: _job, ...comment }) => {
      const now = this.comment(jobId, id);
      if (!now) return [];
      const { id: _id, jobId: _j, ...current } = now;
      const unchanged = current.sentAt === undefined && sameComment(current, comment);
      return [{ id: unchanged ? id : this.newId(), value: { ...comment, sentAt: at } }];
    });
    const lost = this.lost(jobId) !== undefined;
    return this.sync.reviews.change((reviews, next) => {
      for (const { id, value } of writes) applyReviewChange(reviews, project, jobId, { comment: id, value }, next);
      if (lost) applyReviewChange(reviews, project, jobId, { lost: null }, next);
      end?.(recordIn(reviews, project, jobId), next);
    });
  }

  setTip(jobId: string, commit: string): Promise<void> {
    return this.tip(jobId) === commit ? Promise.resolve() : this.change(jobId, { tip: commit });
  }

  /** Records that a send lost its answer at `at` (undefined: no send is in doubt), and ends this window's send under way. */
  setLost(jobId: string, at: number | undefined): Promise<void> {
    const project = this.project();
    const end = this.claims.ending(jobId);
    if (!project || ((this.record(jobId)?.lost?.v ?? undefined) === at && !end)) return Promise.resolve();
    return this.sync.reviews.change((reviews, next) => {
      applyReviewChange(reviews, project, jobId, { lost: at ?? null }, next);
      end?.(recordIn(reviews, project, jobId), next);
    });
  }

  private change(jobId: string, change: ReviewChange): Promise<void> {
    const project = this.project();
    if (!project) return Promise.resolve();
    return this.sync.reviews.change((reviews, next) => applyReviewChange(reviews, project, jobId, change, next));
  }

  private record(jobId: string): ReviewRecord | undefined {
    const project = this.project();
    return project ? this.sync.reviews.value[project]?.[jobId] : undefined;
  }
}

/** The job's review in `reviews`, made if absent. */
function recordIn(reviews: SharedReviews, project: string, jobId: string): ReviewRecord {
  return ((reviews[project] ??= {})[jobId] ??= { c: {} });
}

/** The same comment as composed: its place, its lines and its words. */
function sameComment(a: SharedReviewComment, b: SharedReviewComment): boolean {
  return (
    a.body === b.body &&
    a.path === b.path &&
    a.commit === b.commit &&
    a.startLine === b.startLine &&
    a.endLine === b.endLine &&
    a.lines.join('\n') === b.lines.join('\n')
  );
}

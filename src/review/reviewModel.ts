// The reviews of the current project's agent jobs, as every window shares them (the `reviews` area
// of the shared state, src/sync/reviewState.ts): each job's comments, pending or sent, the round
// (commit of the agent's branch) they are drawn on, and whether a send lost its answer. Every
// change shows in this window at once; the promise each change returns is its write to the shared
// folder, which a caller may let go (util/background.ts) without losing the change here.
import * as vscode from 'vscode';
import { applyReviewChange, type ReviewChange, type ReviewRecord, type ReviewSending, type SharedReviewComment } from '../sync/reviewState';
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
export interface SentReview {
  sentAt: number;
  comments: ReviewComment[];
}

/** What the model uses of the shared state: the reviews' area, the windows' lease (which are live), and a read of every window's file now. */
export type ReviewSync = Pick<WindowSync, 'reviews' | 'lease' | 'refresh'>;

/**
 * The longest the first of several windows that claimed a review at once waits for the others to
 * step back (each does as soon as it has read the claims back, so about one read of the shared
 * folder): a bound on a wait for a condition, never a settle time. Past it, no window sends.
 */
export const CLAIM_WAIT_MS = 10_000;

/**
 * A send's mark older than this is not a send under way, even from a window still open: its
 * outcome was never recorded (no send waits this long for its answer), so it may have arrived.
 */
export const SENDING_MAX_MS = 10 * 60_000;

/** Sending the review: this window may send it now (release() when the send ended without a word), or another send is under way. */
export type SendClaim = { release(): Promise<void> } | { busy: ReviewSending };

export class ReviewModel extends Disposable {
  private readonly emitter = this.register(new vscode.EventEmitter<void>());
  /** Fires when the project's reviews changed here or in another window, or the project changed. */
  readonly onDidChange = this.emitter.event;
  private lastProject: string | undefined;
  private seq = 0;
  /** Job id → this window's claim to send its review, until the send's outcome is recorded. */
  private readonly claimed = new Map<string, string>();

  constructor(
    private readonly sync: ReviewSync,
    /** The current project (the jobs view's). */
    private readonly project: () => string | undefined,
  ) {
    super();
    this.lastProject = project();
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
    const record = this.record(jobId);
    const sending = record?.sending?.v;
    return record?.lost?.v ?? (sending && this.orphaned(sending) ? sending.at : undefined);
  }

  /** A send of the review under way, in this window or another, if any. */
  inFlight(jobId: string): ReviewSending | undefined {
    const sending = this.record(jobId)?.sending?.v ?? undefined;
    return sending && !this.orphaned(sending) ? sending : undefined;
  }

  /** A send of the review under way in another window, if any. */
  sendingElsewhere(jobId: string): ReviewSending | undefined {
    const sending = this.inFlight(jobId);
    return sending?.window !== this.sync.lease.windowId ? sending : undefined;
  }

  /** A mark whose send can no longer record its outcome: its window closed, or it is too old. */
  private orphaned(sending: ReviewSending): boolean {
    return (sending.window !== this.sync.lease.windowId && !this.sync.lease.isLive(sending.window)) || Date.now() - sending.at > SENDING_MAX_MS;
  }

  /**
   * Claims the review for this window to send, unless a send of it is already under way: as the
   * hour's account reserves a request (src/sync/hourAccount.ts), the claim is written to this
   * window's file first, then every window's file is read back, and this window sends only if no
   * other window's claim stands beside it. Of two windows claiming at once the one that reads later
   * sees both claims; the one that read first may have seen only its own and sent. So a window that
   * sees another claim steps back, unless its own is the first of them: then it waits (bounded) for
   * the others to step back, and sends only if by then no other window is sending, no send lost its
   * answer meanwhile, (and, its caller checks, none of the comments was sent). Sending, the mark
   * `sending` shows it to every window; both go when markSent or setLost records the outcome, or
   * with release().
   */
  async claimSend(jobId: string): Promise<SendClaim> {
    const project = this.project();
    await this.sync.refresh();
    const busy = this.sendingElsewhere(jobId) ?? this.claimsOf(jobId).find((c) => c.window !== this.sync.lease.windowId);
    if (busy) return { busy };
    const lostBefore = this.lost(jobId);
    const mark: ReviewSending = { window: this.sync.lease.windowId, at: Date.now(), id: this.newId() };
    this.claimed.set(jobId, mark.id);
    const release = async () => {
      if (this.claimed.get(jobId) === mark.id) this.claimed.delete(jobId);
      await this.endClaim(jobId, mark);
    };
    const others = () => (project ? this.sync.lease.peersOn(project).length : 0);
    /** Written to this window's file, or the error when another window of the project cannot see it (sending could make two sends). */
    const write = async (change: ReviewChange) => {
      try {
        await this.change(jobId, change);
      } catch (error) {
        if (!others()) return;
        await release().catch(() => undefined);
        throw error;
      }
    };
    await write({ claim: mark.id, value: mark });
    // Read back: every window's claims, this one's among them.
    await this.sync.refresh();
    const rival = await this.contest(jobId, mark);
    const stands = rival ?? this.sendingElsewhere(jobId) ?? (this.lost(jobId) !== lostBefore ? mark : undefined);
    if (stands) {
      await release().catch(() => undefined);
      return { busy: stands };
    }
    await write({ sending: mark });
    return { release };
  }

  /** Claims to send the review that may still be acted on: not ended, from a window still open, not older than SENDING_MAX_MS. */
  private claimsOf(jobId: string): ReviewSending[] {
    return Object.values(this.record(jobId)?.claims ?? {}).flatMap((c) => (c.v && !this.orphaned(c.v) ? [c.v] : []));
  }

  /**
   * The claim that stands against `mark` after it was read back, if any: one before it (the earlier
   * claim, the id breaking a tie), or one that did not step back within CLAIM_WAIT_MS while no other
   * window was sending.
   */
  private async contest(jobId: string, mark: ReviewSending): Promise<ReviewSending | undefined> {
    const seen = this.claimsOf(jobId).filter((c) => c.id !== mark.id);
    const first = seen.find((c) => c.at < mark.at || (c.at === mark.at && c.id < mark.id));
    if (first || !seen.length) return first;
    const ids = new Set(seen.map((c) => c.id));
    const standing = () => this.claimsOf(jobId).filter((c) => ids.has(c.id));
    await until(this.sync.reviews.onDidChange, () => !standing().length || this.sendingElsewhere(jobId) !== undefined, CLAIM_WAIT_MS);
    return standing()[0];
  }

  /** Ends this window's claim, and its mark if it is the one that stands, in one write. */
  private endClaim(jobId: string, mark: ReviewSending): Promise<void> {
    const project = this.project();
    if (!project) return Promise.resolve();
    const marked = this.record(jobId)?.sending?.v?.id === mark.id;
    return this.sync.reviews.change((reviews, next) => {
      applyReviewChange(reviews, project, jobId, { claim: mark.id, value: null }, next);
      if (marked) applyReviewChange(reviews, project, jobId, { sending: null }, next);
    });
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
    const mine = this.endsWithOutcome(jobId);
    const claim = this.takeClaim(jobId);
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
      if (mine) applyReviewChange(reviews, project, jobId, { sending: null }, next);
      if (claim) applyReviewChange(reviews, project, jobId, { claim, value: null }, next);
    });
  }

  setTip(jobId: string, commit: string): Promise<void> {
    return this.tip(jobId) === commit ? Promise.resolve() : this.change(jobId, { tip: commit });
  }

  /** Records that a send lost its answer at `at` (undefined: no send is in doubt), and ends this window's send under way. */
  setLost(jobId: string, at: number | undefined): Promise<void> {
    const project = this.project();
    const mine = this.endsWithOutcome(jobId);
    const claim = this.takeClaim(jobId);
    if (!project || ((this.record(jobId)?.lost?.v ?? undefined) === at && !mine && !claim)) return Promise.resolve();
    return this.sync.reviews.change((reviews, next) => {
      applyReviewChange(reviews, project, jobId, { lost: at ?? null }, next);
      if (mine) applyReviewChange(reviews, project, jobId, { sending: null }, next);
      if (claim) applyReviewChange(reviews, project, jobId, { claim, value: null }, next);
    });
  }

  private change(jobId: string, change: ReviewChange): Promise<void> {
    const project = this.project();
    if (!project) return Promise.resolve();
    return this.sync.reviews.change((reviews, next) => applyReviewChange(reviews, project, jobId, change, next));
  }

  /** This window's claim to send the job's review, which the outcome recorded now ends; undefined for none. */
  private takeClaim(jobId: string): string | undefined {
    const claim = this.claimed.get(jobId);
    this.claimed.delete(jobId);
    return claim;
  }

  /** Whether an outcome recorded here ends the review's sending mark: this window's, or an orphaned one. */
  private endsWithOutcome(jobId: string): boolean {
    const sending = this.record(jobId)?.sending?.v;
    return !!sending && (sending.window === this.sync.lease.windowId || this.orphaned(sending));
  }

  private record(jobId: string): ReviewRecord | undefined {
    const project = this.project();
    return project ? this.sync.reviews.value[project]?.[jobId] : undefined;
  }
}

/** Resolves true once `done()` holds (checked now and at each `changed`), false if it still does not after `ms`. */
function until(changed: vscode.Event<unknown>, done: () => boolean, ms: number): Promise<boolean> {
  if (done()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (ok: boolean) => {
      listener.dispose();
      clearTimeout(timer);
      resolve(ok);
    };
    const listener = changed(() => done() && finish(true));
    const timer = setTimeout(() => finish(done()), ms);
  });
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

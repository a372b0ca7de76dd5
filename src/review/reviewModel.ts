// The reviews of the current project's agent jobs, as every window shares them (the `reviews` area
// of the shared state, src/sync/reviewState.ts): each job's comments, pending or sent, the round
// (commit of the agent's branch) they are drawn on, and whether a send lost its answer. Every
// change shows in this window at once; the promise each change returns is its write to the shared
// folder, which a caller may let go (util/background.ts) without losing the change here.
import * as vscode from 'vscode';
import { applyReviewChange, type ReviewChange, type ReviewRecord, type SharedReviewComment } from '../sync/reviewState';
import type { SyncState, Stamp } from '../sync/syncState';
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

/** What the model needs of the shared store (src/sync/windowSync.ts's WindowSync). */
export interface ReviewSync {
  readonly state: SyncState;
  readonly windowId: string;
  update(change: (state: SyncState) => void): Promise<void>;
  readonly onDidChange: vscode.Event<void>;
  readonly store: { readonly clock: { next(): Stamp } };
}

export class ReviewModel extends Disposable {
  private readonly emitter = this.register(new vscode.EventEmitter<void>());
  /** Fires when the project's reviews changed here or in another window, or the project changed. */
  readonly onDidChange = this.emitter.event;
  private last = '';
  private seq = 0;

  constructor(
    private readonly sync: ReviewSync,
    /** The current project (the jobs view's). */
    private readonly project: () => string | undefined,
  ) {
    super();
    this.last = this.fingerprint();
    this.register(sync.onDidChange(() => this.check()));
  }

  /** Every comment of the job that is not deleted, pending and sent. */
  comments(jobId: string): ReviewComment[] {
    const record = this.record(jobId);
    if (!record) return [];
    return Object.entries(record.c).flatMap(([id, c]) => (c.v ? [{ ...c.v, id, jobId }] : [])).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
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

  /** When a send of this review lost its answer (ms), if it did and nothing was sent since. */
  lost(jobId: string): number | undefined {
    return this.record(jobId)?.lost?.v ?? undefined;
  }

  /** A new id for a comment written in this window: never another window's. */
  newId(): string {
    return `${this.sync.windowId}.${Date.now().toString(36)}.${++this.seq}`;
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

  /** Records that `ids` went to the agent at `at`, in one write, and that no send is in doubt any more. */
  markSent(jobId: string, ids: readonly string[], at: number): Promise<void> {
    const project = this.project();
    if (!project) return Promise.resolve();
    const comments = this.comments(jobId);
    const next = () => this.sync.store.clock.next();
    return this.sync.update((state) => {
      for (const c of comments.filter((x) => ids.includes(x.id))) {
        const { id, jobId: _job, ...comment } = c;
        applyReviewChange(state.reviews, project, jobId, { comment: id, value: { ...comment, sentAt: at } }, next);
      }
      if (this.lost(jobId) !== undefined) applyReviewChange(state.reviews, project, jobId, { lost: null }, next);
    });
  }

  setTip(jobId: string, commit: string): Promise<void> {
    return this.tip(jobId) === commit ? Promise.resolve() : this.change(jobId, { tip: commit });
  }

  setLost(jobId: string, at: number | undefined): Promise<void> {
    return this.lost(jobId) === at ? Promise.resolve() : this.change(jobId, { lost: at ?? null });
  }

  private change(jobId: string, change: ReviewChange): Promise<void> {
    const project = this.project();
    if (!project) return Promise.resolve();
    return this.sync.update((state) => applyReviewChange(state.reviews, project, jobId, change, () => this.sync.store.clock.next()));
  }

  private record(jobId: string): ReviewRecord | undefined {
    const project = this.project();
    return project ? this.sync.state.reviews[project]?.[jobId] : undefined;
  }

  private fingerprint(): string {
    const project = this.project();
    return `${project ?? ''}\u0000${project ? JSON.stringify(this.sync.state.reviews[project] ?? {}) : ''}`;
  }

  private check(): void {
    const now = this.fingerprint();
    if (now === this.last) return;
    this.last = now;
    this.emitter.fire();
  }
}

// The comments in the agent branch's diff: VS Code's own comment UI on the agent's side of every
// changed file of Review Changes (the gutter "+", a line or a range, Markdown, edit, delete), one
// thread per comment, listed in the Comments panel too. The threads are drawn from the shared
// reviews (so a reload, or another window, shows the same ones) on the round Review Changes showed
// last: a comment written on an earlier round is moved by git's diff between the two commits, or
// marked outdated when the agent changed its lines. Reading the branch is git, never the API.
import * as vscode from 'vscode';
import { findClone, type Clone } from '../git/branchReview';
import type { GitApi } from '../git/gitApi';
import { gitRunner } from '../git/gitProcess';
import type { WorkspaceGit } from '../git/workspaceGit';
import { jobLabel, type JobStore, type TrackedJob } from '../jobs/jobStore';
import { WordedFailure } from '../errorMessages';
import type { Logger } from '../log';
import { background } from '../util/background';
import { Disposable } from '../util/lifecycle';
import { type CommitDiff, mapLines, parseDiff, roundDiffArgs } from './reviewLines';
import { clockTime, type ReviewComment, type ReviewModel } from './reviewModel';
import { errorText } from '../util/errorText';

const REVIEW_CONTROLLER_ID = 'mintlifyAgent.review';

/** A comment as VS Code shows it; the commands on it get this object back. */
export class ReviewNote implements vscode.Comment {
  body: string | vscode.MarkdownString = '';
  mode = vscode.CommentMode.Preview;
  author: vscode.CommentAuthorInformation = { name: vscode.l10n.t('You') };
  contextValue?: string;
  label?: string;
  timestamp?: Date;

  constructor(
    readonly id: string,
    readonly jobId: string,
  ) {}
}

/** Where a comment shows on the round drawn, and whether its lines changed since it was written. */
interface Placement {
  path: string;
  commit: string;
  startLine: number;
  endLine: number;
  /** The agent changed the lines after the comment was written; `commit` is then the round drawn, or the comment's own when its file is gone. */
  outdated: boolean;
}

interface Shown {
  thread: vscode.CommentThread;
  note: ReviewNote;
  key: string;
  /** What the thread last showed: a change of it collapses or opens the thread; a redraw alone does not. */
  status?: 'pending' | 'sent';
  /** Everything the thread last showed: a redraw that would show the same leaves it alone. */
  drawn?: string;
}

/** The job a document of the agent's side belongs to, and the file in the repository. */
interface Round {
  jobId: string;
  commit: string;
  path: string;
}

export class ReviewThreads extends Disposable {
  readonly controller: vscode.CommentController;
  private readonly shown = new Map<string, Shown>();
  /** `root\0from\0to` → the files changed between two rounds (undefined: git could not tell). */
  private readonly diffs = new Map<string, Promise<CommitDiff | undefined>>();
  private drawing: Promise<void> | undefined;
  private drawAgain = false;
  /** Comments whose editor is open: a redraw leaves them as they are. */
  private readonly editing = new Set<string>();
  /** Every round Review Changes showed in this window: commit → job. A tab of an earlier one still takes comments. */
  private readonly rounds = new Map<string, string>();

  constructor(
    private readonly model: ReviewModel,
    private readonly jobs: JobStore,
    private readonly hints: WorkspaceGit,
    private readonly log: Logger,
  ) {
    super();
    this.controller = this.register(vscode.comments.createCommentController(REVIEW_CONTROLLER_ID, vscode.l10n.t('Review for the agent')));
    this.controller.options = { prompt: vscode.l10n.t('Comment for the agent…'), placeHolder: vscode.l10n.t('What should the agent change here? (Markdown)') };
    this.controller.commentingRangeProvider = { provideCommentingRanges: (document) => this.commentingRanges(document) };
    this.register({ dispose: () => [...this.shown.values()].forEach((s) => s.thread.dispose()) });
    for (const event of [model.onDidChange, jobs.onDidChange, hints.onDidChange])
      this.register(event(() => background(this.redraw(), log, 'drawing the review comments')));
    this.register(hints.onDidFetchRound(({ jobId, commit }) => this.rounds.set(commit, jobId)));
    background(this.redraw(), log, 'drawing the review comments');
  }

  /** Draws every thread again from the shared reviews (one drawing at a time; a request meanwhile runs after it). */
  redraw(): Promise<void> {
    if (this.drawing) {
      this.drawAgain = true;
      return this.drawing;
    }
    this.drawing = (async () => {
      do {
        this.drawAgain = false;
        try {
          await this.draw();
        } catch (error) {
          this.log.warn(`drawing the review comments failed: ${errorText(error)}`);
        }
      } while (this.drawAgain && !this.isDisposed);
      this.drawing = undefined;
    })();
    return this.drawing;
  }

  /** The comment a thread shows (a thread's title action hands the thread). */
  commentOf(thread: vscode.CommentThread): { jobId: string; id: string } | undefined {
    for (const [id, s] of this.shown) if (s.thread === thread) return { jobId: s.note.jobId, id };
    return undefined;
  }

  /** Opens the comment's editor; redraws leave it alone until stopEditing. */
  startEditing(note: ReviewNote, body: string): void {
    const s = this.shown.get(note.id);
    if (!s) return;
    this.editing.add(note.id);
    note.body = body;
    note.mode = vscode.CommentMode.Editing;
    s.thread.comments = [note];
  }

  /** Closes the comment's editor (Save or Cancel): it shows what the shared review holds. */
  stopEditing(note: ReviewNote): Promise<void> {
    this.editing.delete(note.id);
    const s = this.shown.get(note.id);
    if (s) s.drawn = undefined;
    return this.redraw();
  }

  /** The thread a comment shows in, if it is drawn. */
  threadOf(id: string): vscode.CommentThread | undefined {
    return this.shown.get(id)?.thread;
  }

  /**
   * The reply box's Add Comment on a new thread (the gutter "+"): the comment joins the job's pending
   * review, with its lines as the agent's version has them; on a tab of an earlier round (another
   * window, or Review Changes again, moved on) it is drawn on the latest one like every comment of
   * an earlier round. Resolves with its id, or undefined.
   */
  async add(reply: vscode.CommentReply): Promise<string | undefined> {
    const { thread, text } = reply;
    if (!text.trim()) return undefined;
    const round = await this.roundOf(thread.uri);
    if (!round) {
      // Nothing typed is lost: the words stay in the thread, to be copied where comments go.
      const draft = new ReviewNote(`draft.${Date.now().toString(36)}`, '');
      draft.body = text;
      draft.label = vscode.l10n.t('not added');
      draft.contextValue = 'draft';
      thread.comments = [draft];
      thread.canReply = false;
      thread.label = vscode.l10n.t("Not added: this file is not on a round of a tracked job's Review Changes");
      throw new WordedFailure(
        vscode.l10n.t(
          "Comments for the agent go on its side of a tracked job's Review Changes (the agent's version of each changed file). Your text is kept in its thread here: run Review Changes and copy it into a comment there.",
        ),
      );
    }
    const document = await vscode.workspace.openTextDocument(thread.uri);
    const range = thread.range ?? new vscode.Range(0, 0, 0, 0);
    // Whole lines, both ends included: the gutter's "+" and a drag over it give ranges from column 0 to column 0.
    const startLine = Math.min(range.start.line, document.lineCount - 1) + 1;
    const endLine = Math.max(startLine, Math.min(range.end.line, document.lineCount - 1) + 1);
    const lines = Array.from({ length: endLine - startLine + 1 }, (_, i) => document.lineAt(startLine - 1 + i).text);
    const id = this.model.newId();
    // Adopted before the model changes, so the redraw it starts keeps this thread instead of making another.
    this.shown.set(id, { thread, note: new ReviewNote(id, round.jobId), key: thread.uri.toString() });
    await this.model.put(round.jobId, id, { path: round.path, commit: round.commit, startLine, endLine, lines, body: text, createdAt: Date.now() });
    return id;
  }

  /** Where each of `comments` shows on the job's round, as draw() places it (for the prompt's line numbers). */
  async placements(tracked: TrackedJob, comments: readonly ReviewComment[]): Promise<Map<string, Placement>> {
    const out = new Map<string, Placement>();
    const api = await this.hints.git();
    const clone = api && tracked.job?.repository ? findClone(api, tracked.job.repository) : undefined;
    for (const c of comments) out.set(c.id, await this.place(clone, c, this.model.tip(tracked.id)));
    return out;
  }

  private async draw(): Promise<void> {
    const reviewed = this.jobs.all().filter((t) => this.model.comments(t.id).length);
    // Git is loaded only once there is a comment to draw: never at start for a window without one.
    const api = reviewed.length ? await this.hints.git() : undefined;
    const wanted = new Map<string, { tracked: TrackedJob; comment: ReviewComment; uri: vscode.Uri; placement: Placement }>();
    for (const tracked of api ? reviewed : []) {
      const comments = this.model.comments(tracked.id);
      const clone = tracked.job?.repository ? findClone(api!, tracked.job.repository) : undefined;
      if (!clone) continue;
      for (const comment of comments) {
        const placement = await this.place(clone, comment, this.model.tip(tracked.id));
        wanted.set(comment.id, { tracked, comment, placement, uri: gitUri(api!, clone, placement.path, placement.commit) });
      }
    }
    for (const [id, s] of this.shown) {
      if (wanted.has(id) || this.editing.has(id)) continue;
      s.thread.dispose();
      this.shown.delete(id);
    }
    for (const [id, w] of wanted) {
      let s = this.shown.get(id);
      if (s && s.key !== w.uri.toString()) {
        s.thread.dispose();
        s = undefined;
      }
      if (!s) {
        s = {
          thread: this.controller.createCommentThread(w.uri, new vscode.Range(0, 0, 0, 0), []),
          note: new ReviewNote(id, w.tracked.id),
          key: w.uri.toString(),
        };
        this.shown.set(id, s);
      }
      this.render(s, w.tracked, w.comment, w.placement);
    }
  }

  private render(s: Shown, tracked: TrackedJob, comment: ReviewComment, placement: Placement): void {
    const { thread, note } = s;
    if (this.editing.has(note.id)) return;
    const status = comment.sentAt === undefined ? 'pending' : 'sent';
    const label = [
      status === 'pending'
        ? vscode.l10n.t('Review for the agent: {0}', jobLabel(tracked))
        : vscode.l10n.t('Sent to the agent at {0}: {1}', clockTime(comment.sentAt!), jobLabel(tracked)),
      placement.outdated ? vscode.l10n.t('(outdated: the agent changed these lines)') : '',
    ]
      .filter(Boolean)
      .join(' ');
    const drawn = JSON.stringify([label, placement, comment.body, comment.createdAt, status]);
    if (s.drawn === drawn) return;
    s.drawn = drawn;
    thread.label = label;
    thread.range = new vscode.Range(placement.startLine - 1, 0, placement.endLine - 1, 0);
    thread.canReply = false;
    thread.contextValue = status;
    thread.state = status === 'pending' ? vscode.CommentThreadState.Unresolved : vscode.CommentThreadState.Resolved;
    if (s.status !== status)
      thread.collapsibleState = status === 'pending' ? vscode.CommentThreadCollapsibleState.Expanded : vscode.CommentThreadCollapsibleState.Collapsed;
    s.status = status;
    note.body = new vscode.MarkdownString(comment.body);
    note.mode = vscode.CommentMode.Preview;
    note.contextValue = status;
    note.label = placement.outdated ? vscode.l10n.t('outdated') : status === 'pending' ? vscode.l10n.t('pending') : vscode.l10n.t('sent');
    note.timestamp = new Date(comment.createdAt);
    thread.comments = [note];
  }

  /** Where `comment` shows when the round drawn is `tip`: its own lines, moved ones, or outdated. */
  private async place(clone: Clone | undefined, comment: ReviewComment, tip: string | undefined): Promise<Placement> {
    const own: Placement = { path: comment.path, commit: comment.commit, startLine: comment.startLine, endLine: comment.endLine, outdated: false };
    if (!tip || tip === comment.commit || !clone) return own;
    const diff = await this.diff(clone, comment.commit, tip);
    // Git cannot compare them (the older commit is not in this clone): the comment stays on its round.
    if (!diff) return own;
    const mapped = mapLines(diff, comment.path, comment.startLine, comment.endLine);
    if (mapped.kind === 'same') return { path: mapped.path, commit: tip, startLine: mapped.startLine, endLine: mapped.endLine, outdated: false };
    // Lines changed: shown at their place in the new round; a file that is gone keeps the comment on its own round.
    const span = comment.endLine - comment.startLine;
    return mapped.path === null
      ? { ...own, outdated: true }
      : { path: mapped.path, commit: tip, startLine: mapped.line, endLine: mapped.line + span, outdated: true };
  }

  private diff(clone: Clone, from: string, to: string): Promise<CommitDiff | undefined> {
    const root = clone.repository.rootUri.fsPath;
    const key = `${root}\u0000${from}\u0000${to}`;
    let diff = this.diffs.get(key);
    if (!diff) {
      diff = this.hints.git().then(async (api) => {
        if (!api) return undefined;
        try {
          return parseDiff(await gitRunner(api.git.path, root, { timeoutMs: 30_000 })(roundDiffArgs(from, to)));
        } catch (error) {
          this.log.warn(`comparing ${from.slice(0, 12)} with ${to.slice(0, 12)}: ${errorText(error)}`);
          this.diffs.delete(key); // tried again at the next redraw (the commit may be fetched by then)
          return undefined;
        }
      });
      this.diffs.set(key, diff);
    }
    return diff;
  }

  /** The job and file of a document on the agent's side of Review Changes: a git: URI at a job's round. */
  async roundOf(uri: vscode.Uri): Promise<Round | undefined> {
    if (uri.scheme !== 'git') return undefined;
    let ref: unknown;
    try {
      ref = (JSON.parse(uri.query) as { ref?: unknown }).ref;
    } catch {
      return undefined;
    }
    const api = typeof ref === 'string' ? await this.hints.git() : undefined;
    if (!api) return undefined;
    for (const tracked of this.jobs.all()) {
      if (!this.isRoundOf(tracked.id, ref as string) || !tracked.job?.repository) continue;
      const clone = findClone(api, tracked.job.repository);
      const root = clone?.repository.rootUri.path.replace(/\/+$/, '');
      if (root !== undefined && uri.path.startsWith(`${root}/`)) return { jobId: tracked.id, commit: ref as string, path: uri.path.slice(root.length + 1) };
    }
    return undefined;
  }

  /** A commit of the job's branch that Review Changes showed: the latest round, one shown in this window, or one a comment was written on. */
  private isRoundOf(jobId: string, commit: string): boolean {
    return this.model.tip(jobId) === commit || this.rounds.get(commit) === jobId || this.model.comments(jobId).some((c) => c.commit === commit);
  }

  /** Every line of the agent's version of a changed file takes comments; nothing else does. */
  private async commentingRanges(document: vscode.TextDocument): Promise<vscode.Range[] | undefined> {
    if (!(await this.roundOf(document.uri))) return undefined;
    return [new vscode.Range(0, 0, Math.max(0, document.lineCount - 1), 0)];
  }
}

function gitUri(api: GitApi, clone: Clone, path: string, commit: string): vscode.Uri {
  return api.toGitUri(vscode.Uri.joinPath(clone.repository.rootUri, ...path.split('/')), commit);
}

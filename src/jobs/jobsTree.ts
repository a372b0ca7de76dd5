// The "Agent Jobs" tree: one node per tracked job, a notice on top when polling has stopped.
// It listens to the store and refreshes only the node that changed.
import * as vscode from 'vscode';
import type { ApiError } from '../api';
import type { ApiKeyStore } from '../auth/apiKey';
import { failureView } from '../errorMessages';
import { Disposable } from '../util/lifecycle';
import { tickWhileVisible } from '../util/visibleTicker';
import type { JobTracker } from './jobTracker';
import { jobLabel, type JobStore, type TrackedJob } from './jobStore';
import { COMMANDS } from '../commands';
import { completedWord, type DirectLook, hasNoPullRequest, noPullRequestText } from './jobOutcome';

type StatusLook = { word: () => string; icon: string; color: string };

// Words are functions: vscode.l10n.t must run after the bundle is loaded, not at import time.
const LOOKS: Record<string, StatusLook> = {
  active: { word: () => vscode.l10n.t({ message: 'active', comment: ["An agent job's status."] }), icon: 'sync~spin', color: 'charts.blue' },
  completed: { word: () => vscode.l10n.t({ message: 'completed', comment: ["An agent job's status."] }), icon: 'pass', color: 'testing.iconPassed' },
  failed: { word: () => vscode.l10n.t({ message: 'failed', comment: ["An agent job's status."] }), icon: 'error', color: 'testing.iconFailed' },
  archived: { word: () => vscode.l10n.t({ message: 'archived', comment: ["An agent job's status."] }), icon: 'archive', color: 'disabledForeground' },
  unknown: { word: () => vscode.l10n.t('unknown status'), icon: 'question', color: 'charts.yellow' },
  notFound: { word: () => vscode.l10n.t('not found'), icon: 'warning', color: 'list.warningForeground' },
  pending: { word: () => vscode.l10n.t('checking…'), icon: 'loading~spin', color: 'foreground' },
  error: { word: () => vscode.l10n.t('error'), icon: 'warning', color: 'list.warningForeground' },
};

/** 'active', 'completed', …, 'notFound' or 'pending' (never read yet). */
export function statusKey(tracked: TrackedJob): string {
  if (tracked.notFound) return 'notFound';
  return tracked.job?.status ?? 'pending';
}

export function relativeTime(iso: string | undefined, now = Date.now()): string {
  const time = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(time)) return '';
  const seconds = Math.round((now - time) / 1000);
  if (seconds < 45) return vscode.l10n.t('just now');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return vscode.l10n.t('{0} min ago', minutes);
  const hours = Math.round(minutes / 60);
  if (hours < 24) return vscode.l10n.t('{0} h ago', hours);
  const days = Math.round(hours / 24);
  return days === 1 ? vscode.l10n.t('yesterday') : vscode.l10n.t('{0} days ago', days);
}

/** What another concern adds to a job's row: a word in its description, a line in its tooltip, a mark in its contextValue. */
export interface RowNote {
  text: string;
  tooltip: string;
  /** A word added to the contextValue, for the menus. */
  mark: string;
  /** Images shown below the tooltip's text (a preview's screenshots): each URL already checked as one to open (https, or loopback). */
  images?: { label: string; url: string }[];
}

export class JobNode extends vscode.TreeItem {
  constructor(
    readonly tracked: TrackedJob,
    error: ApiError | undefined,
    /** Its branch can be reviewed in this workspace (a clone of the job's repository). */
    reviewable = false,
    note?: RowNote,
    /** What git showed of it, completed without a pull request, after a fetch the writer allowed. */
    directLook?: DirectLook,
  ) {
    super(jobLabel(tracked), vscode.TreeItemCollapsibleState.None);
    const key = statusKey(tracked);
    const status = tracked.job?.status === 'unknown' ? vscode.l10n.t('unknown status “{0}”', tracked.job.reportedStatus) : LOOKS[key].word();
    const look = error && key !== 'notFound' ? LOOKS.error : LOOKS[key];
    const lastActivity = tracked.prompts.at(-1)?.sentAt ?? tracked.job?.createdAt ?? tracked.trackedAt;
    const parts = [status];
    if (tracked.job?.status === 'completed') parts.push(completedWord(tracked, directLook));
    if (reviewable) parts.push(vscode.l10n.t('review here'));
    if (note) parts.push(note.text);
    if (error && key !== 'notFound') parts.push(error.kind === 'rateLimited' ? vscode.l10n.t('rate limited') : vscode.l10n.t('cannot refresh'));
    parts.push(relativeTime(lastActivity));
    this.id = `job:${tracked.id}`;
    this.description = parts.filter(Boolean).join(' · ');
    this.iconPath = new vscode.ThemeIcon(look.icon, new vscode.ThemeColor(look.color));
    // A set of words (`job completed pr comments review`): each menu matches one (`viewItem =~ /\bpr\b/`), in any order.
    this.contextValue = ['job', key, tracked.job?.prLink && 'pr', note?.mark, reviewable && 'review'].filter(Boolean).join(' ');
    this.tooltip = tooltip(tracked, status, error);
    if (hasNoPullRequest(tracked)) this.tooltip.appendMarkdown('\n\n').appendText(noPullRequestText(tracked, directLook, reviewable));
    if (directLook?.kind === 'published')
      for (const commit of directLook.commits) this.tooltip.appendMarkdown('\n- ').appendText(`${commit.hash.slice(0, 7)} ${commit.subject}`);
    if (reviewable)
      this.tooltip.appendMarkdown(`\n\n${vscode.l10n.t("This workspace is a clone of the job's repository: Review Changes opens its branch here.")}`);
    if (note) this.tooltip.appendMarkdown('\n\n').appendText(note.tooltip);
    // The label is escaped as text; the URL, parsed, has its parentheses encoded so it cannot end the link.
    for (const image of note?.images ?? [])
      this.tooltip.appendMarkdown(`\n\n![${image.label.replace(/[\\[\]]/g, '')}](${new URL(image.url).href.replace(/\(/g, '%28').replace(/\)/g, '%29')})`);
    this.accessibilityInformation = { label: `${this.label as string}, ${this.description}` };
  }
}

function tooltip(tracked: TrackedJob, status: string, error: ApiError | undefined): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  // Everything from the API or the user goes in as text: appendText escapes Markdown.
  const row = (name: string, value: string | undefined) => {
    if (!value) return;
    md.appendMarkdown(`**${name}:** `);
    md.appendText(value);
    md.appendMarkdown('  \n');
  };
  const job = tracked.job;
  row(vscode.l10n.t('Job'), tracked.id);
  row(vscode.l10n.t('Status'), status);
  // Separate rows: the hover makes a link of the URL, and `repo@branch` would be a link to a 404.
  row(vscode.l10n.t('Repository'), job?.repository);
  row(vscode.l10n.t('Branch'), job?.ref);
  row(vscode.l10n.t('Model'), job?.model);
  row(vscode.l10n.t('Created'), job?.createdAt && new Date(job.createdAt).toLocaleString());
  row(vscode.l10n.t('Archived'), job?.archivedAt && new Date(job.archivedAt).toLocaleString());
  row(vscode.l10n.t('Pull request'), job?.prLink);
  if (job?.status === 'completed' && !job.prLink) row(vscode.l10n.t('Pull request'), vscode.l10n.t('none'));
  row(vscode.l10n.t('Last checked'), tracked.checkedAt && new Date(tracked.checkedAt).toLocaleString());
  // Worded by the shared failure table, as a notification about the same error would be.
  if (error) row(vscode.l10n.t('Last error'), failureView(error, 'readJob', vscode.l10n, { tracked: true }).message);
  if (tracked.notFound) row(vscode.l10n.t('Note'), vscode.l10n.t('The platform no longer knows this job (404). It is not polled.'));
  if (tracked.prompts.length) {
    md.appendMarkdown(`\n---\n\n**${vscode.l10n.t('Prompts')}**\n\n`);
    for (const prompt of tracked.prompts) {
      md.appendMarkdown(`- *${new Date(prompt.sentAt).toLocaleString()}*: `);
      md.appendText(prompt.text.length > 300 ? `${prompt.text.slice(0, 299)}…` : prompt.text);
      md.appendMarkdown('\n');
    }
  }
  if (tracked.unsentPrompt) row(vscode.l10n.t('Unsent prompt'), tracked.unsentPrompt.slice(0, 300));
  return md;
}

/** Shown above the jobs when polling has stopped because the key was refused. */
class NoticeNode extends vscode.TreeItem {
  constructor(message: string, command: vscode.Command) {
    super(message, vscode.TreeItemCollapsibleState.None);
    this.id = 'notice';
    this.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    this.command = command;
    this.contextValue = 'notice';
  }
}

type JobsTreeNode = JobNode | NoticeNode;

/** Whether a job's branch can be reviewed here (src/git); optional so the tree works without it. */
export interface ReviewHint {
  isReviewable(tracked: TrackedJob): boolean;
  /** What Review Changes found of a completed job without a pull request (its commits on the branch), undefined until it looked. */
  directLookOf?(tracked: TrackedJob): DirectLook | undefined;
  readonly onDidChange: vscode.Event<void>;
}

/** A concern that adds a note to jobs' rows (src/review: "3 comments to send"). */
export interface RowNotes {
  noteOf(tracked: TrackedJob): RowNote | undefined;
  readonly onDidChange: vscode.Event<void>;
}

export class JobsTreeProvider extends Disposable implements vscode.TreeDataProvider<JobsTreeNode> {
  private readonly emitter = this.register(new vscode.EventEmitter<JobsTreeNode | JobsTreeNode[] | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  private nodes = new Map<string, JobNode>();
  private readonly notes: RowNotes[] = [];

  constructor(
    private readonly store: JobStore,
    private readonly tracker: JobTracker,
    private readonly keys: ApiKeyStore,
    private readonly review?: ReviewHint,
  ) {
    super();
    if (review) this.register(review.onDidChange(() => this.redrawRows()));
    this.register(store.onDidChange((changed) => this.refresh(changed)));
    this.register(keys.onDidChange(() => this.refresh(undefined)));
    this.register(tracker.onDidChangePaused(() => this.refresh(undefined)));
  }

  /** Adds `notes` to the rows (the pending reviews, the previews: built after the tree), redrawn when they change. */
  addNotes(notes: RowNotes): void {
    this.notes.push(notes);
    this.register(notes.onDidChange(() => this.redrawRows()));
    this.redrawRows();
  }

  /** Every concern's note on a row, as one: the words joined, the tooltips in turn, each mark its own word. */
  private noteOf(tracked: TrackedJob): RowNote | undefined {
    const notes = this.notes.flatMap((n) => n.noteOf(tracked) ?? []);
    if (notes.length <= 1) return notes[0];
    return {
      text: notes.map((n) => n.text).join(' · '),
      tooltip: notes.map((n) => n.tooltip).join('\n\n'),
      mark: notes.map((n) => n.mark).join(' '),
      images: notes.flatMap((n) => n.images ?? []),
    };
  }

  /** Keeps "3 min ago" true while `view` is on screen: redrawn from the store, never a request. */
  keepTimesFresh(view: vscode.TreeView<JobsTreeNode>, everyMs = 30_000): void {
    this.register(tickWhileVisible(view, everyMs, () => this.redrawRows()));
  }

  /**
   * Redraws the rows of `changed`, or the whole list when it is undefined. Only a change of the
   * list itself redraws it whole: while VS Code asks for the list again, a command run from a row's
   * context menu receives no job (the row's handle is briefly unknown).
   */
  refresh(changed: readonly TrackedJob[] | undefined): void {
    if (!changed) return this.emitter.fire(undefined);
    // A row not drawn yet is drawn with the latest state when VS Code asks for the list.
    const nodes = changed.flatMap((job) => this.nodes.get(job.id) ?? []);
    if (nodes.length) this.emitter.fire(nodes);
  }

  /** Redraws every row in place (a new time, a new review hint): the list is the same. */
  private redrawRows(): void {
    if (this.nodes.size) this.emitter.fire([...this.nodes.values()]);
  }

  private nodeOf(tracked: TrackedJob): JobNode {
    return new JobNode(tracked, this.store.errorOf(tracked.id), this.review?.isReviewable(tracked), this.noteOf(tracked), this.review?.directLookOf?.(tracked));
  }

  getTreeItem(node: JobsTreeNode): vscode.TreeItem {
    if (node instanceof JobNode) {
      // Rebuild from the store so a per-node refresh shows the latest state.
      const tracked = this.store.get(node.tracked.id);
      return tracked ? this.nodeOf(tracked) : node;
    }
    return node;
  }

  getChildren(parent?: JobsTreeNode): JobsTreeNode[] {
    if (parent || !this.keys.hasKey || !this.store.projectId) return [];
    const jobs = this.store.all().map((t) => this.nodeOf(t));
    this.nodes = new Map(jobs.map((n) => [n.tracked.id, n]));
    if (!jobs.length || !this.tracker.poller.isPaused) return jobs;
    const notice = new NoticeNode(vscode.l10n.t('Polling stopped: the API key was not accepted. Set API Key…'), {
      command: COMMANDS.setApiKey,
      title: vscode.l10n.t('Set API Key'),
    });
    return [notice, ...jobs];
  }
}

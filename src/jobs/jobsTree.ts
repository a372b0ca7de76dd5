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

type StatusLook = { word: string; icon: string; color: string };

const LOOKS: Record<string, StatusLook> = {
  active: { word: 'active', icon: 'sync~spin', color: 'charts.blue' },
  completed: { word: 'completed', icon: 'pass', color: 'testing.iconPassed' },
  failed: { word: 'failed', icon: 'error', color: 'testing.iconFailed' },
  archived: { word: 'archived', icon: 'archive', color: 'disabledForeground' },
  unknown: { word: 'unknown status', icon: 'question', color: 'charts.yellow' },
  notFound: { word: 'not found', icon: 'warning', color: 'list.warningForeground' },
  pending: { word: 'checking…', icon: 'loading~spin', color: 'foreground' },
  error: { word: 'error', icon: 'warning', color: 'list.warningForeground' },
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
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return days === 1 ? 'yesterday' : `${days} days ago`;
}

export class JobNode extends vscode.TreeItem {
  constructor(
    readonly tracked: TrackedJob,
    error: ApiError | undefined,
    /** Its branch can be reviewed in this workspace (a clone of the job's repository). */
    reviewable = false,
  ) {
    super(jobLabel(tracked), vscode.TreeItemCollapsibleState.None);
    const key = statusKey(tracked);
    const status = tracked.job?.status === 'unknown' ? `${LOOKS.unknown.word} “${tracked.job.reportedStatus}”` : LOOKS[key].word;
    const look = error && key !== 'notFound' ? LOOKS.error : LOOKS[key];
    const lastActivity = tracked.prompts.at(-1)?.sentAt ?? tracked.job?.createdAt ?? tracked.trackedAt;
    const parts = [status];
    if (tracked.job?.status === 'completed') parts.push(tracked.job.prLink ? 'PR ready' : 'no changes');
    if (reviewable) parts.push(vscode.l10n.t('review here'));
    if (error && key !== 'notFound') parts.push(error.kind === 'rateLimited' ? 'rate limited' : 'cannot refresh');
    parts.push(relativeTime(lastActivity));
    this.id = `job:${tracked.id}`;
    this.description = parts.filter(Boolean).join(' · ');
    this.iconPath = new vscode.ThemeIcon(look.icon, new vscode.ThemeColor(look.color));
    this.contextValue = `job:${key}:${tracked.job?.prLink ? 'pr' : 'nopr'}${reviewable ? ':review' : ''}`;
    this.tooltip = tooltip(tracked, status, error);
    if (reviewable) this.tooltip.appendMarkdown(`\n\n${vscode.l10n.t('This workspace is a clone of the job\'s repository: Review Changes opens its branch here.')}`);
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
  row('Job', tracked.id);
  row('Status', status);
  // Separate rows: the hover makes a link of the URL, and `repo@branch` would be a link to a 404.
  row('Repository', job?.repository);
  row('Branch', job?.ref);
  row('Model', job?.model);
  row('Created', job?.createdAt && new Date(job.createdAt).toLocaleString());
  row('Archived', job?.archivedAt && new Date(job.archivedAt).toLocaleString());
  row('Pull request', job?.prLink);
  if (job?.status === 'completed' && !job.prLink) row('Pull request', 'none (no files changed)');
  row('Last checked', tracked.checkedAt && new Date(tracked.checkedAt).toLocaleString());
  // Worded by the shared failure table, as a notification about the same error would be.
  if (error) row('Last error', failureView(error, 'readJob', vscode.l10n, { tracked: true }).message);
  if (tracked.notFound) row('Note', 'The platform no longer knows this job (404). It is not polled.');
  if (tracked.prompts.length) {
    md.appendMarkdown('\n---\n\n**Prompts**\n\n');
    for (const prompt of tracked.prompts) {
      md.appendMarkdown(`- *${new Date(prompt.sentAt).toLocaleString()}*: `);
      md.appendText(prompt.text.length > 300 ? `${prompt.text.slice(0, 299)}…` : prompt.text);
      md.appendMarkdown('\n');
    }
  }
  if (tracked.unsentPrompt) row('Unsent prompt', tracked.unsentPrompt.slice(0, 300));
  return md;
}

/** Shown above the jobs when polling has stopped because the key was refused. */
export class NoticeNode extends vscode.TreeItem {
  constructor(message: string, command: vscode.Command) {
    super(message, vscode.TreeItemCollapsibleState.None);
    this.id = 'notice';
    this.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    this.command = command;
    this.contextValue = 'notice';
  }
}

export type JobsTreeNode = JobNode | NoticeNode;

/** Whether a job's branch can be reviewed here (src/git); optional so the tree works without it. */
export interface ReviewHint {
  isReviewable(tracked: TrackedJob): boolean;
  readonly onDidChange: vscode.Event<void>;
}

export class JobsTreeProvider extends Disposable implements vscode.TreeDataProvider<JobsTreeNode> {
  private readonly emitter = this.register(new vscode.EventEmitter<JobsTreeNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  private nodes = new Map<string, JobNode>();

  constructor(
    private readonly store: JobStore,
    private readonly tracker: JobTracker,
    private readonly keys: ApiKeyStore,
    private readonly review?: ReviewHint,
  ) {
    super();
    if (review) this.register(review.onDidChange(() => this.refresh(undefined)));
    this.register(store.onDidChange((changed) => this.refresh(changed)));
    this.register(keys.onDidChange(() => this.refresh(undefined)));
    this.register(tracker.onDidChangePaused(() => this.refresh(undefined)));
  }

  /** Keeps "3 min ago" true while `view` is on screen: redrawn from the store, never a request. */
  keepTimesFresh(view: vscode.TreeView<JobsTreeNode>, everyMs = 30_000): void {
    this.register(tickWhileVisible(view, everyMs, () => this.refresh(undefined)));
  }

  refresh(changed: TrackedJob | undefined): void {
    const node = changed && this.nodes.get(changed.id);
    this.emitter.fire(node ?? undefined);
  }

  getTreeItem(node: JobsTreeNode): vscode.TreeItem {
    if (node instanceof JobNode) {
      // Rebuild from the store so a per-node refresh shows the latest state.
      const tracked = this.store.get(node.tracked.id);
      return tracked ? new JobNode(tracked, this.store.errorOf(tracked.id), this.review?.isReviewable(tracked)) : node;
    }
    return node;
  }

  getChildren(parent?: JobsTreeNode): JobsTreeNode[] {
    if (parent || !this.keys.hasKey || !this.store.projectId) return [];
    const jobs = this.store.all().map((t) => new JobNode(t, this.store.errorOf(t.id), this.review?.isReviewable(t)));
    this.nodes = new Map(jobs.map((n) => [n.tracked.id, n]));
    if (!jobs.length || !this.tracker.poller.isPaused) return jobs;
    const notice = new NoticeNode('Polling stopped: the API key was not accepted. Set API Key…', {
      command: 'mintlifyAgent.setApiKey',
      title: 'Set API Key',
    });
    return [notice, ...jobs];
  }
}

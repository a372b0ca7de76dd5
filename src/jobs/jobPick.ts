// Which job a command is about: the one it was handed (a tree row or a job id from a notification or
// another command), or one the writer picks. Job commands, Review Changes and review comments all ask
// here, each with its own list and wording.
import * as vscode from 'vscode';
import type { Ui } from '../ui';
import { parseJobReference } from './jobReference';
import { jobLabel, type TrackedJob } from './jobStore';
import { JobNode } from './jobsTree';

/** The job id a command was handed: a job's tree row, or a non-empty id; undefined for anything else. */
export function jobIdOf(arg: unknown): string | undefined {
  if (arg instanceof JobNode) return arg.tracked.id;
  return typeof arg === 'string' && arg ? arg : undefined;
}

interface JobPickOptions {
  title: string;
  placeHolder?: string;
  /** Each row's second and third line. */
  describe(tracked: TrackedJob): { description?: string; detail?: string };
  /** Said instead of an empty list (when unset, the list opens even empty). */
  none?: string;
  /** A single job is taken without asking. */
  takeOnly?: boolean;
  /** Also offers a job ID typed in (one not in the list). */
  typed?: boolean;
}

interface JobPickItem extends vscode.QuickPickItem {
  jobId?: string;
}

/** A job from `jobs` picked by the writer, or undefined when they stopped. */
export async function pickJob(ui: Ui, jobs: readonly TrackedJob[], options: JobPickOptions): Promise<string | undefined> {
  const { title } = options;
  if (!jobs.length && options.none !== undefined) return void ui.showMessage('info', options.none);
  if (jobs.length === 1 && options.takeOnly) return jobs[0]?.id;
  const items: JobPickItem[] = jobs.map((t) => ({ label: jobLabel(t), ...options.describe(t), jobId: t.id }));
  if (options.typed) items.push({ label: `$(edit) ${vscode.l10n.t('Enter another job ID…')}`, alwaysShow: true });
  const picked = await ui.showQuickPick(items, { title, placeHolder: options.placeHolder, matchOnDetail: true, matchOnDescription: true });
  if (!picked) return undefined;
  if (picked.jobId) return picked.jobId;
  const id = await ui.showInputBox({
    title,
    prompt: vscode.l10n.t('The agent job ID (or a dashboard link that contains it)'),
    ignoreFocusOut: true,
    validateInput: (value) => (parseJobReference(value) ? undefined : vscode.l10n.t('Type a job ID.')),
  });
  return id === undefined ? undefined : parseJobReference(id);
}

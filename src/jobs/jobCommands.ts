// The agent-job commands: Send Follow-up, Track Job, Start New Job, Open Pull Request, Copy Job
// ID, Refresh, Refresh All, Stop Tracking. They ask, call the tracker, and explain failures with
// the button that fixes them. A prompt that failed to send is never lost.
import * as vscode from 'vscode';
import { ApiError } from '../api';
import { Action, describeFailure } from '../errorMessages';
import type { Logger } from '../log';
import { showFailure } from '../showFailure';
import type { Ui } from '../ui';
import { parseJobReference } from './jobReference';
import { jobLabel, type JobStore } from './jobStore';
import type { JobTracker } from './jobTracker';
import { JobNode, statusKey } from './jobsTree';

/** Commands get a tree node (inline/context menus) or a job id (notifications, other commands). */
type JobArg = JobNode | string | undefined;

function jobIdOf(arg: JobArg): string | undefined {
  if (arg instanceof JobNode) return arg.tracked.id;
  return typeof arg === 'string' && arg ? arg : undefined;
}

interface JobPickItem extends vscode.QuickPickItem {
  jobId?: string;
}

export function registerJobCommands(context: vscode.ExtensionContext, tracker: JobTracker, store: JobStore, ui: Ui, log: Logger): void {
  /** Tells the user what failed and offers what fixes it; Retry re-runs `retry`. */
  async function reportFailure(doing: string, error: unknown, options: { retry?: () => Promise<void>; jobId?: string } = {}): Promise<void> {
    if (error instanceof ApiError && error.kind === 'cancelled') return;
    log.error(`${doing}: ${error instanceof Error ? error.message : String(error)}`);
    const actions: string[] = [];
    if (error instanceof ApiError) {
      if (error.kind === 'noApiKey' || error.kind === 'unauthorized') actions.push(Action.setApiKey);
      else if (error.kind === 'invalidInput' && /project ID/i.test(error.message)) actions.push(Action.setProjectId);
      else if (error.kind === 'notFound' && options.jobId && store.get(options.jobId)) actions.push(Action.stopTracking);
      else if (error.isTransient && options.retry) actions.push(Action.retry);
    }
    actions.push(Action.showLog);
    const choice = await showFailure(ui, describeFailure(doing, error), actions);
    if (choice === Action.retry) await options.retry?.();
    else if (choice === Action.stopTracking && options.jobId) await tracker.stopTracking(options.jobId);
  }

  function withProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Thenable<T> {
    return ui.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      return task(controller.signal);
    });
  }

  async function pickJob(): Promise<string | undefined> {
    const items: JobPickItem[] = store.all().map((t) => ({
      label: jobLabel(t),
      description: statusKey(t) === 'notFound' ? 'not found' : (t.job?.status === 'unknown' ? t.job.reportedStatus : t.job?.status) ?? 'not checked yet',
      detail: t.id,
      jobId: t.id,
    }));
    items.push({ label: '$(edit) Enter another job ID…', alwaysShow: true });
    const picked = await ui.showQuickPick(items, { title: 'Send Follow-up to Agent Job', placeHolder: 'Pick a tracked job', matchOnDetail: true, matchOnDescription: true });
    if (!picked) return undefined;
    if (picked.jobId) return picked.jobId;
    const typed = await ui.showInputBox({
      title: 'Send Follow-up to Agent Job',
      prompt: 'The agent job ID (or a dashboard link that contains it)',
      ignoreFocusOut: true,
      validateInput: (value) => (parseJobReference(value) ? undefined : 'Type a job ID.'),
    });
    return typed === undefined ? undefined : parseJobReference(typed);
  }

  async function sendFollowUp(jobId: string, prompt: string): Promise<void> {
    const label = store.get(jobId) ? `“${jobLabel(store.get(jobId)!)}”` : jobId;
    try {
      await withProgress(`Sending follow-up to ${label}…`, (signal) => tracker.sendFollowUp(jobId, prompt, signal));
      void ui.showMessage('info', `Follow-up sent to ${label}. The agent is working on it; the tree shows when it finishes.`);
    } catch (error) {
      // The tracker kept the prompt as the job's unsent prompt; Retry sends the same text again.
      await reportFailure('Sending the follow-up', error, { jobId, retry: () => sendFollowUp(jobId, prompt) });
    }
  }

  const commands: Record<string, (...args: never[]) => unknown> = {
    // `preset`: a prompt the user already wrote and saw (Ask the Agent About This…); no second box.
    'mintlifyAgent.sendFollowUp': async (arg: JobArg, preset?: unknown) => {
      try {
        tracker.requireProject();
      } catch (error) {
        return reportFailure('Sending a follow-up', error);
      }
      const jobId = jobIdOf(arg) ?? (await pickJob());
      if (!jobId) return;
      const tracked = store.get(jobId);
      if (typeof preset === 'string' && preset.trim()) return sendFollowUp(jobId, preset);
      const prompt = await ui.showInputBox({
        title: `Follow-up to ${tracked ? `“${jobLabel(tracked)}”` : jobId}`,
        prompt: tracked?.job && tracked.job.status !== 'active' ? `This job is ${tracked.job.status}; the platform decides whether it takes a follow-up.` : 'What should the agent do next?',
        value: tracker.unsentPrompt(jobId) ?? '',
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() ? undefined : 'Type an instruction for the agent; an empty prompt cannot be sent.'),
      });
      if (prompt === undefined) return;
      if (!prompt.trim()) return reportFailure('Sending the follow-up', new ApiError('invalidInput', 'The prompt is empty.'));
      await sendFollowUp(jobId, prompt);
    },

    'mintlifyAgent.trackJob': async (initial?: string) => {
      const typed = await ui.showInputBox({
        title: 'Track Agent Job',
        prompt: 'An agent job ID, or a dashboard link that contains one',
        value: typeof initial === 'string' ? initial : '',
        ignoreFocusOut: true,
        validateInput: (value) => (parseJobReference(value) ? undefined : 'Paste a job ID or a link to the job.'),
      });
      const jobId = typed === undefined ? undefined : parseJobReference(typed);
      if (!jobId) return;
      try {
        await withProgress(`Looking up job ${jobId}…`, (signal) => tracker.track(jobId, signal));
      } catch (error) {
        if (error instanceof ApiError && error.kind === 'notFound') {
          void ui.showMessage('error', `No agent job "${jobId}" in project "${store.projectId}". Check the ID and that the project ID is the job's project. Nothing was tracked.`);
          return;
        }
        await reportFailure(`Tracking job ${jobId}`, error, { retry: () => vscode.commands.executeCommand('mintlifyAgent.trackJob', jobId) as Promise<void> });
      }
    },

    'mintlifyAgent.startJob': async (preset?: unknown) => {
      try {
        tracker.requireProject();
      } catch (error) {
        return reportFailure('Starting a job', error);
      }
      const prompt = typeof preset === 'string' && preset.trim() ? preset : await ui.showInputBox({
        title: 'Start New Agent Job',
        prompt: 'What should the agent change in your docs? It opens a pull request when it is done.',
        value: tracker.unsentCreatePrompt ?? '',
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() ? undefined : 'Type an instruction for the agent; an empty prompt cannot be sent.'),
      });
      if (prompt === undefined || !prompt.trim()) return;
      try {
        const tracked = await withProgress('Starting an agent job…', (signal) => tracker.create(prompt, signal));
        void ui.showMessage('info', `Agent job started: “${jobLabel(tracked)}”.`);
      } catch (error) {
        // Retry reopens the box with the prompt rather than sending it again: a create that
        // timed out may have been created.
        await reportFailure('Starting the job', error, {
          retry: () => vscode.commands.executeCommand('mintlifyAgent.startJob') as Promise<void>,
        });
      }
    },

    'mintlifyAgent.openPullRequest': async (arg: JobArg) => {
      const jobId = jobIdOf(arg);
      const link = jobId ? store.get(jobId)?.job?.prLink : undefined;
      if (!link) return void ui.showMessage('info', 'This job has no pull request (yet).');
      let uri: vscode.Uri;
      try {
        uri = vscode.Uri.parse(link, true);
      } catch {
        return void ui.showMessage('error', `The pull request link "${link}" is not a valid URL.`);
      }
      // The link comes from the API: open only web links, never command: or file: URIs.
      if (uri.scheme !== 'https' && uri.scheme !== 'http') return void ui.showMessage('error', `Refusing to open "${link}": not a web link.`);
      await ui.openExternal(uri);
    },

    'mintlifyAgent.copyJobId': async (arg: JobArg) => {
      const jobId = jobIdOf(arg);
      if (!jobId) return;
      await ui.writeClipboard(jobId);
      vscode.window.setStatusBarMessage(`Copied job ID ${jobId}`, 3000);
    },

    'mintlifyAgent.refreshJob': async (arg: JobArg) => {
      const jobId = jobIdOf(arg);
      if (jobId) await tracker.refresh(jobId);
    },

    'mintlifyAgent.refreshJobs': () => tracker.refreshAll(),

    'mintlifyAgent.stopTracking': async (arg: JobArg) => {
      const jobId = jobIdOf(arg);
      if (jobId) await tracker.stopTracking(jobId);
    },
  };

  for (const [id, handler] of Object.entries(commands)) {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: never[]) => {
        try {
          await handler(...args);
        } catch (error) {
          // No rejected promise escapes a command.
          await reportFailure(id.replace('mintlifyAgent.', ''), error);
        }
      }),
    );
  }
}

// The agent-job commands: Send Follow-up, Track Job, Start New Job, Open Pull Request, Copy Job
// ID, Refresh, Refresh All, Stop Tracking. They ask, call the tracker, and explain failures with
// the button that fixes them (the table in errorMessages.ts). A prompt that failed to send is never
// lost, and one whose answer was lost is never sent again without the user knowing.
import * as vscode from 'vscode';
import { ApiError, sendOutcome } from '../api';
import type { FailureContext } from '../errorMessages';
import type { Logger } from '../log';
import { reportFailure as reportFailureToUser } from '../reportFailure';
import { type Ui, withCancellableProgress } from '../ui';
import { parseJobReference } from './jobReference';
import { jobLabel, type JobStore } from './jobStore';
import type { JobTracker } from './jobTracker';
import { type JobNode, statusKey } from './jobsTree';
import { jobIdOf, pickJob } from './jobPick';
import { COMMANDS, type CommandId, type RegisterCommand } from '../commands';

/** Commands get a tree node (inline/context menus) or a job id (notifications, other commands). */
type JobArg = JobNode | string | undefined;

/**
 * What Start New Job and Send Follow-up resolve with when they were given a prompt to send (undefined
 * when the user stopped first): the job the prompt reached (the created job's id from the API's
 * answer, or the follow-up's job), or that it did not reach one, and whether that is certain. A
 * caller that remembers the job (the reader signals) uses exactly this id, never a guess.
 */
export type PromptSent = { sent: true; jobId: string } | { sent: false; outcomeUnknown: boolean };

/**
 * A caller that hands Send Follow-up its prompt may also want each try's outcome the moment it is
 * known: before a failure message waits for the writer (a notification's promise settles only when
 * it is answered or closed, long after its toast has hidden itself).
 */
export interface SendWatch {
  onOutcome(sent: PromptSent): void;
  /**
   * Asked before a Retry or Send Again the writer picked sends the prompt once more: false stops it,
   * the watcher having told the writer why (another window sends it, or sent it meanwhile). A caller
   * that sends from one window at a time claims the send again here.
   */
  again?(): Promise<boolean>;
}

const isSendWatch = (value: unknown): value is SendWatch =>
  typeof value === 'object' && value !== null && typeof (value as { onOutcome?: unknown }).onOutcome === 'function';

/** Stopped before any request (no project set): nothing can have arrived. */
const NOTHING_SENT: PromptSent = { sent: false, outcomeUnknown: false };
const notSent = (error: unknown): PromptSent => ({
  sent: false,
  outcomeUnknown: !(error instanceof ApiError && error.kind === 'rateLimited') && sendOutcome(error) === 'unknown',
});
/** The result of a Retry / Send Again the user picked in the failure message, if it was a send. */
const isPromptSent = (value: unknown): value is PromptSent =>
  typeof value === 'object' && value !== null && typeof (value as { sent?: unknown }).sent === 'boolean';

export function registerJobCommands(command: RegisterCommand, tracker: JobTracker, store: JobStore, ui: Ui, log: Logger): void {
  interface FailureHandlers {
    /** Safe to repeat (nothing was sent, or the server refused it): Retry. */
    retry?: () => Promise<unknown>;
    /** Repeats a send whose outcome is unknown: "Send Again (may duplicate)". */
    sendAgain?: () => Promise<unknown>;
    jobId?: string;
  }

  /** Tells the user what failed (src/reportFailure.ts) with the buttons these handlers honour, resolving with a Retry's or Send Again's result. */
  function reportFailure(context: FailureContext, error: unknown, handlers: FailureHandlers = {}): Promise<unknown> {
    const { jobId } = handlers;
    return reportFailureToUser({ ui, log }, error, {
      context,
      tracked: jobId !== undefined && store.get(jobId) !== undefined,
      on: {
        ...(handlers.retry && { retry: handlers.retry }),
        ...(handlers.sendAgain && { sendAgain: handlers.sendAgain }),
        ...(jobId && { openJob: () => openJob(jobId), stopTracking: () => tracker.stopTracking(jobId) }),
      },
    });
  }

  /** Shows the job in the Agent Jobs view, reading it afresh; an untracked job is tracked. */
  async function openJob(jobId: string): Promise<void> {
    if (!store.get(jobId)) return void (await vscode.commands.executeCommand(COMMANDS.trackJob, jobId));
    await vscode.commands.executeCommand('mintlifyAgent.jobs.focus');
    await tracker.refresh(jobId);
  }

  function withProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Thenable<T> {
    return withCancellableProgress(ui, title, task);
  }

  /** A tracked job picked by the user; `typed` also offers a job ID typed in (one not tracked). */
  function pickTracked(title: string, { typed = false } = {}): Promise<string | undefined> {
    return pickJob(ui, store.all(), {
      title,
      placeHolder: vscode.l10n.t('Pick a tracked job'),
      describe: (t) => ({
        description:
          statusKey(t) === 'notFound'
            ? vscode.l10n.t('not found')
            : ((t.job?.status === 'unknown' ? t.job.reportedStatus : t.job?.status) ?? vscode.l10n.t('not checked yet')),
        detail: t.id,
      }),
      typed,
    });
  }

  async function sendFollowUp(jobId: string, prompt: string, watch?: SendWatch): Promise<PromptSent> {
    const tracked = store.get(jobId);
    const label = tracked ? `“${jobLabel(tracked)}”` : jobId;
    const statusBefore = tracked?.job?.status;
    try {
      await withProgress(vscode.l10n.t('Sending follow-up to {0}…', label), (signal) => tracker.sendFollowUp(jobId, prompt, signal));
      watch?.onOutcome({ sent: true, jobId });
      void ui.showMessage('info', vscode.l10n.t('Follow-up sent to {0}. The agent is working on it; the tree shows when it finishes.', label));
      return { sent: true, jobId };
    } catch (error) {
      // The answer was lost: one read of the job may show that the message arrived.
      if (sendOutcome(error) === 'unknown' && !(error instanceof ApiError && error.kind === 'rateLimited')) {
        const confirmed = await withProgress(vscode.l10n.t('Checking whether {0} got the follow-up…', label), (signal) =>
          tracker.confirmFollowUp(jobId, prompt, statusBefore, signal),
        ).then(undefined, () => undefined);
        if (confirmed) {
          watch?.onOutcome({ sent: true, jobId });
          void ui.showMessage('info', vscode.l10n.t('Follow-up sent to {0}: its answer was lost, but the job shows it arrived and is working on it.', label));
          return { sent: true, jobId };
        }
      }
      watch?.onOutcome(notSent(error));
      // The tracker kept the prompt as the job's unsent prompt. Retry is offered only when nothing
      // can have arrived; "Send Again" says that it may duplicate. Either asks the watcher first.
      const once = async () => ((await (watch?.again?.() ?? true)) ? sendFollowUp(jobId, prompt, watch) : undefined);
      const again = await reportFailure('send', error, { jobId, retry: once, sendAgain: once });
      return isPromptSent(again) ? again : notSent(error);
    }
  }

  const commands: { [id in CommandId]?: (...args: never[]) => unknown } = {
    // `preset`: a prompt the user already wrote and saw (Ask the Agent About This…); no second box.
    // `watch`: told each try's outcome as soon as it is known (Send Review to Agent).
    [COMMANDS.sendFollowUp]: async (arg: JobArg, preset?: unknown, watch?: unknown) => {
      try {
        tracker.requireProject();
      } catch (error) {
        await reportFailure('send', error);
        return NOTHING_SENT;
      }
      const jobId = jobIdOf(arg) ?? (await pickTracked(vscode.l10n.t('Send Follow-up to Agent Job'), { typed: true }));
      if (!jobId) return;
      const tracked = store.get(jobId);
      if (typeof preset === 'string' && preset.trim()) return sendFollowUp(jobId, preset, isSendWatch(watch) ? watch : undefined);
      const prompt = await ui.showInputBox({
        title: tracked ? vscode.l10n.t('Follow-up to “{0}”', jobLabel(tracked)) : vscode.l10n.t('Follow-up to {0}', jobId),
        prompt:
          tracked?.job && tracked.job.status !== 'active'
            ? vscode.l10n.t({
                message: 'This job is {0}; the platform decides whether it takes a follow-up.',
                args: [tracked.job.status],
                comment: ['{0} is the job status as the API names it: completed, failed, archived…'],
              })
            : vscode.l10n.t('What should the agent do next?'),
        value: tracker.unsentPrompt(jobId) ?? '',
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Type an instruction for the agent; an empty prompt cannot be sent.')),
      });
      if (prompt === undefined) return;
      if (!prompt.trim()) return void (await reportFailure('send', new ApiError('invalidInput', vscode.l10n.t('The prompt is empty.'))));
      return sendFollowUp(jobId, prompt);
    },

    [COMMANDS.trackJob]: async (initial?: string) => {
      const typed = await ui.showInputBox({
        title: vscode.l10n.t('Track Agent Job'),
        prompt: vscode.l10n.t('An agent job ID, or a dashboard link that contains one'),
        value: typeof initial === 'string' ? initial : '',
        ignoreFocusOut: true,
        validateInput: (value) => (parseJobReference(value) ? undefined : vscode.l10n.t('Paste a job ID or a link to the job.')),
      });
      const jobId = typed === undefined ? undefined : parseJobReference(typed);
      if (!jobId) return;
      try {
        await withProgress(vscode.l10n.t('Looking up job {0}…', jobId), (signal) => tracker.track(jobId, signal));
      } catch (error) {
        if (error instanceof ApiError && error.kind === 'notFound') {
          void ui.showMessage(
            'error',
            vscode.l10n.t(
              'No agent job "{0}" in project "{1}". Check the ID and that the project ID is the job\'s project. Nothing was tracked.',
              jobId,
              store.projectId ?? '',
            ),
          );
          return;
        }
        await reportFailure('readJob', error, { retry: () => vscode.commands.executeCommand(COMMANDS.trackJob, jobId) as Promise<void> });
      }
    },

    [COMMANDS.startJob]: async (preset?: unknown) => {
      try {
        tracker.requireProject();
      } catch (error) {
        await reportFailure('create', error);
        return NOTHING_SENT;
      }
      const prompt =
        typeof preset === 'string' && preset.trim()
          ? preset
          : await ui.showInputBox({
              title: vscode.l10n.t('Start New Agent Job'),
              prompt: vscode.l10n.t('What should the agent change in your docs? It opens a pull request when it is done.'),
              value: tracker.unsentCreatePrompt ?? '',
              ignoreFocusOut: true,
              validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Type an instruction for the agent; an empty prompt cannot be sent.')),
            });
      if (prompt === undefined || !prompt.trim()) return;
      try {
        const tracked = await withProgress(vscode.l10n.t('Starting an agent job…'), (signal) => tracker.create(prompt, signal));
        void ui.showMessage('info', vscode.l10n.t('Agent job started: “{0}”.', jobLabel(tracked)));
        // The id from the create call's answer: the job this prompt made, whatever else holds the same text.
        return { sent: true, jobId: tracked.id } satisfies PromptSent;
      } catch (error) {
        // Retry (offered only when nothing can have been created) reopens the box with the prompt.
        const again = await reportFailure('create', error, {
          retry: async () => vscode.commands.executeCommand<PromptSent | undefined>(COMMANDS.startJob),
        });
        return isPromptSent(again) ? again : notSent(error);
      }
    },

    [COMMANDS.openPullRequest]: async (arg: JobArg) => {
      const jobId = jobIdOf(arg);
      const link = jobId ? store.get(jobId)?.job?.prLink : undefined;
      if (!link) return void ui.showMessage('info', vscode.l10n.t('This job has no pull request (yet).'));
      let uri: vscode.Uri;
      try {
        uri = vscode.Uri.parse(link, true);
      } catch {
        return void ui.showMessage('error', vscode.l10n.t('The pull request link "{0}" is not a valid URL.', link));
      }
      // The link comes from the API: open only web links, never command: or file: URIs.
      if (uri.scheme !== 'https' && uri.scheme !== 'http') return void ui.showMessage('error', vscode.l10n.t('Refusing to open "{0}": not a web link.', link));
      await ui.openExternal(uri);
    },

    [COMMANDS.copyJobId]: async (arg: JobArg) => {
      const jobId = jobIdOf(arg);
      if (!jobId) return;
      await ui.writeClipboard(jobId);
      vscode.window.setStatusBarMessage(vscode.l10n.t('Copied job ID {0}', jobId), 3000);
    },

    [COMMANDS.refreshJob]: async (arg: JobArg) => {
      const jobId = jobIdOf(arg);
      if (jobId) await tracker.refresh(jobId);
    },

    [COMMANDS.refreshJobs]: () => tracker.refreshAll(),

    // From the palette, or from a row whose job VS Code could not hand over (the list was being
    // redrawn as the menu item was clicked): the user picks the job rather than nothing happening.
    [COMMANDS.stopTracking]: async (arg: JobArg) => {
      const jobId = jobIdOf(arg) ?? (await pickTracked(vscode.l10n.t('Stop Tracking an Agent Job')));
      if (jobId) await tracker.stopTracking(jobId);
    },
  };

  for (const [id, handler] of Object.entries(commands) as [CommandId, (...args: never[]) => unknown][]) {
    command(id, async (...args: never[]) => {
      try {
        // Start New Job and Send Follow-up resolve with a PromptSent (the job the prompt reached).
        return await handler(...args);
      } catch (error) {
        // No rejected promise escapes a command.
        await reportFailure(id === COMMANDS.startJob ? 'create' : id === COMMANDS.sendFollowUp ? 'send' : 'readJob', error);
        return undefined;
      }
    });
  }
}

// What every agent-job command takes (`JobCommandPorts`), and what they share: the failure message
// with the job's buttons (Open Job, Stop Tracking), the cancellable progress, the job picker, and
// what a send resolves with. Each command is a file of its own beside this one, a function of these
// ports; jobCommands.ts only wires them.
import * as vscode from 'vscode';
import { ApiError, sendOutcome } from '../../api';
import type { RegisterCommand } from '../../commands';
import { COMMANDS } from '../../commands';
import type { FailureContext } from '../../errorMessages';
import type { Logger } from '../../log';
import { reportFailure } from '../../reportFailure';
import { type Ui, withCancellableProgress } from '../../ui';
import { pickJob } from '../jobPick';
import type { JobStore } from '../jobStore';
import type { JobTracker } from '../jobTracker';
import { statusKey } from '../jobsTree';

export interface JobCommandPorts {
  command: RegisterCommand;
  tracker: JobTracker;
  store: JobStore;
  ui: Ui;
  log: Logger;
}

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

/** Stopped before any request (no project set): nothing can have arrived. */
export const NOTHING_SENT: PromptSent = { sent: false, outcomeUnknown: false };

/** A send that failed: whether it may still have arrived. */
export const notSent = (error: unknown): PromptSent => ({
  sent: false,
  outcomeUnknown: !(error instanceof ApiError && error.kind === 'rateLimited') && sendOutcome(error) === 'unknown',
});

/** The result of a Retry / Send Again the user picked in the failure message, if it was a send. */
export const isPromptSent = (value: unknown): value is PromptSent =>
  typeof value === 'object' && value !== null && typeof (value as { sent?: unknown }).sent === 'boolean';

interface FailureHandlers {
  /** Safe to repeat (nothing was sent, or the server refused it): Retry. */
  retry?: () => Promise<unknown>;
  /** Repeats a send whose outcome is unknown: "Send Again (may duplicate)". */
  sendAgain?: () => Promise<unknown>;
  jobId?: string;
}

/** Tells the user what failed (src/reportFailure.ts) with the buttons these handlers honour, resolving with a Retry's or Send Again's result. */
export function reportJobFailure(ports: JobCommandPorts, context: FailureContext, error: unknown, handlers: FailureHandlers = {}): Promise<unknown> {
  const { store, tracker } = ports;
  const { jobId } = handlers;
  return reportFailure(ports, error, {
    context,
    tracked: jobId !== undefined && store.get(jobId) !== undefined,
    on: {
      ...(handlers.retry && { retry: handlers.retry }),
      ...(handlers.sendAgain && { sendAgain: handlers.sendAgain }),
      ...(jobId && { openJob: () => openJob(ports, jobId), stopTracking: () => tracker.stopTracking(jobId) }),
    },
  });
}

/** Shows the job in the Agent Jobs view, reading it afresh; an untracked job is tracked. */
async function openJob({ store, tracker }: JobCommandPorts, jobId: string): Promise<void> {
  if (!store.get(jobId)) return void (await vscode.commands.executeCommand(COMMANDS.trackJob, jobId));
  await vscode.commands.executeCommand('mintlifyAgent.jobs.focus');
  await tracker.refresh(jobId);
}

/** A notification with Cancel while `task` runs. */
export function withJobProgress<T>({ ui }: JobCommandPorts, title: string, task: (signal: AbortSignal) => Promise<T>): Thenable<T> {
  return withCancellableProgress(ui, title, task);
}

/** A tracked job picked by the user; `typed` also offers a job ID typed in (one not tracked). */
export function pickTracked({ ui, store }: JobCommandPorts, title: string, { typed = false } = {}): Promise<string | undefined> {
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

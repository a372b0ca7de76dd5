// Send Follow-up: a prompt to a job the agent already has. A prompt that failed to send is kept as
// the job's unsent prompt; one whose answer was lost is checked against the job, and never sent
// again without the writer choosing "Send Again (may duplicate)".
import * as vscode from 'vscode';
import { ApiError, sendOutcome } from '../../api';
import { jobIdOf } from '../jobPick';
import { jobLabel } from '../jobStore';
import type { JobNode } from '../jobsTree';
import {
  isPromptSent,
  type JobCommandPorts,
  NOTHING_SENT,
  notSent,
  pickTracked,
  type PromptSent,
  reportJobFailure,
  type SendWatch,
  withJobProgress,
} from './jobCommandPorts';

const isSendWatch = (value: unknown): value is SendWatch =>
  typeof value === 'object' && value !== null && typeof (value as { onOutcome?: unknown }).onOutcome === 'function';

/**
 * The command: `preset` is a prompt the user already wrote and saw (Ask the Agent About This…: no
 * second box); `watch` is told each try's outcome as soon as it is known (Send Review to Agent).
 */
export function sendFollowUpCommand(ports: JobCommandPorts) {
  const { tracker, store, ui } = ports;
  return async (arg: JobNode | string | undefined, preset?: unknown, watch?: unknown): Promise<PromptSent | undefined> => {
    try {
      tracker.requireProject();
    } catch (error) {
      await reportJobFailure(ports, 'send', error);
      return NOTHING_SENT;
    }
    const jobId = jobIdOf(arg) ?? (await pickTracked(ports, vscode.l10n.t('Send Follow-up to Agent Job'), { typed: true }));
    if (!jobId) return undefined;
    const tracked = store.get(jobId);
    if (typeof preset === 'string' && preset.trim()) return sendFollowUp(ports, jobId, preset, isSendWatch(watch) ? watch : undefined);
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
    if (prompt === undefined) return undefined;
    if (!prompt.trim()) return void (await reportJobFailure(ports, 'send', new ApiError('invalidInput', vscode.l10n.t('The prompt is empty.'))));
    return sendFollowUp(ports, jobId, prompt);
  };
}

/** Sends `prompt` to the job under a cancellable notification; resolves with where it went. */
async function sendFollowUp(ports: JobCommandPorts, jobId: string, prompt: string, watch?: SendWatch): Promise<PromptSent> {
  const { tracker, store, ui } = ports;
  const tracked = store.get(jobId);
  const label = tracked ? `“${jobLabel(tracked)}”` : jobId;
  const statusBefore = tracked?.job?.status;
  try {
    await withJobProgress(ports, vscode.l10n.t('Sending follow-up to {0}…', label), (signal) => tracker.sendFollowUp(jobId, prompt, signal));
    watch?.onOutcome({ sent: true, jobId });
    void ui.showMessage('info', vscode.l10n.t('Follow-up sent to {0}. The agent is working on it; the tree shows when it finishes.', label));
    return { sent: true, jobId };
  } catch (error) {
    // The answer was lost: one read of the job may show that the message arrived.
    if (sendOutcome(error) === 'unknown' && !(error instanceof ApiError && error.kind === 'rateLimited')) {
      const confirmed = await withJobProgress(ports, vscode.l10n.t('Checking whether {0} got the follow-up…', label), (signal) =>
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
    const once = async () => ((await (watch?.again?.() ?? true)) ? sendFollowUp(ports, jobId, prompt, watch) : undefined);
    const again = await reportJobFailure(ports, 'send', error, { jobId, retry: once, sendAgain: once });
    return isPromptSent(again) ? again : notSent(error);
  }
}

// The acting tools: start an agent job, send a follow-up, fetch reader signals. Each asks the writer
// first (prepareInvocation's confirmation: what will be sent, in full, and what it costs) and then
// goes through the same objects as the palette: the job tracker (which tracks and follows the job,
// keeps a prompt that failed, and never repeats a send whose answer was lost) and the signals store
// held to the hour's budget request by request. A failure is the tool's answer, not a notification
// waiting for a click, so the model's turn never hangs on a button.
import * as vscode from 'vscode';
import { ApiError, sendOutcome } from '../api';
import { cutShortText } from '../cutShortText';
import { failureView } from '../errorMessages';
import { MOST_REQUESTS, type SignalsList, type SignalsSnapshot } from '../signals/snapshot';
import { BACKGROUND_EVERY_MS } from '../signals/signalsStore';
import type { TrackedJob } from '../jobs/jobStore';
import { budgetUsed, type ConfirmedSpends, missingSetup, promptInput, textInput, type ToolDeps, type ToolInput, type ToolTable } from './toolDeps';
import { TOOLS } from './toolNames';

export function actingTools(deps: ToolDeps, spends: ConfirmedSpends): Pick<ToolTable, typeof TOOLS.startAgentJob | typeof TOOLS.sendFollowUp | typeof TOOLS.fetchReaderSignals> {
  /** Runs a send under the same cancellable notification as the palette's commands. */
  const sending = <T>(title: string, token: vscode.CancellationToken, send: (signal: AbortSignal) => Promise<T>) =>
    deps.ui.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, cancel) => {
      const stop = new AbortController();
      cancel.onCancellationRequested(() => stop.abort());
      token.onCancellationRequested(() => stop.abort());
      return send(stop.signal);
    });

  return {
    [TOOLS.startAgentJob]: {
      prepareInvocation: (input) => {
        const prompt = promptInput(input);
        if (missingSetup(deps) || !prompt) return undefined; // invoke() says what is missing; nothing to confirm
        return {
          invocationMessage: vscode.l10n.t('Starting a Mintlify agent job…'),
          confirmationMessages: {
            title: vscode.l10n.t('Start a Mintlify agent job?'),
            message: promptMessage(
              vscode.l10n.t('Sends this prompt to the Mintlify agent for project "{0}": one request to the agent API. The agent opens a pull request when it is done; the job is tracked in Agent Jobs.', deps.settings.projectId ?? ''),
              prompt,
            ),
          },
        };
      },
      invoke: async (input, token) => {
        const prompt = promptInput(input);
        const missing = missingSetup(deps) ?? (prompt ? undefined : vscode.l10n.t('The prompt is empty: nothing was sent.'));
        if (missing || !prompt) return missing ?? '';
        try {
          const tracked = await sending(vscode.l10n.t('Starting an agent job…'), token, (signal) => deps.tracker.create(prompt, signal));
          return vscode.l10n.t('Started agent job "{0}". It is tracked in the Agent Jobs view and followed until it finishes; {1} with its jobId reads its state.', tracked.id, TOOLS.agentJobs);
        } catch (error) {
          return notSentText(error, 'create');
        }
      },
    },

    [TOOLS.sendFollowUp]: {
      prepareInvocation: (input) => {
        const prompt = promptInput(input);
        const jobId = textInput(input, 'jobId');
        if (missingSetup(deps) || !prompt || !jobId) return undefined;
        const tracked = deps.jobs.get(jobId);
        return {
          invocationMessage: vscode.l10n.t('Sending a follow-up to agent job {0}…', jobId),
          confirmationMessages: {
            title: vscode.l10n.t('Send a follow-up to agent job {0}?', jobId),
            message: promptMessage(
              tracked
                ? vscode.l10n.t('Sends this prompt to the tracked job ({0}): one request to the agent API.', tracked.job?.status ?? vscode.l10n.t('not checked yet'))
                : vscode.l10n.t('Sends this prompt to job {0}, which is not tracked here: one request to the agent API.', jobId),
              prompt,
            ),
          },
        };
      },
      invoke: async (input, token) => {
        const prompt = promptInput(input);
        const jobId = textInput(input, 'jobId');
        const missing = missingSetup(deps) ?? (!jobId ? vscode.l10n.t('No jobId: name the job to follow up (get_mintlifyAgentJobs lists them).') : !prompt ? vscode.l10n.t('The prompt is empty: nothing was sent.') : undefined);
        if (missing || !prompt || !jobId) return missing ?? '';
        const statusBefore = deps.jobs.get(jobId)?.job?.status;
        const sent = (job: TrackedJob) => vscode.l10n.t('Follow-up sent to agent job "{0}" ({1}). The Agent Jobs view shows when it finishes.', job.id, job.job?.status ?? '');
        try {
          return sent(await sending(vscode.l10n.t('Sending follow-up to {0}…', jobId), token, (signal) => deps.tracker.sendFollowUp(jobId, prompt, signal)));
        } catch (error) {
          // The answer was lost: one read of the job may show that the message arrived (as the palette does).
          if (sendOutcome(error) === 'unknown' && !(error instanceof ApiError && error.kind === 'rateLimited')) {
            const confirmed = await deps.tracker.confirmFollowUp(jobId, prompt, statusBefore).catch(() => undefined);
            if (confirmed) return sent(confirmed);
          }
          return notSentText(error, 'send');
        }
      },
    },

    [TOOLS.fetchReaderSignals]: {
      prepareInvocation: (input) => {
        spends.offer(TOOLS.fetchReaderSignals, input, undefined);
        if (missingSetup(deps) || recentSignals(deps, input)) return undefined; // nothing to send: nothing to confirm
        const last = deps.signals.store.current()?.requests;
        const question = deps.gate.question({ what: vscode.l10n.t('Fetching the last 30 days of reader signals for project "{0}"', deps.settings.projectId ?? ''), estimate: last ?? MOST_REQUESTS, upTo: last === undefined });
        if (question.fits === 0) return undefined; // invoke() says none is left
        spends.offer(TOOLS.fetchReaderSignals, input, question.fits);
        return {
          invocationMessage: vscode.l10n.t('Fetching reader signals…'),
          confirmationMessages: { title: vscode.l10n.t('Fetch reader signals?'), message: question.message },
        };
      },
      invoke: async (input) => {
        const missing = missingSetup(deps);
        if (missing) return missing;
        const recent = recentSignals(deps, input);
        if (recent) {
          const minutes = Math.max(0, Math.round((Date.now() - Date.parse(recent.fetchedAt)) / 60_000));
          return vscode.l10n.t('Nothing was fetched: the reader signals kept were fetched {0} min ago ({1}), and {2} and {3} read them with no request. Call this tool with refresh: true only if the writer wants them fetched again.', minutes, recent.fetchedAt, TOOLS.gapInbox, TOOLS.readerEvidence);
        }
        // Only what the writer said yes to in this call's dialog is spent.
        const allowed = spends.take(TOOLS.fetchReaderSignals, input);
        if (deps.gate.left() === 0) return budgetUsed(deps);
        if (allowed === undefined) return vscode.l10n.t('Nothing was fetched: the writer did not confirm the cost.');
        const grant = deps.gate.granted(allowed);
        const outcome = await deps.ui.withProgress({ location: { viewId: 'mintlifyAgent.signals' }, title: vscode.l10n.t('Fetching reader signals…') }, () => deps.signals.store.refresh({ grant }));
        if (outcome.kind === 'skipped') return vscode.l10n.t('Nothing was fetched ({0}).', outcome.reason);
        const { snapshot } = outcome;
        const names: Record<SignalsList, string> = { byPage: 'Votes', pending: 'Pending feedback', questions: 'Assistant questions', searches: 'Searches', views: 'Views' };
        const cuts = Object.entries(snapshot.cutShort ?? {}).map(([list, cut]) => cutShortText(names[list as SignalsList], cut, vscode.l10n));
        return [
          vscode.l10n.t('Fetched the reader signals of {0} to {1} (exclusive) with {2} analytics requests. {3} and {4} now read them with no request.', snapshot.range.dateFrom, snapshot.range.dateTo, snapshot.requests, TOOLS.gapInbox, TOOLS.readerEvidence),
          ...cuts,
        ].join(' ');
      },
    },
  };
}

/** The kept signals when they are under an hour old and the call does not ask for a refresh: answered with no request. */
function recentSignals(deps: ToolDeps, input: ToolInput): SignalsSnapshot | undefined {
  const kept = deps.signals.store.current();
  return kept && input.refresh !== true && Date.now() - Date.parse(kept.fetchedAt) < BACKGROUND_EVERY_MS ? kept : undefined;
}

/** The cost, then the prompt exactly as it will be sent, in a fence no backtick run inside it can close. */
function promptMessage(cost: string, prompt: string): vscode.MarkdownString {
  const fence = '`'.repeat(Math.max(3, ...[...prompt.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  // The dialog outside a chat shows the message as plain text, where a fence disappears: the label says where the prompt starts.
  const message = new vscode.MarkdownString(`${cost}\n\n${vscode.l10n.t('The prompt, exactly as it will be sent:')}\n\n${fence}text\n${prompt}\n${fence}`);
  message.supportHtml = false;
  message.isTrusted = false;
  return message;
}

/** Why a prompt reached no job, or that it is not known whether it did: never sent again from here. */
function notSentText(error: unknown, context: 'create' | 'send'): string {
  const view = failureView(error, context, vscode.l10n);
  if (view.severity === 'none') return vscode.l10n.t('Cancelled: nothing was sent.');
  const unknown = sendOutcome(error) === 'unknown' && !(error instanceof ApiError && error.kind === 'rateLimited');
  return unknown
    ? vscode.l10n.t('{0} It was not sent again, since that could duplicate it: ask the writer to check the Agent Jobs view before trying again.', view.message)
    : vscode.l10n.t('{0} The prompt is kept for the next try.', view.message);
}

// The acting tools: start an agent job, send a follow-up, fetch reader signals. Each asks the writer
// first (prepareInvocation's confirmation: what will be sent, in full, and what it costs; for the
// start and follow-up tools a contract, src/tools/confirmedTool.ts: invoke sends exactly what the
// dialog showed, or nothing if the project, the job or the prompt reads differently by then) and then
// goes through the same objects as the palette: the job tracker (which tracks and follows the job,
// keeps a prompt that failed, and never repeats a send whose answer was lost) and the signals store
// held to its grant request by request. A failure is the tool's answer, not a notification
// waiting for a click, so the model's turn never hangs on a button.
import * as vscode from 'vscode';
import { withCancellableProgress } from '../ui';
import { ApiError, sendOutcome } from '../api';
import { cutShortText } from '../cutShortText';
import { failureView } from '../errorMessages';
import { MOST_REQUESTS, type SignalsList, type SignalsSnapshot } from '../signals/snapshot';
import { BACKGROUND_EVERY_MS } from '../signals/signalsStore';
import type { TrackedJob } from '../jobs/jobStore';
import { showInvisible } from '../util/visibleText';
import { Blocked, type Confirmations } from './confirmation';
import { confirmedTool } from './confirmedTool';
import { notGrantedText, missingSetup, modelNotGranted, promptInput, textInput, type ToolPorts, type ToolInput, type ToolTable } from './toolPorts';
import { TOOLS } from './toolNames';

/** `confirmations`: what each dialog showed, for its invoke to send exactly that (src/tools/confirmation.ts). */
export function actingTools(
  deps: ToolPorts,
  confirmations: Confirmations,
): Pick<ToolTable, typeof TOOLS.startAgentJob | typeof TOOLS.sendFollowUp | typeof TOOLS.fetchReaderSignals> {
  /** Runs a send under the same cancellable notification as the palette's commands. */
  const sending = <T>(title: string, token: vscode.CancellationToken, send: (signal: AbortSignal) => Promise<T>) =>
    withCancellableProgress(deps.ui, title, send, token);

  return {
    [TOOLS.startAgentJob]: confirmedTool<{ project: string; prompt: string }>(TOOLS.startAgentJob, confirmations, {
      terms: (input) => {
        const missing = missingSetup(deps);
        const prompt = promptInput(input);
        if (missing) return new Blocked(missing);
        if (!prompt) return new Blocked(vscode.l10n.t('The prompt is empty.'));
        return { project: deps.settings.projectId ?? '', prompt };
      },
      dialog: (terms) => ({
        invocationMessage: vscode.l10n.t('Starting a Mintlify agent job…'),
        title: vscode.l10n.t('Start a Mintlify agent job?'),
        message:
          terms instanceof Blocked
            ? cannotSend(terms)
            : promptMessage(
                vscode.l10n.t(
                  'Sends this prompt to the Mintlify agent for project "{0}": one request to the agent API. The agent opens a pull request when it is done; the job is tracked in Agent Jobs.',
                  showInvisible(terms.project),
                ),
                terms.prompt,
              ),
      }),
      fieldNames: { project: vscode.l10n.t('the project'), prompt: vscode.l10n.t('the prompt') },
      send: async ({ project, prompt }, token) => {
        try {
          const tracked = await sending(vscode.l10n.t('Starting an agent job…'), token, (signal) => deps.tracker.create(prompt, signal, project));
          return vscode.l10n.t(
            'Started agent job "{0}". It is tracked in the Agent Jobs view and followed until it finishes; {1} with its jobId reads its state.',
            tracked.id,
            TOOLS.agentJobs,
          );
        } catch (error) {
          return notSentText(error, 'create');
        }
      },
    }),

    [TOOLS.sendFollowUp]: confirmedTool<{ project: string; jobId: string; prompt: string }>(TOOLS.sendFollowUp, confirmations, {
      terms: (input) => {
        const missing = missingSetup(deps);
        const prompt = promptInput(input);
        const jobId = textInput(input, 'jobId');
        if (missing) return new Blocked(missing);
        if (!jobId) return new Blocked(vscode.l10n.t('No jobId: name the job to follow up (get_mintlifyAgentJobs lists them).'));
        if (!prompt) return new Blocked(vscode.l10n.t('The prompt is empty.'));
        return { project: deps.settings.projectId ?? '', jobId, prompt };
      },
      dialog: (terms) => {
        if (terms instanceof Blocked)
          return {
            invocationMessage: vscode.l10n.t('Sending a follow-up…'),
            title: vscode.l10n.t('Send a follow-up to an agent job?'),
            message: cannotSend(terms),
          };
        const job = showInvisible(terms.jobId);
        const project = showInvisible(terms.project);
        const tracked = deps.jobs.get(terms.jobId);
        return {
          invocationMessage: vscode.l10n.t('Sending a follow-up to agent job {0}…', job),
          title: vscode.l10n.t('Send a follow-up to agent job {0}?', job),
          message: promptMessage(
            tracked
              ? vscode.l10n.t(
                  'Sends this prompt to the tracked job ({0}) of project "{1}": one request to the agent API.',
                  tracked.job?.status ?? vscode.l10n.t('not checked yet'),
                  project,
                )
              : vscode.l10n.t('Sends this prompt to job {0} of project "{1}", which is not tracked here: one request to the agent API.', job, project),
            terms.prompt,
          ),
        };
      },
      fieldNames: { project: vscode.l10n.t('the project'), jobId: vscode.l10n.t('the job'), prompt: vscode.l10n.t('the prompt') },
      send: async ({ project, jobId, prompt }, token) => {
        const statusBefore = deps.jobs.get(jobId)?.job?.status;
        const sent = (job: TrackedJob) =>
          vscode.l10n.t('Follow-up sent to agent job "{0}" ({1}). The Agent Jobs view shows when it finishes.', job.id, job.job?.status ?? '');
        try {
          return sent(
            await sending(vscode.l10n.t('Sending follow-up to {0}…', jobId), token, (signal) => deps.tracker.sendFollowUp(jobId, prompt, signal, project)),
          );
        } catch (error) {
          // The answer was lost: one read of the job may show that the message arrived (as the palette does).
          if (sendOutcome(error) === 'unknown' && !(error instanceof ApiError && error.kind === 'rateLimited')) {
            const confirmed = await deps.tracker.confirmFollowUp(jobId, prompt, statusBefore, undefined, project).catch(() => undefined);
            if (confirmed) return sent(confirmed);
          }
          return notSentText(error, 'send');
        }
      },
    }),

    [TOOLS.fetchReaderSignals]: {
      prepareInvocation: (input) => {
        const project = deps.settings.projectId ?? '';
        // Answered from the kept signals: nothing to send, no dialog, and this call's invoke spends nothing.
        if (recentSignals(deps, input)) return void confirmations.shown(TOOLS.fetchReaderSignals, input, new Blocked('kept'));
        const title = vscode.l10n.t('Fetch reader signals?');
        const blocked = (reason: string) => {
          confirmations.shown(TOOLS.fetchReaderSignals, input, new Blocked(reason));
          return { invocationMessage: vscode.l10n.t('Fetching reader signals…'), confirmationMessages: { title, message: cannotSend(new Blocked(reason)) } };
        };
        const missing = missingSetup(deps);
        if (missing) return blocked(missing);
        const last = deps.signals.current()?.requests;
        const question = deps.gate.question({
          what: vscode.l10n.t('Fetching the last 30 days of reader signals for project "{0}"', showInvisible(project)),
          estimate: last ?? MOST_REQUESTS,
          upTo: last === undefined,
          cap: MOST_REQUESTS,
          forModel: true,
        });
        if (question.fits === 0) return blocked(question.message);
        confirmations.shown(TOOLS.fetchReaderSignals, input, { project, allowed: question.fits });
        return {
          invocationMessage: vscode.l10n.t('Fetching reader signals…'),
          confirmationMessages: { title, message: question.message },
        };
      },
      invoke: async (input) => {
        const missing = missingSetup(deps);
        if (missing) return missing;
        const recent = recentSignals(deps, input);
        if (recent) {
          const minutes = Math.max(0, Math.round((Date.now() - Date.parse(recent.fetchedAt)) / 60_000));
          return vscode.l10n.t(
            'Nothing was fetched: the reader signals kept were fetched {0} min ago ({1}), and {2} and {3} read them with no request. Call this tool with refresh: true only if the writer wants them fetched again.',
            minutes,
            recent.fetchedAt,
            TOOLS.gapInbox,
            TOOLS.readerEvidence,
          );
        }
        // Only what the writer said yes to in this call's dialog is spent, for the project it named.
        const verdict = confirmations.verdict(TOOLS.fetchReaderSignals, input, { project: deps.settings.projectId ?? '', allowed: 0 }, ['project']);
        if (modelNotGranted(deps)) return notGrantedText(deps);
        if (verdict.kind === 'changed')
          return vscode.l10n.t(
            'Nothing was fetched: the project changed after the writer confirmed. Call the tool again, so the writer confirms what would be fetched now.',
          );
        if (verdict.kind !== 'send') return vscode.l10n.t('Nothing was fetched: the writer did not confirm the cost.');
        const grant = deps.gate.granted(verdict.terms.allowed, true);
        const outcome = await deps.ui.withProgress({ location: { viewId: 'mintlifyAgent.signals' }, title: vscode.l10n.t('Fetching reader signals…') }, () =>
          deps.signals.refresh({ grant }).finally(() => grant.end()),
        );
        if (outcome.kind === 'skipped' && outcome.reason === 'notGranted') return notGrantedText(deps);
        if (outcome.kind === 'skipped') return vscode.l10n.t('Nothing was fetched ({0}).', outcome.reason);
        const { snapshot } = outcome;
        const names: Record<SignalsList, string> = {
          byPage: 'Votes',
          pending: 'Pending feedback',
          questions: 'Assistant questions',
          searches: 'Searches',
          views: 'Views',
        };
        const cuts = Object.entries(snapshot.cutShort ?? {}).map(([list, cut]) => cutShortText(names[list as SignalsList], cut, vscode.l10n));
        return [
          vscode.l10n.t(
            'Fetched the reader signals of {0} to {1} (exclusive) with {2} analytics requests. {3} and {4} now read them with no request.',
            snapshot.range.dateFrom,
            snapshot.range.dateTo,
            snapshot.requests,
            TOOLS.gapInbox,
            TOOLS.readerEvidence,
          ),
          ...cuts,
        ].join(' ');
      },
    },
  };
}

/** The kept signals when they are under an hour old and the call does not ask for a refresh: answered with no request. */
function recentSignals(deps: ToolPorts, input: ToolInput): SignalsSnapshot | undefined {
  const kept = deps.signals.current();
  return kept && input.refresh !== true && Date.now() - Date.parse(kept.fetchedAt) < BACKGROUND_EVERY_MS ? kept : undefined;
}

/** The dialog of a call that cannot send: the reason, and that Yes sends nothing. */
function cannotSend(blocked: Blocked): string {
  return vscode.l10n.t('Nothing can be sent: {0} Yes sends nothing.', blocked.reason);
}

/**
 * The cost, then the prompt exactly as it will be sent, in a fence no backtick run inside it can
 * close; characters that are invisible or turn the text's direction (which a model that read an
 * injection can write) are shown as `\u202e` escapes, as the prompt preview marks them.
 */
function promptMessage(cost: string, prompt: string): vscode.MarkdownString {
  const shown = showInvisible(prompt);
  const fence = '`'.repeat(Math.max(3, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  // The dialog outside a chat shows the message as plain text, where a fence disappears: the label says where the prompt starts.
  const label = vscode.l10n.t('The prompt, exactly as it will be sent (invisible and direction characters shown as \\u escapes):');
  const message = new vscode.MarkdownString(`${cost}\n\n${label}\n\n${fence}text\n${shown}\n${fence}`);
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

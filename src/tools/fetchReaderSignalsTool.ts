// The tool fetch_mintlifyReaderSignals: fetches the reader signals after the writer's yes to the
// cost in its dialog, held to its grant request by request through the signals store (as the
// palette's fetch); answered from the kept signals, with no dialog and no request, while they are
// under an hour old and the model does not ask for a refresh.
import * as vscode from 'vscode';
import { cutShortText } from '../cutShortText';
import { MOST_REQUESTS, type SignalsList, type SignalsSnapshot } from '../signals/snapshot';
import { BACKGROUND_EVERY_MS } from '../signals/signalsStore';
import { showInvisible } from '../util/visibleText';
import { cannotSend } from './actingTexts';
import { Blocked, type Confirmations } from './confirmation';
import { notGrantedText, missingSetup, modelNotGranted, type TextTool, type ToolPorts, type ToolInput } from './toolPorts';
import { TOOLS } from './toolNames';

/** `confirmations`: what each dialog offered, so that only its own invoke spends it (src/tools/confirmation.ts). */
export function fetchReaderSignalsTool(ports: ToolPorts, confirmations: Confirmations): TextTool {
  return {
    prepareInvocation: (input) => {
      const project = ports.settings.projectId ?? '';
      // Answered from the kept signals: nothing to send, no dialog, and this call's invoke spends nothing.
      if (recentSignals(ports, input)) return void confirmations.shown(TOOLS.fetchReaderSignals, input, new Blocked('kept'));
      const title = vscode.l10n.t('Fetch reader signals?');
      const blocked = (reason: string) => {
        confirmations.shown(TOOLS.fetchReaderSignals, input, new Blocked(reason));
        return { invocationMessage: vscode.l10n.t('Fetching reader signals…'), confirmationMessages: { title, message: cannotSend(new Blocked(reason)) } };
      };
      const missing = missingSetup(ports);
      if (missing) return blocked(missing);
      const last = ports.signals.current()?.requests;
      const question = ports.gate.question({
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
      const missing = missingSetup(ports);
      if (missing) return missing;
      const recent = recentSignals(ports, input);
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
      const verdict = confirmations.verdict(TOOLS.fetchReaderSignals, input, { project: ports.settings.projectId ?? '', allowed: 0 }, ['project']);
      if (modelNotGranted(ports)) return notGrantedText(ports);
      if (verdict.kind === 'changed')
        return vscode.l10n.t(
          'Nothing was fetched: the project changed after the writer confirmed. Call the tool again, so the writer confirms what would be fetched now.',
        );
      if (verdict.kind !== 'send') return vscode.l10n.t('Nothing was fetched: the writer did not confirm the cost.');
      const grant = ports.gate.granted(verdict.terms.allowed, true);
      const outcome = await ports.ui.withProgress({ location: { viewId: 'mintlifyAgent.signals' }, title: vscode.l10n.t('Fetching reader signals…') }, () =>
        ports.signals.refresh({ grant }).finally(() => grant.end()),
      );
      if (outcome.kind === 'skipped' && outcome.reason === 'notGranted') return notGrantedText(ports);
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
  };
}

/** The kept signals when they are under an hour old and the call does not ask for a refresh: answered with no request. */
function recentSignals(ports: ToolPorts, input: ToolInput): SignalsSnapshot | undefined {
  const kept = ports.signals.current();
  return kept && input.refresh !== true && Date.now() - Date.parse(kept.fetchedAt) < BACKGROUND_EVERY_MS ? kept : undefined;
}

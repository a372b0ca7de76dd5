// The tool get_mintlifyVisitors: the readers' visitors of a range, from the kept snapshot while it is
// fresh; else the tool asks the writer first, in its confirmation dialog (the cost and what the hour
// has left), and fetches only after that yes, held to what the dialog offered: nothing the model
// does spends the organisation's hour unasked.
import * as vscode from 'vscode';
import { resolvePreset } from '../analytics/dateRange';
import type { VisitorsSnapshot } from '../analytics/visitorsSnapshot';
import { isFreshFor } from '../analytics/visitorsSnapshot';
import { isApiError } from '../api';
import { failureView } from '../errorMessages';
import { PausedError, type RangeNow } from '../readers/pageReaders';
import { PRESETS, type PresetId } from '../shared/protocol';
import { toAbortSignal } from '../util/cancellation';
import { localToday } from '../util/days';
import { Blocked, type Confirmations } from './confirmation';
import { notGrantedText, missingSetup, modelNotGranted, textInput, type TextTool, type ToolPorts, type ToolInput } from './toolPorts';
import { TOOLS } from './toolNames';
import { TOP_ROWS, visitorsText } from './toolTexts';

/** `confirmations`: what a dialog offered, so that only its own invoke spends it (confirmation.ts). */
export function visitorsTool(ports: ToolPorts, confirmations: Confirmations): TextTool {
  return {
    prepareInvocation: (input) => {
      // No dialog when nothing would be sent: the capture says so, so this call's invoke spends nothing.
      const none = (reason: string) => void confirmations.shown(TOOLS.visitors, input, new Blocked(reason));
      const ask = visitorsAsk(ports, input);
      if (typeof ask === 'string' || missingSetup(ports) || ask.fresh) return none('no request'); // nothing to confirm
      const question = ports.gate.question({
        what: vscode.l10n.t('Fetching the visitors of {0} for the editor’s AI', ask.now.range.label),
        ...ports.visitors.estimate(ask.now.key),
        forModel: true,
      });
      if (question.fits === 0) return none('not granted'); // invoke() says why (notGrantedText); nothing is sent
      confirmations.shown(TOOLS.visitors, input, { project: ask.now.key.projectId, range: ask.preset, allowed: question.fits });
      return {
        invocationMessage: vscode.l10n.t('Fetching visitors…'),
        confirmationMessages: { title: vscode.l10n.t('Fetch visitors?'), message: question.message },
      };
    },
    invoke: async (input, token) => {
      const missing = missingSetup(ports);
      if (missing) return missing;
      const ask = visitorsAsk(ports, input);
      if (typeof ask === 'string') return ask;
      const { now, preset, top, kept } = ask;
      if (kept && ask.fresh) return visitorsText(kept, preset, top, false);
      // Only what the writer said yes to in this call's dialog is spent, for the project and range it named.
      const verdict = confirmations.verdict(TOOLS.visitors, input, { project: now.key.projectId, range: preset, allowed: 0 }, ['project', 'range']);
      if (verdict.kind !== 'send') {
        if (modelNotGranted(ports)) return notGrantedText(ports);
        return vscode.l10n.t(
          'No visitors fetched in the last hour are kept for {0}, and nothing was sent: a fetch is confirmed by the writer in this tool’s dialog. Call the tool again to be asked.',
          now.range.label,
        );
      }
      let snapshot: VisitorsSnapshot;
      // The chat's stop ends this call's wait, and the fetch too unless another caller waits for it.
      const cancel = toAbortSignal(token);
      try {
        // The dialog's yes is this call's: the load makes its grant of it, and ends it with the load.
        snapshot = await ports.visitors.load(now, { allowedForModel: verdict.terms.allowed, signal: cancel.signal });
      } catch (error) {
        if (isApiError(error) && error.kind === 'notGranted') return notGrantedText(ports);
        if (error instanceof PausedError)
          return vscode.l10n.t(
            'The last visitors request for this range failed; the readers try again after {0}. Nothing was sent.',
            new Date(error.until).toISOString(),
          );
        if (isApiError(error)) return failureView(error, 'analytics', vscode.l10n).message;
        throw error;
      } finally {
        cancel.dispose();
      }
      return visitorsText(snapshot, preset, top, snapshot !== kept);
    },
  };
}

/** The visitors tool's range, its kept snapshot and whether that is fresh (no request), or why the input is not one. */
function visitorsAsk(
  ports: ToolPorts,
  input: ToolInput,
): { now: RangeNow; preset: PresetId; top: number; kept: VisitorsSnapshot | undefined; fresh: boolean } | string {
  const asked = textInput(input, 'range');
  if (asked !== undefined && !(PRESETS as readonly string[]).includes(asked))
    return vscode.l10n.t('Unknown range "{0}": use one of {1}.', asked, PRESETS.join(', '));
  const preset = (asked as PresetId | undefined) ?? ports.visitors.preset;
  const range = resolvePreset(preset, localToday(), vscode.l10n);
  const now: RangeNow = { preset, range, key: { projectId: ports.settings.projectId ?? '', dateFrom: range.dateFrom, dateTo: range.dateTo } };
  const top = typeof input.top === 'number' && Number.isFinite(input.top) ? Math.floor(input.top) : TOP_ROWS;
  const kept = ports.snapshots.cached(now.key);
  return { now, preset, top, kept, fresh: kept !== undefined && isFreshFor(kept, Date.now()) };
}

// Fetch Reader Signals: the snapshot, asked of the hour first (as the writer's), under the view's progress.
import * as vscode from 'vscode';
import { MOST_REQUESTS } from '../snapshot';
import { reportSignalsFailure, type SignalsCommandPorts } from './signalsCommandPorts';

/** The command; a failure's Retry runs it again. */
export function refreshSignalsCommand(ports: SignalsCommandPorts) {
  const { store, ui } = ports;
  const refresh = async (): Promise<void> => {
    try {
      // What the kept snapshot took (else up to the lists' caps), asked first when the hour may not hold it; held to what was granted.
      const last = store.current()?.requests;
      const grant = await ports.gate.ask({
        what: vscode.l10n.t('Fetching reader signals'),
        estimate: last ?? MOST_REQUESTS,
        upTo: last === undefined,
        cap: MOST_REQUESTS,
      });
      if (!grant) return;
      const outcome = await ui.withProgress({ location: { viewId: 'mintlifyAgent.signals' }, title: vscode.l10n.t('Fetching reader signals…') }, () =>
        store.refresh({ grant }).finally(() => grant.end()),
      );
      if (outcome.kind === 'skipped' && outcome.reason === 'noProject')
        void ui.showMessage('info', vscode.l10n.t('Set the project ID first: the signals belong to a project.'));
    } catch (error) {
      reportSignalsFailure(ports, vscode.l10n.t('Fetching reader signals'), error, refresh);
    }
  };
  return refresh;
}

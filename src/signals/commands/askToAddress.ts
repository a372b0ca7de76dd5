// Ask the Agent to Address This: a signal (or the page open in the editor) sent to the agent with the
// readers' evidence, quoted as data, after the writer's instruction and a preview; the job the prompt
// reached is remembered with the signal, never guessed.
import * as vscode from 'vscode';
import type { DocsLocator } from '../../docs/docsLocator';
import { buildEvidencePrompt, suggestedInstruction } from '../evidencePrompt';
import { evidenceFor, parseSignalRef, pathOf, searchTermsOf, signalIdsOf, type SignalRef } from '../signalRef';
import { refreshSignalsCommand } from './refreshSignals';
import { reportSignalsFailure, type SignalsCommandPorts } from './signalsCommandPorts';

/** The command: `arg` is a signal's row, or a docs page's URI (editor title, status bar), else the active editor's page. */
export function askToAddressCommand(ports: SignalsCommandPorts) {
  const { store, ui } = ports;
  const refresh = refreshSignalsCommand(ports);
  return async (arg?: unknown): Promise<void> => {
    const projectId = ports.projectId();
    const ref = parseSignalRef(arg) ?? (await refOfEditor(ports.docs, arg));
    if (!ref) return void ui.showMessage('info', vscode.l10n.t('Pick a signal in the Reader Signals view, or open a docs page, to ask the agent about it.'));
    const snapshot = (await store.load()) ?? undefined;
    if (!projectId || !snapshot) {
      const fetch = vscode.l10n.t('Fetch Reader Signals');
      if ((await ui.showMessage('info', vscode.l10n.t('There are no reader signals yet for this project.'), fetch)) === fetch) await refresh();
      return;
    }
    const path = pathOf(ref);
    const files = path ? await filesOf(ports.docs, path) : [];
    const terms = searchTermsOf(ref);
    // The site's search today, when it can be asked: which gap this is, and the before of the job the prompt reaches.
    const live = terms.length ? await ports.liveSearch()?.prepare(terms) : undefined;
    const evidence = { ...evidenceFor(snapshot, ref, files), ...(live && { live: live.lines }) };
    const instruction = await ui.showInputBox({
      title: vscode.l10n.t('Ask the Agent to Address This'),
      prompt: vscode.l10n.t(
        'Your instruction to the agent. The readers’ evidence is added below it, quoted as data; you will see the whole prompt before it is sent.',
      ),
      value: live ? `${suggestedInstruction(evidence)} ${live.instruction}` : suggestedInstruction(evidence),
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Type an instruction for the agent.')),
    });
    if (!instruction?.trim()) return;
    const { prompt } = buildEvidencePrompt(instruction, evidence);
    try {
      const sent = (await ports.sender.previewAndSend(prompt))?.sent;
      if (!sent || (!sent.sent && !sent.outcomeUnknown)) return; // stopped, or the failure was reported where it happened
      if (!sent.sent) {
        // Never a guess (the newest job, one with the same prompt): a wrong link would show another job's state here.
        return void ui.showMessage(
          'warning',
          vscode.l10n.t(
            'The signal is not linked to a job: the answer to the send was lost, so it is not known whether the agent got it. If a job for it shows up, ask again from the signal with a follow-up to that job.',
          ),
        );
      }
      ports.links.remember(projectId, {
        jobId: sent.jobId,
        signalIds: signalIdsOf(ref),
        path,
        searches: terms.length ? terms : evidence.searches.map((s) => s.searchQuery),
        askedAt: new Date().toISOString(),
      });
      live?.record(projectId, sent.jobId);
      void ui.showMessage('info', vscode.l10n.t('The agent is on it (job {0}). The signal shows the job’s state.', sent.jobId));
    } catch (error) {
      reportSignalsFailure(ports, vscode.l10n.t('Sending the prompt'), error);
    }
  };
}

/** A page from an editor: the URI the command was given (editor title, status bar), else the active editor. */
async function refOfEditor(docs: DocsLocator, arg: unknown): Promise<SignalRef | undefined> {
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  const page = uri && (await docs.pageOf(uri));
  return page ? { kind: 'page', path: page.sitePath } : undefined;
}

async function filesOf(docs: DocsLocator, path: string): Promise<string[]> {
  const uri = await docs.fileOf(path);
  return uri ? [vscode.workspace.asRelativePath(uri, false)] : [];
}

// Opening what a signal points at: its docs page, or an assistant question's whole thread (one
// request, asked of the hour as the writer's), shown as the readers wrote it.
import * as vscode from 'vscode';
import { openDocPage } from '../../docs/openDocPage';
import type { SignalNode } from '../signalsTree';
import { reportSignalsFailure, type SignalsCommandPorts } from './signalsCommandPorts';

/** Open Signal Page: `path` is the page's site path. */
export function openSignalPageCommand({ ui, log }: SignalsCommandPorts) {
  return (path: unknown) => typeof path === 'string' && openDocPage(path, ui, log);
}

/** Show Assistant Thread: a question's row. */
export function showAssistantThreadCommand(ports: SignalsCommandPorts) {
  return async (node?: SignalNode): Promise<void> => {
    const projectId = ports.projectId();
    if (node?.type !== 'question' || !projectId) return;
    const grant = await ports.gate.ask({ what: vscode.l10n.t('Reading the whole thread'), estimate: 1 });
    if (!grant) return;
    try {
      const thread = await ports.api.getAssistantThread(projectId, node.question.id, { grant }).finally(() => grant.end());
      const lines = [vscode.l10n.t('Assistant thread {0} ({1}). Reader text, shown as written.', thread.threadId, thread.createdAt), ''];
      for (const message of thread.messages) lines.push(`[${message.createdAt}] ${message.role}:`, message.content, '');
      const document = await vscode.workspace.openTextDocument({ language: 'plaintext', content: lines.join('\n') });
      await vscode.window.showTextDocument(document, { preview: true });
    } catch (error) {
      reportSignalsFailure(ports, vscode.l10n.t('Reading the assistant thread'), error);
    }
  };
}

// The writer sees and edits the whole prompt before it is sent: it opens in an editor, and the
// text sent is the editor's text at the moment the writer presses Send (whatever they changed).
// New job or follow-up to a tracked job, as they choose. A send that fails keeps the prompt in the
// tracker's draft (as every prompt box does) and is never repeated without the writer.
import * as vscode from 'vscode';
import type { JobStore } from '../jobs/jobStore';
import { jobLabel } from '../jobs/jobStore';
import type { JobTracker } from '../jobs/jobTracker';
import type { Ui } from '../ui';

export interface PreviewChoice {
  /** The tracked job the prompt went to. */
  jobId: string;
  /** Exactly what was sent. */
  prompt: string;
}

export interface PromptSender {
  /** Shows `prompt` for editing, then sends it as a new job or a follow-up; undefined when the writer cancels. */
  previewAndSend(prompt: string, title: string): Promise<PreviewChoice | undefined>;
}

export function editorPromptSender(ui: Ui, tracker: JobTracker, store: JobStore): PromptSender {
  return {
    async previewAndSend(prompt, title) {
      const document = await vscode.workspace.openTextDocument({ language: 'plaintext', content: prompt });
      await vscode.window.showTextDocument(document, { preview: false });
      const newJob = vscode.l10n.t('Send as New Job');
      const followUp = vscode.l10n.t('Send as Follow-up…');
      const active = store.all().filter((t) => t.job?.status !== 'archived');
      const actions = active.length ? [newJob, followUp] : [newJob];
      const choice = await ui.showMessage('info', vscode.l10n.t('{0}: the prompt is open in the editor. Change anything you like, then send it.', title), ...actions);
      if (!choice) return undefined;
      const text = document.getText();
      if (!text.trim()) {
        await ui.showMessage('warning', vscode.l10n.t('The prompt is empty; nothing was sent.'));
        return undefined;
      }
      let jobId: string | undefined;
      if (choice === followUp) {
        const picked = await ui.showQuickPick(
          active.map((t) => ({ label: jobLabel(t), description: t.job?.status ?? '', id: t.id })),
          { title: vscode.l10n.t('Send the prompt to which job?'), placeHolder: vscode.l10n.t('A tracked agent job') },
        );
        if (!picked) return undefined;
        jobId = (await tracker.sendFollowUp(picked.id, text)).id;
      } else {
        jobId = (await tracker.create(text)).id;
      }
      await closeIfShown(document);
      return { jobId, prompt: text };
    },
  };
}

/** The preview has done its work: close it without asking to save an untitled file. */
async function closeIfShown(document: vscode.TextDocument): Promise<void> {
  const editor = vscode.window.visibleTextEditors.find((e) => e.document === document);
  if (!editor) return;
  await vscode.window.showTextDocument(document, editor.viewColumn);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

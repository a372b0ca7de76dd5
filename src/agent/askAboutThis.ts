// "Ask the Agent About This…": an instruction about the open page (or the selected text), shown in
// full before it is sent, then sent as a new job or a follow-up through the same commands as Start
// New Job / Send Follow-up (progress, tracking, fast polling, the prompt kept on failure, Retry).
//
// The preview is an untitled editor rather than the input box's detail: the selection can be
// thousands of characters over many lines, which a one-line box cannot show, and in an editor the
// user can change any of it. What is sent is that editor's text when the user picks where to send.
import * as vscode from 'vscode';
import type { DocsLocator } from '../docs/docsLocator';
import type { ReviewHints } from '../git/reviewHints';
import type { PromptSent } from '../jobs/jobCommands';
import { jobLabel, type JobStore } from '../jobs/jobStore';
import type { Logger } from '../log';
import type { Ui } from '../ui';
import { buildAgentPrompt, type PromptSubject } from './agentPrompt';
import { COMMANDS, type RegisterCommand } from '../commands';
import { chooseToSend, closePreview, previewNotes, registerPreviewSend } from './previewEditor';

interface TargetItem extends vscode.QuickPickItem {
  jobId?: string;
}

export interface AskAboutThisPorts {
  command: RegisterCommand;
  /** Which docs page a file is (its site path). */
  docs: Pick<DocsLocator, 'pageOf'>;
  /** The tracked jobs a prompt may go to as a follow-up. */
  jobs: JobStore;
  /** The workspace's git: a file's path relative to its repository, the path the agent knows. */
  git: Pick<ReviewHints, 'repositoryPathOf'>;
  ui: Ui;
  log: Logger;
}

/** Registers Ask the Agent About This… (and the preview's send action it shares with the reader signals). */
export function registerAskAboutThis(_context: vscode.ExtensionContext, ports: AskAboutThisPorts): void {
  const { command, docs, jobs, git, ui } = ports;
  const log = ports.log.scoped('agent');
  registerPreviewSend(command, ui, log);

  async function subjectOf(editor: vscode.TextEditor): Promise<PromptSubject> {
    const { document, selection } = editor;
    const page = await docs.pageOf(document.uri);
    const repositoryPath = (await git.repositoryPathOf(document.uri)) ?? page?.workspacePath ?? vscode.workspace.asRelativePath(document.uri, false);
    const subject: PromptSubject = { sitePath: page?.sitePath, repositoryPath };
    if (!selection.isEmpty) {
      // A selection ending at column 0 of the next line does not include that line.
      const endLine = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line - 1 : selection.end.line;
      subject.selection = { text: document.getText(selection), startLine: selection.start.line + 1, endLine: endLine + 1 };
    }
    return subject;
  }

  async function askAboutThis(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return void ui.showMessage('info', vscode.l10n.t('Open a docs page (and select text, if you like) to ask the agent about it.'));
    const subject = await subjectOf(editor);
    const instruction = await ui.showInputBox({
      title: vscode.l10n.t('Ask the Agent About This'),
      prompt: subject.selection
        ? vscode.l10n.t('What should the agent do with lines {0}-{1} of {2}?', subject.selection.startLine, subject.selection.endLine, subject.repositoryPath)
        : vscode.l10n.t('What should the agent do with {0}?', subject.repositoryPath),
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Type an instruction for the agent; an empty prompt cannot be sent.')),
    });
    if (instruction === undefined || !instruction.trim()) return;

    await previewAndSend(ui, jobs, buildAgentPrompt(instruction, subject));
  }

  command(COMMANDS.askAboutThis, () => askAboutThis());
}

/**
 * The preview every "ask the agent" flow shares (this one and the reader signals' Ask the Agent to
 * Address This): the prompt opens in an editor, the user may change any of it, and what is sent is
 * that editor's text once they choose where to send it. Resolves with the text and what became of
 * it (`sent`: the created job's id from the API's answer, or the follow-up's job; else whether the
 * outcome is unknown), or undefined when they stopped before sending. `notes` (its cost) show above
 * the preview's first line and in the notification, and are not sent.
 */
export async function previewAndSend(
  ui: Ui,
  jobs: JobStore,
  prompt: string,
  notes: readonly string[] = [],
): Promise<{ prompt: string; sent: PromptSent } | undefined> {
  const preview = await vscode.workspace.openTextDocument({ language: 'markdown', content: prompt });
  await vscode.window.showTextDocument(preview, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  const lenses = notes.length ? previewNotes(preview, notes) : undefined;
  const ask = notes.length
    ? {
        message: `${notes.join(' ')} ${vscode.l10n.t('This is exactly what the agent will get (edit it in the editor if you like). Send it?')}`,
        button: vscode.l10n.t('Choose Where to Send…'),
      }
    : undefined;
  let send: boolean;
  try {
    send = await chooseToSend(ui, preview, ask);
  } finally {
    lenses?.dispose();
  }
  if (!send) return undefined; // the preview was closed: nothing to send
  const text = preview.getText();
  if (!text.trim()) return void ui.showMessage('error', vscode.l10n.t('The prompt is empty, so nothing was sent.'));
  const target = await pickTarget(ui, jobs);
  if (!target) return undefined;
  const sent = target.jobId
    ? await vscode.commands.executeCommand<PromptSent | undefined>(COMMANDS.sendFollowUp, target.jobId, text)
    : await vscode.commands.executeCommand<PromptSent | undefined>(COMMANDS.startJob, text);
  await closePreview(preview);
  // The commands resolve with a result whenever they were given a prompt; a missing one is a failure reported there.
  return { prompt: text, sent: sent ?? { sent: false, outcomeUnknown: false } };
}

async function pickTarget(ui: Ui, jobs: JobStore): Promise<TargetItem | undefined> {
  const items: TargetItem[] = [{ label: vscode.l10n.t('$(rocket) New job'), description: vscode.l10n.t('The agent opens a pull request when it is done') }];
  const all = jobs.all();
  if (all.length) items.push({ label: vscode.l10n.t('Follow-up to a tracked job'), kind: vscode.QuickPickItemKind.Separator });
  for (const tracked of all) {
    const status = tracked.notFound
      ? vscode.l10n.t('not found')
      : tracked.job?.status === 'unknown'
        ? tracked.job.reportedStatus
        : (tracked.job?.status ?? vscode.l10n.t('not checked yet'));
    const active = tracked.job?.status === 'active';
    items.push({
      label: `${active ? '$(sync~spin) ' : ''}${jobLabel(tracked)}`,
      description: active ? vscode.l10n.t('{0} · still working', status) : status,
      detail: tracked.id,
      jobId: tracked.id,
    });
  }
  return ui.showQuickPick(items, { title: vscode.l10n.t('Send to the agent as…'), placeHolder: vscode.l10n.t('A new job, or a follow-up to a tracked job') });
}

// "Ask the Agent About This…": an instruction about the open page (or the selected text), shown in
// full before it is sent, then sent as a new job or a follow-up through the same commands as Start
// New Job / Send Follow-up (progress, tracking, fast polling, the prompt kept on failure, Retry).
//
// The preview is an untitled editor rather than the input box's detail: the selection can be
// thousands of characters over many lines, which a one-line box cannot show, and in an editor the
// user can change any of it. What is sent is that editor's text when the user picks where to send.
import * as vscode from 'vscode';
import type { DocsLocator } from '../docs/docsLocator';
import type { WorkspaceGit } from '../git/workspaceGit';
import type { JobStore } from '../jobs/jobStore';
import type { Logger } from '../log';
import type { Ui } from '../ui';
import { buildAgentPrompt, type PromptSubject } from './agentPrompt';
import { COMMANDS, type RegisterCommand } from '../commands';
import { previewAndSend, registerPreviewSend } from '../prompt/promptPreview';

interface AskAboutThisPorts {
  command: RegisterCommand;
  /** Which docs page a file is (its site path). */
  docs: Pick<DocsLocator, 'pageOf'>;
  /** The tracked jobs a prompt may go to as a follow-up. */
  jobs: JobStore;
  /** The workspace's git: a file's path relative to its repository, the path the agent knows. */
  git: Pick<WorkspaceGit, 'repositoryPathOf'>;
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

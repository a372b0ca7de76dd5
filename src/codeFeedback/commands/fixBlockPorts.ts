// What Ask the Agent to Fix It and Fix with the Editor's AI take (`FixBlockPorts`), and what they
// share: the block a command is about, and the message when there is none. Each command is a file
// beside this one; registerCodeFeedback.ts only wires them.
import * as vscode from 'vscode';
import type { Settings } from '../../config';
import type { JobStore } from '../../jobs/jobStore';
import type { SignalsHandle } from '../../signals/registerSignals';
import type { Ui } from '../../ui';
import type { BlockRef } from '../blockLenses';
import type { BlockPlaces } from '../blockPlaces';

/** The editor's chat, prefilled with a prompt and not sent; false when this editor has no chat. */
export interface EditorChat {
  open(prompt: string): Promise<boolean>;
}

export interface FixBlockPorts {
  places: BlockPlaces;
  /** The editor's chat, read at each use: tests swap it on the feature's handle. */
  handle: { chat: EditorChat };
  /** The sender a prompt goes through (swappable by tests). */
  signals: Pick<SignalsHandle, 'sender'>;
  settings: Pick<Settings, 'editorAiOff'>;
  jobs: Pick<JobStore, 'projectId'>;
  /** The shared ledger: every window's agent requests of the project this hour. */
  ledger: { agentRequestsThisHour(project: string): number };
  ui: Ui;
}

/** The block a command is about: the CodeLens's, else the one under the cursor. */
export function refOf(arg: unknown): { uri: vscode.Uri; line: number } | undefined {
  const ref = arg as Partial<BlockRef> | undefined;
  if (typeof ref?.uri === 'string' && typeof ref.line === 'number') return { uri: vscode.Uri.parse(ref.uri), line: ref.line };
  const editor = vscode.window.activeTextEditor;
  return editor && { uri: editor.document.uri, line: editor.selection.active.line };
}

export function noBlock({ ui }: FixBlockPorts): void {
  void ui.showMessage('info', vscode.l10n.t('Put the cursor in a code block readers flagged (it has a CodeLens saying so), then try again.'));
}

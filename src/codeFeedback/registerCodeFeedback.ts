// Readers' feedback on a code block, at the block's lines, wired: the Problems entries (blockPlaces.ts),
// a CodeLens above the block (blockLenses.ts), a hover quoting each comment as text (blockHover.ts),
// the two ways to fix it (commands/), and Did It Help?'s note on changed blocks (goneBlocksNote.ts).
// Building sends nothing: every place comes from the reader signals already kept.
import * as vscode from 'vscode';
import type { Settings } from '../config';
import type { DocsLocator } from '../docs/docsLocator';
import type { JobStore } from '../jobs/jobStore';
import type { Logger } from '../log';
import type { SignalsHandle } from '../signals/registerSignals';
import type { Ui } from '../ui';
import { COMMANDS, type RegisterCommand } from '../commands';
import { blockHovers } from './blockHover';
import { blockLenses } from './blockLenses';
import { BlockPlaces } from './blockPlaces';
import { askAgentToFixBlockCommand } from './commands/askAgentToFixBlock';
import type { EditorChat, FixBlockPorts } from './commands/fixBlockPorts';
import { fixBlockWithEditorAiCommand, vscodeChat } from './commands/fixBlockWithEditorAi';
import { promptAt } from './flaggedBlock';
import { goneBlocksNote } from './goneBlocksNote';

const DOCS = [{ pattern: '**/*.{md,mdx}' }];

interface CodeFeedbackPorts {
  command: RegisterCommand;
  /** The reader signals: the kept snapshot the places come from, the sender a prompt goes through (swappable by tests), Did It Help?'s notes. */
  signals: Pick<SignalsHandle, 'store' | 'sender' | 'impactNotes'>;
  docs: Pick<DocsLocator, 'pageOf' | 'onDidChange' | 'fileOf'>;
  settings: Settings;
  jobs: JobStore;
  /** The shared ledger: every window's agent requests of the project this hour. */
  ledger: { agentRequestsThisHour(project: string): number };
  ui: Ui;
  log: Logger;
}

/** The pieces, for the tests. */
export interface CodeFeedbackHandle {
  places: BlockPlaces;
  /** Swappable by tests, like the Ui. */
  chat: EditorChat;
  /** The prompt for the block at `uri`'s `line` (0-based, any line of it), as Ask the Agent to Fix It composes it. */
  promptFor(uri: vscode.Uri, line: number): Promise<string | undefined>;
}

export function registerCodeFeedback(context: vscode.ExtensionContext, ports: CodeFeedbackPorts): CodeFeedbackHandle {
  const { command, signals, docs, settings } = ports;
  const places = new BlockPlaces(signals.store, docs, settings, ports.log.scoped('codeFeedback'));
  const lensChanged = new vscode.EventEmitter<void>();
  const handle: CodeFeedbackHandle = { places, chat: vscodeChat, promptFor: (uri, line) => promptAt(places, uri, line) };

  const fix: FixBlockPorts = { ...ports, places, handle };
  command(COMMANDS.askAgentToFixBlock, askAgentToFixBlockCommand(fix));
  command(COMMANDS.fixBlockWithEditorAi, fixBlockWithEditorAiCommand(fix));
  signals.impactNotes.push(goneBlocksNote(docs, places));

  context.subscriptions.push(
    places,
    lensChanged,
    places.onDidChange(() => lensChanged.fire()),
    settings.onDidChangeEditorAi(() => lensChanged.fire()),
    vscode.languages.registerCodeLensProvider(DOCS, blockLenses(places, settings, lensChanged.event)),
    vscode.languages.registerHoverProvider(DOCS, blockHovers(places, settings)),
  );
  return handle;
}

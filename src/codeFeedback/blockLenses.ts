// The CodeLens above a block readers flagged ("3 readers flagged this block · Ask the Agent to Fix It ·
// Fix with the Editor's AI"), and one at the top of a page whose feedback is on blocks it no longer has.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import type { Settings } from '../config';
import type { BlockPlaces } from './blockPlaces';
import { goneLensTitle, lensTitle } from './feedbackText';

/** A CodeLens's argument: the block's file and its opening fence's line (0-based). */
export interface BlockRef {
  uri: string;
  line: number;
}

export function blockLenses(
  places: BlockPlaces,
  settings: Pick<Settings, 'codeFeedback' | 'editorAiOff'>,
  onDidChange: vscode.Event<void>,
): vscode.CodeLensProvider {
  return {
    onDidChangeCodeLenses: onDidChange,
    provideCodeLenses(document) {
      if (!settings.codeFeedback.enabled) return [];
      const result: vscode.CodeLens[] = [];
      const page = places.pageOf(document.uri);
      if (page?.gone.length)
        result.push(new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: goneLensTitle(page.gone.length, vscode.l10n, page.generatedApi), command: '' }));
      for (const { place } of places.blocksIn(document.uri)) {
        const at = new vscode.Range(place.startLine, 0, place.startLine, 0);
        const ref: BlockRef = { uri: document.uri.toString(), line: place.startLine };
        result.push(
          new vscode.CodeLens(at, { title: lensTitle(place.comments.length, vscode.l10n), command: '' }),
          new vscode.CodeLens(at, { title: vscode.l10n.t('Ask the Agent to Fix It'), command: COMMANDS.askAgentToFixBlock, arguments: [ref] }),
        );
        // Not offered while the user has turned VS Code's AI features off (the agent is not the editor's AI: it stays).
        if (!settings.editorAiOff)
          result.push(new vscode.CodeLens(at, { title: vscode.l10n.t("Fix with the Editor's AI"), command: COMMANDS.fixBlockWithEditorAi, arguments: [ref] }));
      }
      return result;
    },
  };
}

// Fix with the Editor's AI: the block's prompt opened in the editor's chat, prefilled and not sent.
import * as vscode from 'vscode';
import { promptAt } from '../flaggedBlock';
import { type EditorChat, type FixBlockPorts, noBlock, refOf } from './fixBlockPorts';

/** The chat VS Code opens with a prefilled question (not sent until the writer sends it). */
const CHAT_OPEN = 'workbench.action.chat.open';

/** VS Code's chat (Copilot Chat or another), when one is installed. */
export const vscodeChat: EditorChat = {
  async open(prompt) {
    if (!(await vscode.commands.getCommands(true)).includes(CHAT_OPEN)) return false;
    // Prefilled, not sent: the writer reads the evidence and sends it from the chat.
    await vscode.commands.executeCommand(CHAT_OPEN, { query: prompt, isPartialQuery: true });
    return true;
  },
};

export function fixBlockWithEditorAiCommand(ports: FixBlockPorts) {
  const { places, handle, settings, ui } = ports;
  return async (arg?: unknown): Promise<void> => {
    const ref = refOf(arg);
    if (settings.editorAiOff) {
      return void ui.showMessage(
        'info',
        vscode.l10n.t("The editor's AI features are turned off (the chat.disableAIFeatures setting). Ask the Agent to Fix It works without them."),
      );
    }
    const prompt = ref && (await promptAt(places, ref.uri, ref.line));
    if (!prompt) return noBlock(ports);
    if (!(await handle.chat.open(prompt))) {
      void ui.showMessage(
        'info',
        vscode.l10n.t(
          "Fix with the Editor's AI needs a chat in the editor (GitHub Copilot Chat, for example), and this editor has none. Ask the Agent to Fix It works without one.",
        ),
      );
    }
  };
}

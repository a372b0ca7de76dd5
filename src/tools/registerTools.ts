// The extension's evidence and agent as tools of the editor's AI (Copilot's agent mode): each name
// in package.json's contributes.languageModelTools is registered in activate(), because VS Code
// looks for a tool's implementation as soon as the activation it triggered has returned; the tool
// itself is built with the extension's objects on its first use, as the commands are
// (registerTools, in start(), with every other feature).
import * as vscode from 'vscode';
import { agentJobsTool } from './agentJobsTool';
import { Confirmations } from './confirmation';
import { fetchReaderSignalsTool } from './fetchReaderSignalsTool';
import { gapInboxTool } from './gapInboxTool';
import { readerEvidenceTool } from './readerEvidenceTool';
import { searchChecksTool } from './searchChecksTool';
import { sendFollowUpTool } from './sendFollowUpTool';
import { startAgentJobTool } from './startAgentJobTool';
import { visitorsTool } from './visitorsTool';
import type { TextTool, ToolPorts, ToolTable } from './toolPorts';
import { TOOL_NAMES, TOOLS, type ToolName } from './toolNames';
import { capResult } from './toolTexts';
import { errorText } from '../util/errorText';

/** Builds every tool over the extension's objects (in start(), with the rest of the extension). */
export function registerTools(_context: vscode.ExtensionContext, ports: ToolPorts): ToolTable {
  const deps: ToolPorts = { ...ports, log: ports.log.scoped('tools') };
  // What each tool's dialog showed, for its invoke to send or spend exactly that (confirmation.ts).
  const confirmations = new Confirmations();
  const table: ToolTable = {
    // Reading: answered from what the extension keeps, at no cost (the visitors tool fetches only after the writer's yes).
    [TOOLS.readerEvidence]: readerEvidenceTool(deps),
    [TOOLS.gapInbox]: gapInboxTool(deps),
    [TOOLS.visitors]: visitorsTool(deps, confirmations),
    [TOOLS.searchChecks]: searchChecksTool(deps),
    [TOOLS.agentJobs]: agentJobsTool(deps),
    // Acting: each asks the writer first, in its dialog, and goes through the same objects as the palette.
    [TOOLS.startAgentJob]: startAgentJobTool(deps, confirmations),
    [TOOLS.sendFollowUp]: sendFollowUpTool(deps, confirmations),
    [TOOLS.fetchReaderSignals]: fetchReaderSignalsTool(deps, confirmations),
  };
  for (const [name, tool] of Object.entries(table) as [ToolName, TextTool][]) {
    const invoke = tool.invoke.bind(tool);
    tool.invoke = async (input, token) => {
      try {
        return await invoke(input, token);
      } catch (error) {
        // The model gets a sentence it can act on; the details go to the log.
        const reason = errorText(error);
        deps.log.warn(`${name}: ${reason}`);
        return vscode.l10n.t('The tool failed: {0} The details are in the log (Mintlify: Show Log).', reason);
      }
    };
  }
  return table;
}

/** VS Code's switch for its AI features (src/config.ts): while it is off, no tool of ours is registered. */
interface EditorAiSwitch {
  off(): boolean;
  onDidChange(listener: () => void): vscode.Disposable;
}

/**
 * Registers every contributed tool's name (in activate()); `tools` builds the extension on the first
 * call, as a command does. While the user has turned VS Code's AI features off (chat.disableAIFeatures)
 * none is registered, and the manifest's `when` hides them from agent mode: nothing of ours is offered
 * to the editor's AI. Decided again each time the setting changes, without a reload.
 */
export function registerToolNames(context: vscode.ExtensionContext, tools: () => ToolTable, editorAi: EditorAiSwitch): void {
  let registered: vscode.Disposable[] = [];
  const unregister = () => {
    for (const registration of registered.splice(0)) registration.dispose();
  };
  const follow = () => {
    if (editorAi.off()) return unregister();
    if (registered.length) return;
    registered = TOOL_NAMES.map((name) =>
      vscode.lm.registerTool<unknown>(name, {
        prepareInvocation: (options) => tools()[name].prepareInvocation?.(inputOf(options.input)),
        invoke: async (options, token) =>
          new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(capResult(await tools()[name].invoke(inputOf(options.input), token)))]),
      }),
    );
  };
  follow();
  context.subscriptions.push(editorAi.onDidChange(follow), { dispose: unregister });
}

/** The model fills the schema, but nothing checks it here: anything but an object reads as no input. */
function inputOf(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

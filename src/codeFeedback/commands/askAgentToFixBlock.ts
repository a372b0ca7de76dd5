// Ask the Agent to Fix It: the block's prompt, with readers' feedback as evidence, previewed with its
// cost and sent as a new job or a follow-up (the reader signals' sender).
import * as vscode from 'vscode';
import { agentHourUse } from '../../hour/ledger';
import { promptAt } from '../flaggedBlock';
import { type FixBlockPorts, noBlock, refOf } from './fixBlockPorts';

export function askAgentToFixBlockCommand(ports: FixBlockPorts) {
  const { places, signals, jobs, ledger } = ports;
  return async (arg?: unknown) => {
    const ref = refOf(arg);
    const prompt = ref && (await promptAt(places, ref.uri, ref.line));
    if (!prompt) return noBlock(ports);
    const cost = vscode.l10n.t(
      "A new job or a follow-up: 1 agent request of the project's hour ({0} of {1} used, {2} left).",
      ...agentHourUse(ledger, jobs.projectId ?? ''),
    );
    return signals.sender.previewAndSend(prompt, { notes: [cost] });
  };
}

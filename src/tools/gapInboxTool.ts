// The tool get_mintlifyGapInbox: the gap inbox of the kept reader signals, at no cost.
import { keptSignals, missingSetup, type TextTool, type ToolPorts } from './toolPorts';
import { gapInboxText } from './toolTexts';

export function gapInboxTool(ports: ToolPorts): TextTool {
  return {
    invoke: async () => {
      const missing = missingSetup(ports);
      if (missing) return missing;
      const snapshot = await keptSignals(ports);
      return typeof snapshot === 'string' ? snapshot : gapInboxText(snapshot, ports.settings.signals.rankByAiShare);
    },
  };
}

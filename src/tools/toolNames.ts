// The language model tools the extension contributes, each name declared once, here. package.json
// lists the same names under contributes.languageModelTools, and test/unit/tools/toolNames.test.ts checks
// both ways. Names follow VS Code's `{verb}_{noun}` advice, with the product in the noun so they
// cannot clash with another extension's. No vscode import: the unit test reads it.

export const TOOLS = {
  readerEvidence: 'get_mintlifyReaderEvidence',
  gapInbox: 'get_mintlifyGapInbox',
  visitors: 'get_mintlifyVisitors',
  agentJobs: 'get_mintlifyAgentJobs',
  startAgentJob: 'start_mintlifyAgentJob',
  sendFollowUp: 'send_mintlifyAgentFollowUp',
  fetchReaderSignals: 'fetch_mintlifyReaderSignals',
  searchChecks: 'get_mintlifySearchChecks',
} as const;

export type ToolName = (typeof TOOLS)[keyof typeof TOOLS];

export const TOOL_NAMES: readonly ToolName[] = Object.values(TOOLS);

// The command registry: every command the extension contributes, its id declared once, here.
// Handlers register through `RegisterCommand`, which takes only these ids; package.json lists the
// same ids, and test/unit/commands.test.ts checks both ways (and that menus, keybindings,
// welcome views and the walkthrough name only these). No vscode import: the webview's protocol
// and the unit test read it too.

export const COMMANDS = {
  setApiKey: 'mintlifyAgent.setApiKey',
  clearApiKey: 'mintlifyAgent.clearApiKey',
  setProjectId: 'mintlifyAgent.setProjectId',
  sendFollowUp: 'mintlifyAgent.sendFollowUp',
  trackJob: 'mintlifyAgent.trackJob',
  startJob: 'mintlifyAgent.startJob',
  openPullRequest: 'mintlifyAgent.openPullRequest',
  copyJobId: 'mintlifyAgent.copyJobId',
  refreshJob: 'mintlifyAgent.refreshJob',
  refreshJobs: 'mintlifyAgent.refreshJobs',
  stopTracking: 'mintlifyAgent.stopTracking',
  openAnalytics: 'mintlifyAgent.openAnalytics',
  exportVisitors: 'mintlifyAgent.exportVisitors',
  changeReadersRange: 'mintlifyAgent.changeReadersRange',
  refreshReaders: 'mintlifyAgent.refreshReaders',
  askAboutThis: 'mintlifyAgent.askAboutThis',
  sendPreview: 'mintlifyAgent.sendPreview',
  reviewChanges: 'mintlifyAgent.reviewChanges',
  checkOutBranch: 'mintlifyAgent.checkOutBranch',
  showLog: 'mintlifyAgent.showLog',
  refreshSignals: 'mintlifyAgent.refreshSignals',
  askToAddress: 'mintlifyAgent.askToAddress',
  showAssistantThread: 'mintlifyAgent.showAssistantThread',
  checkSignalImpact: 'mintlifyAgent.checkSignalImpact',
  openSignalPage: 'mintlifyAgent.openSignalPage',
  sendReview: 'mintlifyAgent.sendReview',
  addReviewComment: 'mintlifyAgent.addReviewComment',
  editReviewComment: 'mintlifyAgent.editReviewComment',
  saveReviewComment: 'mintlifyAgent.saveReviewComment',
  cancelReviewComment: 'mintlifyAgent.cancelReviewComment',
  deleteReviewComment: 'mintlifyAgent.deleteReviewComment',
  askAgentToFixBlock: 'mintlifyAgent.askAgentToFixBlock',
  fixBlockWithEditorAi: 'mintlifyAgent.fixBlockWithEditorAi',
  previewBranch: 'mintlifyAgent.previewBranch',
  openRenderedPage: 'mintlifyAgent.openRenderedPage',
  showPreviewLog: 'mintlifyAgent.showPreviewLog',
  askToFixBuild: 'mintlifyAgent.askToFixBuild',
  openAgentInstructions: 'mintlifyAgent.openAgentInstructions',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

/** Every id, in the order above: what activate() registers. */
export const COMMAND_IDS: readonly CommandId[] = Object.values(COMMANDS);

/** How a feature registers the handler of one of its commands (VS Code's registerCommand, or a deferring one). */
export type RegisterCommand = (id: CommandId, handler: (...args: never[]) => unknown) => void;

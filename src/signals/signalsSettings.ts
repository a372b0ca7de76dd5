// The reader-signals settings (mintlifyAgent.signals.*), typed and bounded, read where used.
import * as vscode from 'vscode';

const section = () => vscode.workspace.getConfiguration('mintlifyAgent.signals');

export const signalsSettings = {
  /** Pages read mostly by AI agents first in the inbox. */
  get rankByAiShare(): boolean {
    return section().get<boolean>('rankByAiShare') === true;
  },
  /** Analytics requests an hour this window's background refresh may use (of the ledger's shared ceiling). */
  get backgroundShare(): number {
    const value = section().get<number>('backgroundShare');
    return typeof value === 'number' && Number.isFinite(value) ? Math.min(60, Math.max(0, Math.round(value))) : 20;
  },
};

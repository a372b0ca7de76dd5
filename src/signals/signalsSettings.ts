// The reader-signals settings (mintlifyAgent.signals.*), typed and bounded, read where used.
import * as vscode from 'vscode';
import { wholeInRange } from '../config';

const section = () => vscode.workspace.getConfiguration('mintlifyAgent.signals');

export const signalsSettings = {
  /** Pages read mostly by AI agents first in the inbox. */
  get rankByAiShare(): boolean {
    return section().get<boolean>('rankByAiShare') === true;
  },
  /** Analytics requests an hour this window's background refresh may use (of the ledger's shared ceiling). */
  get backgroundShare(): number {
    return wholeInRange(section().get<number>('backgroundShare'), 0, 60, 20);
  },
};

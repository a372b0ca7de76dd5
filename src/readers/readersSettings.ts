// The readers settings (mintlifyAgent.readers.*), typed and bounded. Read where used, so a change
// applies at once.
import * as vscode from 'vscode';
import { ENDPOINTS } from '../api/endpoints';
import { wholeInRange } from '../config';
import { DEFAULT_MAX_PAGES } from '../analytics/visitorsSnapshot';

export type ExplorerMarks = 'off' | 'top' | 'all';

const section = () => vscode.workspace.getConfiguration('mintlifyAgent.readers');

export const readersSettings = {
  get codeLens(): boolean {
    return section().get<boolean>('codeLens') === true;
  },
  get explorer(): ExplorerMarks {
    const value = section().get<string>('explorer');
    return value === 'off' || value === 'all' ? value : 'top';
  },
  get explorerTop(): number {
    return wholeInRange(section().get<number>('explorerTop'), 1, 99, 10);
  },
  get markUnread(): boolean {
    return section().get<boolean>('markPagesWithoutReaders') === true;
  },
  get maxPages(): number {
    return wholeInRange(section().get<number>('maxPages'), 1, ENDPOINTS.getVisitors.maxPages, DEFAULT_MAX_PAGES);
  },
  affects(e: vscode.ConfigurationChangeEvent): boolean {
    return e.affectsConfiguration('mintlifyAgent.readers');
  },
};

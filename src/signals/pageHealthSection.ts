// The open page's health in the page readers' status-bar tooltip, from the kept snapshot (no
// request), with the state of the agent job linked to the page's signal.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import type { JobStore } from '../jobs/jobStore';
import type { ReadersStatusBar } from '../readers/readersStatusBar';
import { appendPageHealth } from './healthTooltip';
import { jobBadge, type SignalJobs } from './signalJobs';
import { pageHealth, signalId } from './signalsModel';
import type { SignalsStore } from './signalsStore';

interface PageHealthPorts {
  statusBar: Pick<ReadersStatusBar, 'addSection'>;
  store: SignalsStore;
  links: SignalJobs;
  jobs: JobStore;
  projectId: () => string | undefined;
}

export function registerPageHealth(_context: vscode.ExtensionContext, { statusBar, store, links, jobs, projectId }: PageHealthPorts): void {
  statusBar.addSection(
    {
      commands: [COMMANDS.askToAddress],
      append(md, page) {
        const snapshot = store.current();
        if (!snapshot) return;
        const link = projectId() ? links.jobFor(projectId() ?? '', signalId.page(page.sitePath)) : undefined;
        const badge = link && jobBadge(jobs.get(link.jobId));
        appendPageHealth(md, pageHealth(snapshot, page.sitePath), snapshot, { jobStatus: badge && vscode.l10n.t('Agent job {0}: {1}', link.jobId, badge) });
      },
    },
    store.onDidChange,
  );
}

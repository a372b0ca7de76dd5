// What every search command takes (`SearchCommandPorts`), and what they share: a pick's item (a
// result's page, or the misses to send) and the job a command was given. Each command is a file of
// its own beside this one (or a small group), a function of these ports; searchCommands.ts only wires them.
import type * as vscode from 'vscode';
import type { RegisterCommand } from '../../commands';
import type { DocsLocator } from '../../docs/docsLocator';
import { JobNode } from '../../jobs/jobsTree';
import type { JobStore } from '../../jobs/jobStore';
import type { Logger } from '../../log';
import type { SignalsHandle } from '../../signals/registerSignals';
import type { SearchCheck } from '../../sync/searchState';
import type { Ui } from '../../ui';
import type { SearchChecks } from '../searchChecks';
import type { Gap } from '../searchOutcome';
import type { SearchReplays } from '../searchReplays';

export interface SearchCommandPorts {
  command: RegisterCommand;
  checks: SearchChecks;
  replays: SearchReplays;
  searchable(): string | undefined;
  settings: { readonly projectId: string | undefined; readonly search: { readonly siteDomain: string | undefined } };
  signals: Pick<SignalsHandle, 'store' | 'links'>;
  docs: Pick<DocsLocator, 'fileOf'>;
  jobs: JobStore;
  ledger: { agentRequestsThisHour(project: string): number };
  gapFor(check: SearchCheck): Promise<Gap>;
  expectedPage(): Promise<string | undefined>;
  fail(doing: string, error: unknown): void;
  ui: Ui;
  log: Logger;
}

export interface ResultItem extends vscode.QuickPickItem {
  path?: string;
  send?: boolean;
}

/** The job a command was given: a row of Agent Jobs, or its ID. */
export const jobIdOf = (arg: unknown): string | undefined => (arg instanceof JobNode ? arg.tracked.id : typeof arg === 'string' ? arg : undefined);

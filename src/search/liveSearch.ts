// A prompt about searches readers gave up on (Reader Signals' Ask the Agent): which gap, the results
// today, and the before of the job it reaches, recorded so the after is searched once it is live.
import * as vscode from 'vscode';
import type { Logger } from '../log';
import type { LiveSearch } from '../signals/signalsCommands';
import type { SearchCheck } from '../sync/searchState';
import { background } from '../util/background';
import type { SearchChecks } from './searchChecks';
import type { Gap } from './searchOutcome';
import { gapInstruction, liveLines } from './searchPrompt';
import type { SearchReplays } from './searchReplays';

interface LiveSearchPorts {
  signals: { liveSearch: LiveSearch | undefined };
  checks: SearchChecks;
  replays: SearchReplays;
  searchable(): string | undefined;
  gapFor(check: SearchCheck): Promise<Gap>;
  expectedPage(): Promise<string | undefined>;
  fail(doing: string, error: unknown): void;
  log: Logger;
}

/** Sets Reader Signals' hook (SignalsHandle.liveSearch). */
export function registerLiveSearch(_context: vscode.ExtensionContext, ports: LiveSearchPorts): void {
  const { checks, replays, log } = ports;
  ports.signals.liveSearch = {
    async prepare(terms) {
      const domain = ports.searchable();
      if (!domain) return undefined;
      const expect = await ports.expectedPage();
      const run = await checks.check(terms, { ...(expect && { expect }) });
      if (run.error) ports.fail(vscode.l10n.t('Searching the site'), run.error);
      if (!run.checks.size) return undefined;
      const checked = await Promise.all([...run.checks].map(async ([term, check]) => ({ term, check, gap: await ports.gapFor(check) })));
      return {
        lines: liveLines(checked),
        instruction: gapInstruction(checked.map((c) => c.gap)),
        record: (projectId, jobId) =>
          background(replays.record(projectId, jobId, domain, run.checks, expect), log, `recording the searches before job ${jobId}`),
      };
    },
  };
}

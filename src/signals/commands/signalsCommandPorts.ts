// What every reader-signals command takes (`SignalsCommandPorts`), and what they share: a failure
// reported in the background. Each command is a file of its own beside this one (or a small group),
// a function of these ports; signalsCommands.ts only wires them.
import type { ApiClient } from '../../api';
import type { RegisterCommand } from '../../commands';
import type { DocsLocator } from '../../docs/docsLocator';
import type { HourGate } from '../../hour/hourGate';
import type { JobStore } from '../../jobs/jobStore';
import type { Logger } from '../../log';
import { reportFailure } from '../../reportFailure';
import type { Ui } from '../../ui';
import { background } from '../../util/background';
import type { PromptSender } from '../promptSender';
import type { SignalJobs } from '../signalJobs';
import type { SignalsStore } from '../signalsStore';

export interface SignalsCommandPorts {
  command: RegisterCommand;
  api: ApiClient;
  store: SignalsStore;
  links: SignalJobs;
  jobs: JobStore;
  docs: DocsLocator;
  sender: PromptSender;
  projectId: () => string | undefined;
  /** The organisation's analytics hour, for the fetches the user asks for. */
  gate: HourGate;
  ui: Ui;
  log: Logger;
  /** Sentences other features add to Did It Help?'s answer about a page (SignalsHandle.impactNotes). */
  impactNotes: readonly ((path: string) => Promise<string | undefined>)[];
  /** Sentences other features add to Did It Help?'s answer about a job a signal is linked to (SignalsHandle.jobNotes). */
  jobNotes: readonly ((jobId: string) => string | undefined)[];
  /** What a feature above adds to a prompt about searches readers gave up on (SignalsHandle.liveSearch); read at each ask. */
  liveSearch: () => LiveSearch | undefined;
}

/**
 * The site's own search, for a prompt about searches readers gave up on (src/search): what it
 * returns for them now, as evidence lines (quoted by it) and a sentence for the instruction saying
 * which gap it is; `record` keeps them with the job the prompt reached (the before).
 */
export interface LiveSearch {
  prepare(terms: readonly string[]): Promise<{ lines: readonly string[]; instruction: string; record(projectId: string, jobId: string): void } | undefined>;
}

/**
 * The failure table words it (and offers Set API Key, Show Log…); the log keeps what we were doing.
 * Failures of a retry report themselves.
 */
export function reportSignalsFailure(
  { ui, log }: Pick<SignalsCommandPorts, 'ui' | 'log'>,
  doing: string,
  error: unknown,
  retry?: () => Promise<unknown>,
): void {
  background(reportFailure({ ui, log }, error, { context: 'analytics', doing, on: retry && { retry } }), log, `${doing}: the failure message`);
}

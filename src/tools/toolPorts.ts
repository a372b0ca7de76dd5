// What every language model tool is made of: the extension's objects it reads and acts through,
// its shape (text in, text out), and the answers they share (what setup is missing, why the hour
// did not grant a request), so the reading and acting tools word them alike.
import * as vscode from 'vscode';
import type { JobStore } from '../jobs/jobStore';
import type { JobTracker } from '../jobs/jobTracker';
import type { Logger } from '../log';
import type { SnapshotSource } from '../analytics/visitorsSnapshot';
import type { DocsLocator } from '../docs/docsLocator';
import type { PageReaders } from '../readers/pageReaders';
import type { SignalsStore } from '../signals/signalsStore';
import { MOST_REQUESTS, type SignalsSnapshot } from '../signals/snapshot';
import type { SearchHandle } from '../search/registerSearch';
import type { HourGate } from '../hour/hourGate';
import { BACKGROUND_CEILING, HOURLY_LIMIT } from '../hour/ledger';
import type { Ui } from '../ui';
import { waitText } from '../waitWords';
import { TOOLS, type ToolName } from './toolNames';
import type { ReviewFacts, ToolAnswer } from './toolTexts';

/** What the tools read and act through: the same objects as the views and the commands. */
export interface ToolPorts {
  keys: { readonly hasKey: boolean };
  settings: { readonly projectId: string | undefined; readonly signals: { readonly rankByAiShare: boolean } };
  /** The readers' visitors of a range (src/readers/pageReaders.ts): the range shown, what a fetch may cost, the fetch. */
  visitors: Pick<PageReaders, 'preset' | 'estimate' | 'load'>;
  /** The visitors snapshots kept (no request). */
  snapshots: Pick<SnapshotSource, 'cached'>;
  /** Which docs page a file is, and which file a page is. */
  docs: Pick<DocsLocator, 'pageOf' | 'fileOf'>;
  /** The kept reader signals, and their fetch (src/signals/signalsStore.ts). */
  signals: Pick<SignalsStore, 'load' | 'current' | 'refresh'>;
  jobs: JobStore;
  tracker: JobTracker;
  /** The organisation's analytics hour: a tool spends it only after the writer's yes in its confirmation. */
  gate: HourGate;
  /** The reviews sent to each job, and the one pending (src/review); optional so the tools work without it. */
  reviews?: { factsOf(jobId: string): ReviewFacts | undefined };
  /** The site's own search: its kept checks and each job's before and after (src/search); optional so the tools work without it. */
  searches?: Pick<SearchHandle, 'searchable'> & { checks: Pick<SearchHandle['checks'], 'all'>; replays: Pick<SearchHandle['replays'], 'all'> };
  ui: Ui;
  log: Logger;
}

export type ToolInput = Record<string, unknown>;

/** One tool: its answer is text, or text with an evidence block (capped where it is registered, by the block's structure). */
export interface TextTool {
  prepareInvocation?(input: ToolInput): vscode.PreparedToolInvocation | undefined | Promise<vscode.PreparedToolInvocation | undefined>;
  invoke(input: ToolInput, token: vscode.CancellationToken): Promise<ToolAnswer>;
}

export type ToolTable = Record<ToolName, TextTool>;

/** The first precondition a tool's request needs and lacks, as the sentence the model reads. */
export function missingSetup(deps: Pick<ToolPorts, 'keys' | 'settings'>): string | undefined {
  if (!deps.keys.hasKey) return vscode.l10n.t('No API key: run "Mintlify: Set API Key" first.');
  if (!deps.settings.projectId) return vscode.l10n.t('No project ID: run "Mintlify: Set Project ID" first.');
  return undefined;
}

/** A string input, trimmed; undefined when absent or empty. */
export function textInput(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** The prompt as the model wrote it (sent exactly so, never trimmed); undefined when absent or blank. */
export function promptInput(input: ToolInput): string | undefined {
  const value = input.prompt;
  return typeof value === 'string' && value.trim() ? value : undefined;
}

/** The kept reader signals of the project, or why there are none (no request either way): what the reading tools answer from. */
export async function keptSignals(ports: Pick<ToolPorts, 'signals' | 'settings'>): Promise<SignalsSnapshot | string> {
  const snapshot = await ports.signals.load();
  if (snapshot) return snapshot;
  return vscode.l10n.t(
    'No reader signals are kept for project "{0}" yet. Ask the writer to fetch them: the tool {1} (or "Mintlify: Fetch Reader Signals") uses up to {2} analytics requests.',
    ports.settings.projectId ?? '',
    TOOLS.fetchReaderSignals,
    MOST_REQUESTS,
  );
}

/** Whether the editor's AI would not be granted a request now (the hour full, its first 60 used, or the hour's count unknown). */
export function modelNotGranted(deps: Pick<ToolPorts, 'gate'>): boolean {
  return (deps.gate.modelRoom() ?? 0) === 0;
}

/** Why a tool's request was not granted (the ApiError kind 'notGranted'): the hour full, or the editor's AI's share of it used; and when that changes. */
export function notGrantedText(deps: Pick<ToolPorts, 'gate'>): string {
  if (deps.gate.left() === undefined) {
    return vscode.l10n.t(
      'The hour’s count of the organisation’s analytics requests is not known in this window yet (its shared state could not be written or read back whole, or the key is not read yet), and the editor’s AI is held until it is. Nothing was sent; ask the writer to fetch it in the views.',
    );
  }
  if (deps.gate.left() === 0) {
    return vscode.l10n.t(
      'None of the organisation’s analytics requests are left this hour on this machine’s count (teammates on other machines also spend it). Nothing was sent; one frees up in {0}.',
      waitText(Math.max(1_000, deps.gate.freesInMs(1)), vscode.l10n),
    );
  }
  return vscode.l10n.t(
    'The editor’s AI may use the first {0} of the organisation’s {1} analytics requests an hour, and they are used on this machine’s count; the other {2} are kept for what the writer asks in the views. Nothing was sent; ask the writer, or try again later.',
    BACKGROUND_CEILING,
    HOURLY_LIMIT,
    HOURLY_LIMIT - BACKGROUND_CEILING,
  );
}

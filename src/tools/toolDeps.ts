// What every language model tool is made of: the extension's objects it reads and acts through,
// its shape (text in, text out), and the answers they share (what setup is missing, the hour's
// budget used), so the reading and acting tools word them alike.
import * as vscode from 'vscode';
import type { JobStore } from '../jobs/jobStore';
import type { JobTracker } from '../jobs/jobTracker';
import type { Logger } from '../log';
import type { ReadersHandle } from '../readers/registerReaders';
import type { SignalsHandle } from '../signals/registerSignals';
import type { HourBudget } from '../sync/hourBudget';
import type { Ui } from '../ui';
import type { ToolName } from './toolNames';
import type { ToolAnswer } from './toolTexts';

/** What the tools read and act through: the same objects as the views and the commands. */
export interface ToolDeps {
  keys: { readonly hasKey: boolean };
  settings: { readonly projectId: string | undefined; readonly signals: { readonly rankByAiShare: boolean } };
  readers: ReadersHandle;
  signals: Pick<SignalsHandle, 'store'>;
  jobs: JobStore;
  tracker: JobTracker;
  /** The organisation's analytics hour (the shared ledger). */
  hour: HourBudget & { analyticsRequestsThisHour(): number | undefined };
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
export function missingSetup(deps: Pick<ToolDeps, 'keys' | 'settings'>): string | undefined {
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

/** "The hour's analytics budget is used": what is left is kept for what the writer asks in the views. */
export function budgetUsed(deps: Pick<ToolDeps, 'hour'>): string {
  return vscode.l10n.t(
    'The hour\'s analytics budget is used: {0} left, kept for what the writer asks for in the views. Nothing was sent; try again later, or ask the writer to open the Analytics panel.',
    deps.hour.analyticsLeftThisHour(),
  );
}

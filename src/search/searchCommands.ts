// The site's search commands: Check Live Search (a term, the inbox's group of them, or one typed),
// Open Page (a result's page: its workspace file by the one mapping, else the site's own https page),
// Searches Before and After (a job's terms, one by one), Send Misses to the Agent (one follow-up, the
// misses quoted as data in the nonce-marked evidence block), and the notification of a replay.
import * as vscode from 'vscode';
import { ApiError } from '../api';
import { chooseToSend, closePreview } from '../prompt/promptPreview';
import { COMMANDS, type RegisterCommand } from '../commands';
import type { DocsLocator } from '../docs/docsLocator';
import { normalizeSitePath } from '../docs/sitePaths';
import type { PromptSent } from '../jobs/jobCommands';
import { JobNode } from '../jobs/jobsTree';
import { jobLabel, type JobStore } from '../jobs/jobStore';
import type { Logger } from '../log';
import { pageUrl } from '../preview/previewRecord';
import type { SignalsHandle } from '../signals/registerSignals';
import { buildInbox } from '../signals/signalsModel';
import { HOURLY_LIMIT } from '../hour/ledger';
import type { SearchCheck } from '../sync/searchState';
import { type Ui, withCancellableProgress } from '../ui';
import { LARGE_CHECK, type SearchChecks } from './searchChecks';
import { type Gap, misses, replayOutcome } from './searchOutcome';
import { missesPrompt } from './searchPrompt';
import type { SearchReplays } from './searchReplays';
import { gapSentence, replaySummary, termLine } from './searchText';

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

interface ResultItem extends vscode.QuickPickItem {
  path?: string;
  send?: boolean;
}

export function registerSearchCommands(context: vscode.ExtensionContext, deps: SearchCommandPorts): void {
  const { command, checks, replays, ui } = deps;

  /** Says what is missing (the key, the site), with the command that sets it; true when search can be used. */
  const ready = async (): Promise<boolean> => {
    if (deps.searchable()) return true;
    const key = vscode.l10n.t('Set Assistant Key');
    const site = vscode.l10n.t('Set Site Domain');
    const noDomain = deps.settings.search.siteDomain === undefined;
    const choice = await ui.showMessage(
      'info',
      vscode.l10n.t(
        'Checking searches against the live site needs the site’s assistant API key (it starts with "mint_dsc_") and its domain identifier. Nothing was sent.',
      ),
      ...(noDomain ? [key, site] : [key]),
    );
    if (choice === key) await vscode.commands.executeCommand(COMMANDS.setAssistantKey);
    if (choice === site) await vscode.commands.executeCommand(COMMANDS.setSiteDomain);
    return false;
  };

  /** The terms a check is about: the node's term, every term of the inbox's group, or one the writer types. */
  const termsOf = async (arg: unknown): Promise<string[] | undefined> => {
    const node = arg as { type?: string; id?: string; signal?: { searchQuery?: unknown } } | undefined;
    if (node?.type === 'search' && typeof node.signal?.searchQuery === 'string') return [node.signal.searchQuery];
    if (node?.type === 'group' && node.id === 'searches') {
      const snapshot = deps.signals.store.current();
      return snapshot ? buildInbox(snapshot).searches.map((s) => s.searchQuery) : [];
    }
    const typed = await ui.showInputBox({
      title: vscode.l10n.t('Check Live Search'),
      prompt: vscode.l10n.t('A search term, as readers type it. The site’s search is asked once (one request), as readers search.'),
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Type a search term.')),
    });
    return typed?.trim() ? [typed.trim()] : undefined;
  };

  command(COMMANDS.checkSearch, async (arg?: unknown) => {
    if (!(await ready())) return;
    const terms = await termsOf(arg);
    if (!terms?.length) return;
    const domain = deps.searchable() ?? '';
    const expect = await deps.expectedPage();
    // A check of one term asks again (the writer asked); a group reuses what was checked in the last day.
    const fresh = terms.length === 1;
    const cost = checks.cost(terms, fresh);
    if (cost > LARGE_CHECK) {
      const go = vscode.l10n.t('Check {0} Searches', cost);
      const asked = vscode.l10n.t(
        'Checking {0} searches is {0} requests of the site’s search of “{1}” ({2} more were checked in the last day and are reused). Its limit is 10,000 an hour for the organisation; the analytics hour is not touched.',
        cost,
        domain,
        terms.length - cost,
      );
      if ((await ui.showMessage('info', asked, go)) !== go) return;
    }
    const run = await withCancellableProgress(ui, vscode.l10n.t('Checking the live search of “{0}”…', domain), (signal) =>
      checks.check(terms, { fresh, signal, ...(expect && { expect }) }),
    );
    if (run.error && !(run.error instanceof ApiError && run.error.kind === 'cancelled')) deps.fail(vscode.l10n.t('Checking the live search'), run.error);
    deps.log.info(`checked ${run.checks.size} of ${terms.length} searches (${run.requests} requests)`);
    if (terms.length === 1) {
      const [term] = terms;
      const check = run.checks.get(term);
      if (check) await showResults(term, check);
      return;
    }
    if (!run.checks.size) return;
    const nothing = [...run.checks.values()].filter((c) => !c.hits.length).length;
    void ui.showMessage(
      'info',
      vscode.l10n.t(
        'Checked {0} of {1} searches readers gave up on ({2} requests): {3} find nothing (content gaps), {4} find pages readers did not click. Each row of Reader Signals says what its search found.',
        run.checks.size,
        terms.length,
        run.requests,
        nothing,
        run.checks.size - nothing,
      ),
    );
  });

  /** A term's results, best first: picking one opens its page. */
  const showResults = async (term: string, check: SearchCheck) => {
    const gap = await deps.gapFor(check);
    if (!check.hits.length) return void ui.showMessage('info', `“${term}”: ${gapSentence(gap)}`);
    const items: ResultItem[] = await Promise.all(
      check.hits.map(async (hit, i) => ({
        label: `${i + 1}. ${hit.p || '?'}`,
        description: (await deps.docs.fileOf(hit.p)) ? vscode.l10n.t('in this workspace') : vscode.l10n.t('on the site'),
        ...(hit.c && { detail: hit.c }),
        path: hit.p,
      })),
    );
    const picked = await ui.showQuickPick(items, { title: `“${term}”: ${gapSentence(gap)}`, placeHolder: vscode.l10n.t('Open a result’s page') });
    if (picked?.path) await openPage(picked.path);
  };

  /** A page by its site path: its workspace file (the one mapping), else the site's own https page. */
  const openPage = async (path: unknown) => {
    if (typeof path !== 'string' || !path) return;
    const sitePath = normalizeSitePath(path);
    const file = await deps.docs.fileOf(sitePath);
    if (file) return void (await vscode.window.showTextDocument(file, { preview: true }));
    const domain = deps.settings.search.siteDomain;
    const url = domain ? pageUrl(`https://${domain}.mintlify.site`, sitePath) : undefined;
    if (!url) return void ui.showMessage('info', vscode.l10n.t('No page for "{0}" in this workspace, and no site to open it on.', sitePath));
    await ui.openExternal(vscode.Uri.parse(url.href));
  };
  command(COMMANDS.openSearchPage, openPage);

  const jobIdOf = (arg: unknown): string | undefined => (arg instanceof JobNode ? arg.tracked.id : typeof arg === 'string' ? arg : undefined);

  command(COMMANDS.showSearchReplay, async (arg?: unknown) => {
    const project = deps.settings.projectId;
    const jobId = jobIdOf(arg);
    const replay = project && jobId ? replays.get(project, jobId) : undefined;
    if (!project || !jobId || !replay) return;
    const outcome = replayOutcome(replay);
    const items: ResultItem[] = outcome.terms.map((t) => ({
      label: termLine(t),
      ...(t.after?.kind === 'finds' && { path: t.after.page }),
    }));
    const left = misses(outcome);
    if (left.length) items.push({ label: vscode.l10n.t('$(send) Send the {0} misses to the agent as one follow-up…', left.length), send: true });
    const title = replay.afterAt === undefined ? vscode.l10n.t('Searches before the change (searched again once it is live)') : replaySummary(outcome);
    const picked = await ui.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Open the page a search finds') });
    if (picked?.send) await sendMisses(jobId);
    else if (picked?.path) await openPage(picked.path);
  });

  /** The terms that still miss, back to the agent as one follow-up of the job; they start the next round. */
  const sendMisses = async (arg: unknown): Promise<void> => {
    const project = deps.settings.projectId;
    const jobId = jobIdOf(arg);
    const replay = project && jobId ? replays.get(project, jobId) : undefined;
    if (!project || !jobId || !replay || replay.afterAt === undefined) return;
    const outcome = replayOutcome(replay);
    const missed = misses(outcome);
    if (!missed.length) return void ui.showMessage('info', vscode.l10n.t('Every search of this job finds the page now: nothing to send.'));
    const tracked = deps.jobs.get(jobId);
    const used = deps.ledger.agentRequestsThisHour(project);
    const composed = missesPrompt(outcome, missed);
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: composed.text });
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    const send = await chooseToSend(ui, document, {
      message: `${vscode.l10n.t(
        "One follow-up to “{0}” with the {1} searches that still miss: 1 agent request of the project's hour ({2} of {3} used). The preview is exactly what the agent will get (edit it if you like). Send it?",
        tracked ? jobLabel(tracked) : jobId,
        missed.length,
        used,
        HOURLY_LIMIT,
      )}`,
      button: vscode.l10n.t('Send Follow-up'),
    });
    if (!send) return;
    const text = document.getText();
    if (!text.trim()) return void ui.showMessage('error', vscode.l10n.t('The prompt is empty, so nothing was sent.'));
    const sent = (await vscode.commands.executeCommand<PromptSent | undefined>(COMMANDS.sendFollowUp, jobId, text)) ?? { sent: false, outcomeUnknown: false };
    await closePreview(document);
    if (!sent.sent) return;
    // The misses' after is the next round's before: searched again once the follow-up's change is live.
    const before = new Map(missed.flatMap((t) => (replay.terms[t.term]?.after ? [[t.term, replay.terms[t.term].after as SearchCheck]] : [])));
    await replays.record(project, jobId, replay.domain, before, replay.expect);
  };
  command(COMMANDS.sendSearchMisses, sendMisses);

  // The replay's notification, in the window that searched it: the summary, the page, the misses.
  context.subscriptions.push(
    replays.onDidReplay(async ({ jobId, replay }) => {
      const outcome = replayOutcome(replay);
      const open = vscode.l10n.t('Open Page');
      const back = vscode.l10n.t('Send Misses to Agent');
      const show = vscode.l10n.t('Searches Before and After');
      const buttons = [...(outcome.page ? [open] : []), ...(misses(outcome).length ? [back] : []), show];
      const tracked = deps.jobs.get(jobId);
      const choice = await ui.showMessage('info', `${tracked ? jobLabel(tracked) : jobId}: ${replaySummary(outcome)}`, ...buttons);
      if (choice === open) await openPage(outcome.page);
      else if (choice === back) await sendMisses(jobId);
      else if (choice === show) await vscode.commands.executeCommand(COMMANDS.showSearchReplay, jobId);
    }),
  );
}

// The reader-signals commands: fetch the snapshot, open a signal's page, show a question's whole
// thread (one request), ask the agent to address a signal with the evidence, and "Did it help?" for
// a page a job changed. Every request passes the hour's gate, asked as the writer's.
import * as vscode from 'vscode';
import type { ApiClient } from '../api';
import { ENDPOINTS } from '../api/endpoints';
import type { CutShort } from '../api/paging';
import type { HourGate } from '../hour/hourGate';
import { cutShortText } from '../cutShortText';
import type { DocsLocator } from '../docs/docsLocator';
import { openDocPage } from '../docs/openDocPage';
import { reportFailure } from '../reportFailure';
import type { JobStore } from '../jobs/jobStore';
import type { Logger } from '../log';
import { type Ui, withCancellableProgress } from '../ui';
import { background } from '../util/background';
import { utcDay } from '../util/days';
import { mergeOfJobBranch } from '../git/jobMerge';
import { changeEvent, comparisonWindows, compareWindows, type Change } from './didItHelp';
import { buildEvidencePrompt, suggestedInstruction } from './evidencePrompt';
import { countWindow, WINDOW_MOST_REQUESTS, type WindowCuts } from './impactCheck';
import { MOST_REQUESTS } from './snapshot';
import type { PromptSender } from './promptSender';
import type { SignalJobs } from './signalJobs';
import { evidenceFor, parseSignalRef, pathOf, searchTermsOf, signalIdsOf, type SignalRef } from './signalRef';
import type { SignalsStore } from './signalsStore';
import { type SignalNode } from './signalsTree';
import { COMMANDS, type RegisterCommand } from '../commands';

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

export function registerSignalsCommands(_context: vscode.ExtensionContext, deps: SignalsCommandPorts): void {
  const { command } = deps;
  const { store, ui, log } = deps;
  // The failure table words it (and offers Set API Key, Show Log…); the log keeps what we were doing.
  // Failures of a retry report themselves.
  const fail = (doing: string, error: unknown, retry?: () => Promise<unknown>) => {
    background(reportFailure({ ui, log }, error, { context: 'analytics', doing, on: retry && { retry } }), log, `${doing}: the failure message`);
  };

  const refresh = async () => {
    try {
      // What the kept snapshot took (else up to the lists' caps), asked first when the hour may not hold it; held to what was granted.
      const last = store.current()?.requests;
      const grant = await deps.gate.ask({
        what: vscode.l10n.t('Fetching reader signals'),
        estimate: last ?? MOST_REQUESTS,
        upTo: last === undefined,
        cap: MOST_REQUESTS,
      });
      if (!grant) return;
      const outcome = await ui.withProgress({ location: { viewId: 'mintlifyAgent.signals' }, title: vscode.l10n.t('Fetching reader signals…') }, () =>
        store.refresh({ grant }).finally(() => grant.end()),
      );
      if (outcome.kind === 'skipped' && outcome.reason === 'noProject')
        void ui.showMessage('info', vscode.l10n.t('Set the project ID first: the signals belong to a project.'));
    } catch (error) {
      fail(vscode.l10n.t('Fetching reader signals'), error, refresh);
    }
  };

  const askToAddress = async (arg?: unknown) => {
    const projectId = deps.projectId();
    const ref = parseSignalRef(arg) ?? (await refOfEditor(deps.docs, arg));
    if (!ref) return void ui.showMessage('info', vscode.l10n.t('Pick a signal in the Reader Signals view, or open a docs page, to ask the agent about it.'));
    const snapshot = (await store.load()) ?? undefined;
    if (!projectId || !snapshot) {
      const fetch = vscode.l10n.t('Fetch Reader Signals');
      if ((await ui.showMessage('info', vscode.l10n.t('There are no reader signals yet for this project.'), fetch)) === fetch) await refresh();
      return;
    }
    const path = pathOf(ref);
    const files = path ? await filesOf(deps.docs, path) : [];
    const terms = searchTermsOf(ref);
    // The site's search today, when it can be asked: which gap this is, and the before of the job the prompt reaches.
    const live = terms.length ? await deps.liveSearch()?.prepare(terms) : undefined;
    const evidence = { ...evidenceFor(snapshot, ref, files), ...(live && { live: live.lines }) };
    const instruction = await ui.showInputBox({
      title: vscode.l10n.t('Ask the Agent to Address This'),
      prompt: vscode.l10n.t(
        'Your instruction to the agent. The readers’ evidence is added below it, quoted as data; you will see the whole prompt before it is sent.',
      ),
      value: live ? `${suggestedInstruction(evidence)} ${live.instruction}` : suggestedInstruction(evidence),
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Type an instruction for the agent.')),
    });
    if (!instruction?.trim()) return;
    const { prompt } = buildEvidencePrompt(instruction, evidence);
    try {
      const sent = (await deps.sender.previewAndSend(prompt))?.sent;
      if (!sent || (!sent.sent && !sent.outcomeUnknown)) return; // stopped, or the failure was reported where it happened
      if (!sent.sent) {
        // Never a guess (the newest job, one with the same prompt): a wrong link would show another job's state here.
        return void ui.showMessage(
          'warning',
          vscode.l10n.t(
            'The signal is not linked to a job: the answer to the send was lost, so it is not known whether the agent got it. If a job for it shows up, ask again from the signal with a follow-up to that job.',
          ),
        );
      }
      deps.links.remember(projectId, {
        jobId: sent.jobId,
        signalIds: signalIdsOf(ref),
        path,
        searches: terms.length ? terms : evidence.searches.map((s) => s.searchQuery),
        askedAt: new Date().toISOString(),
      });
      live?.record(projectId, sent.jobId);
      void ui.showMessage('info', vscode.l10n.t('The agent is on it (job {0}). The signal shows the job’s state.', sent.jobId));
    } catch (error) {
      fail(vscode.l10n.t('Sending the prompt'), error);
    }
  };

  const showThread = async (node?: SignalNode) => {
    const projectId = deps.projectId();
    if (node?.type !== 'question' || !projectId) return;
    const grant = await deps.gate.ask({ what: vscode.l10n.t('Reading the whole thread'), estimate: 1 });
    if (!grant) return;
    try {
      const thread = await deps.api.getAssistantThread(projectId, node.question.id, { grant }).finally(() => grant.end());
      const lines = [vscode.l10n.t('Assistant thread {0} ({1}). Reader text, shown as written.', thread.threadId, thread.createdAt), ''];
      for (const message of thread.messages) lines.push(`[${message.createdAt}] ${message.role}:`, message.content, '');
      const document = await vscode.workspace.openTextDocument({ language: 'plaintext', content: lines.join('\n') });
      await vscode.window.showTextDocument(document, { preview: true });
    } catch (error) {
      fail(vscode.l10n.t('Reading the assistant thread'), error);
    }
  };

  // Under a cancellable notification: the git lookup can wait on git (up to its deadline) and the
  // comparison on the API. Cancel kills git and aborts the requests, and changes nothing.
  const checkImpact = async (arg?: unknown) => {
    const projectId = deps.projectId();
    const ref = parseSignalRef(arg);
    if (!projectId || !ref) return;
    const path = pathOf(ref);
    const link = signalIdsOf(ref)
      .map((id) => deps.links.jobFor(projectId, id))
      .find((j) => j);
    const jobNotes = link ? deps.jobNotes.flatMap((note) => note(link.jobId) ?? []) : [];
    if (!path) {
      // Searches readers gave up on: the same-day answer is the site's own search, before and after (src/search).
      if (!link) return void ui.showMessage('info', vscode.l10n.t('No agent job addresses this search yet.'));
      return void ui.showMessage(
        'info',
        jobNotes.join(' ') || vscode.l10n.t('Job {0} addresses this search; its change is not live yet, so there is nothing to compare.', link.jobId),
      );
    }
    const noJob = () => void ui.showMessage('info', vscode.l10n.t('No agent job for {0} has finished with a pull request yet.', path));
    if (!link) return noJob();
    const job = deps.jobs.get(link.jobId)?.job;
    // The notification's Cancel, seen after it closed.
    let cancel: AbortSignal | undefined;
    try {
      const answer = await withCancellableProgress(ui, vscode.l10n.t('Did It Help?'), async (signal, progress) => {
        cancel = signal;
        if (job?.ref && vscode.workspace.isTrusted) progress.report({ message: vscode.l10n.t('looking for the merge of {0} in the git history…', job.ref) });
        // Local git only (no fetch). A git that fails or runs out of time is no error here: the job's finish counts.
        const merge = await mergeOfJobBranch(job, signal).catch((error: unknown) => {
          if (signal.aborted) throw error;
          log.warn(`merge lookup: ${String(error)}`);
          return undefined;
        });
        const event = changeEvent(link.finishedAt ? Date.parse(link.finishedAt) : undefined, Date.parse(link.askedAt), merge);
        if (!event) return undefined;
        const day = utcDay(event.at);
        const since =
          event.kind === 'merge'
            ? vscode.l10n.t('since the merge of {0} on {1}', event.branch, day)
            : vscode.workspace.isTrusted
              ? vscode.l10n.t('since the job finished on {0}', day)
              : vscode.l10n.t(
                  'since the job finished on {0} (this folder is not trusted, so its git history was not read for the merge; trust the folder to count from the merge)',
                  day,
                );
        const windows = comparisonWindows(event.at, Date.now());
        if (!windows) return [vscode.l10n.t('Not enough days {0}: the comparison needs a week after it.', since), ...jobNotes].join(' ');
        const target = { path, searches: link.searches };
        const atMost = 2 * (WINDOW_MOST_REQUESTS - (link.searches.length ? 0 : ENDPOINTS.getSearches.maxPages));
        const grant = await deps.gate.ask({ what: vscode.l10n.t('Did It Help?'), estimate: atMost, upTo: true });
        if (!grant) return vscode.l10n.t('Did It Help? was not checked: it was not fetched.');
        progress.report({ message: vscode.l10n.t('comparing {0} days before and after…', windows.days) });
        const before = await countWindow(deps.api, projectId, target, windows.before, { signal, grant });
        const after = await countWindow(deps.api, projectId, target, windows.after, { signal, grant }).finally(() => grant.end());
        const result = compareWindows(before, after, link.searches.length > 0);
        const parts = [
          vscode.l10n.t('not-helpful share: {0}', describe(result.thumbsDownShare)),
          vscode.l10n.t('unanswered questions: {0}', describe(result.unansweredShare)),
          ...(result.searchClickRate ? [vscode.l10n.t('clicks on its searches: {0}', describe(result.searchClickRate))] : []),
        ];
        const answer = vscode.l10n.t(
          '{0}, {1} days before vs after, {2}: {3}. ({4} requests)',
          path,
          windows.days,
          since,
          parts.join('; '),
          before.requests + after.requests,
        );
        const notes = (await Promise.all(deps.impactNotes.map((note) => note(path).catch(() => undefined)))).filter((n): n is string => !!n);
        return [answer, ...cutNotes(before.cutShort, vscode.l10n.t('before')), ...cutNotes(after.cutShort, vscode.l10n.t('after')), ...notes, ...jobNotes].join(
          ' ',
        );
      });
      if (cancel?.aborted) return void ui.showMessage('info', vscode.l10n.t('Did It Help? cancelled.'));
      if (answer === undefined) return noJob();
      void ui.showMessage('info', answer);
    } catch (error) {
      if (cancel?.aborted) return void ui.showMessage('info', vscode.l10n.t('Did It Help? cancelled.'));
      fail(vscode.l10n.t('Checking whether it helped'), error);
    }
  };

  command(COMMANDS.refreshSignals, refresh);
  command(COMMANDS.askToAddress, askToAddress);
  command(COMMANDS.openSignalPage, (path: unknown) => typeof path === 'string' && openDocPage(path, ui, log));
  command(COMMANDS.showAssistantThread, showThread);
  command(COMMANDS.checkSignalImpact, checkImpact);
}

/** What the paging rule left out of a window's counts, in the words of the Reader Signals view. */
function cutNotes(cuts: WindowCuts, when: string): string[] {
  const names = {
    votes: vscode.l10n.t('Votes ({0})', when),
    questions: vscode.l10n.t('Assistant questions ({0})', when),
    searches: vscode.l10n.t('Searches ({0})', when),
  };
  return (Object.entries(cuts) as [keyof WindowCuts, CutShort][]).map(([list, cut]) => cutShortText(names[list], cut, vscode.l10n));
}

function describe(change: Change): string {
  if (change.kind === 'notEnoughData') return vscode.l10n.t('not enough data yet (needs {0})', change.need);
  const pct = (n: number) => `${Math.round(n * 1000) / 10}%`;
  return vscode.l10n.t(
    '{0} → {1} ({2}{3} points, {4})',
    pct(change.before),
    pct(change.after),
    change.points > 0 ? '+' : '',
    change.points,
    change.better ? vscode.l10n.t('better') : vscode.l10n.t('not better'),
  );
}

/** A page from an editor: the URI the command was given (editor title, status bar), else the active editor. */
async function refOfEditor(docs: DocsLocator, arg: unknown): Promise<SignalRef | undefined> {
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  const page = uri && (await docs.pageOf(uri));
  return page ? { kind: 'page', path: page.sitePath } : undefined;
}

async function filesOf(docs: DocsLocator, path: string): Promise<string[]> {
  const uri = await docs.fileOf(path);
  return uri ? [vscode.workspace.asRelativePath(uri, false)] : [];
}

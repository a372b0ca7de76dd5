// Did It Help?: a page's readers before and after the change of the agent job linked to its signal
// (counted from the job branch's merge in the local git history, else the job's finish), compared
// over the same number of days; for a search, what other features say of the job (src/search).
import * as vscode from 'vscode';
import { ENDPOINTS } from '../../api/endpoints';
import type { CutShort } from '../../api/paging';
import { cutShortText } from '../../cutShortText';
import { mergeOfJobBranch } from '../../git/jobMerge';
import { withCancellableProgress } from '../../ui';
import { utcDay } from '../../util/days';
import { changeEvent, comparisonWindows, compareWindows, type Change } from '../didItHelp';
import { countWindow, WINDOW_MOST_REQUESTS, type WindowCuts } from '../impactCheck';
import { parseSignalRef, pathOf, signalIdsOf } from '../signalRef';
import { reportSignalsFailure, type SignalsCommandPorts } from './signalsCommandPorts';

/**
 * The command, under a cancellable notification: the git lookup can wait on git (up to its deadline)
 * and the comparison on the API. Cancel kills git and aborts the requests, and changes nothing.
 */
export function checkSignalImpactCommand(ports: SignalsCommandPorts) {
  const { ui, log } = ports;
  return async (arg?: unknown): Promise<void> => {
    const projectId = ports.projectId();
    const ref = parseSignalRef(arg);
    if (!projectId || !ref) return;
    const path = pathOf(ref);
    const link = signalIdsOf(ref)
      .map((id) => ports.links.jobFor(projectId, id))
      .find((j) => j);
    const jobNotes = link ? ports.jobNotes.flatMap((note) => note(link.jobId) ?? []) : [];
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
    const job = ports.jobs.get(link.jobId)?.job;
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
        const grant = await ports.gate.ask({ what: vscode.l10n.t('Did It Help?'), estimate: atMost, upTo: true });
        if (!grant) return vscode.l10n.t('Did It Help? was not checked: it was not fetched.');
        progress.report({ message: vscode.l10n.t('comparing {0} days before and after…', windows.days) });
        const before = await countWindow(ports.api, projectId, target, windows.before, { signal, grant });
        const after = await countWindow(ports.api, projectId, target, windows.after, { signal, grant }).finally(() => grant.end());
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
        const notes = (await Promise.all(ports.impactNotes.map((note) => note(path).catch(() => undefined)))).filter((n): n is string => !!n);
        return [answer, ...cutNotes(before.cutShort, vscode.l10n.t('before')), ...cutNotes(after.cutShort, vscode.l10n.t('after')), ...notes, ...jobNotes].join(
          ' ',
        );
      });
      if (cancel?.aborted) return void ui.showMessage('info', vscode.l10n.t('Did It Help? cancelled.'));
      if (answer === undefined) return noJob();
      void ui.showMessage('info', answer);
    } catch (error) {
      if (cancel?.aborted) return void ui.showMessage('info', vscode.l10n.t('Did It Help? cancelled.'));
      reportSignalsFailure(ports, vscode.l10n.t('Checking whether it helped'), error);
    }
  };
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

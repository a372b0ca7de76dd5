// A job's searches before and after: Searches Before and After (a job's terms, one by one, each
// opening the page it finds, and the misses to send), and the notification of a replay.
import * as vscode from 'vscode';
import { COMMANDS } from '../../commands';
import { jobLabel } from '../../jobs/jobStore';
import { misses, replayOutcome } from '../searchOutcome';
import type { Replayed } from '../searchReplays';
import { replaySummary, termLine } from '../searchText';
import { openSearchPageCommand } from './openSearchPage';
import { jobIdOf, type ResultItem, type SearchCommandPorts } from './searchCommandPorts';
import { sendSearchMissesCommand } from './sendSearchMisses';

/** The command: `arg` is a job's row or its ID. */
export function showSearchReplayCommand(ports: SearchCommandPorts) {
  const { replays, ui } = ports;
  const openPage = openSearchPageCommand(ports);
  const sendMisses = sendSearchMissesCommand(ports);
  return async (arg?: unknown): Promise<void> => {
    const project = ports.settings.projectId;
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
  };
}

/** The replay's notification, in the window that searched it: the summary, the page, the misses. */
export function replayNotification(ports: SearchCommandPorts) {
  const { ui } = ports;
  const openPage = openSearchPageCommand(ports);
  const sendMisses = sendSearchMissesCommand(ports);
  return async ({ jobId, replay }: Replayed): Promise<void> => {
    const outcome = replayOutcome(replay);
    const open = vscode.l10n.t('Open Page');
    const back = vscode.l10n.t('Send Misses to Agent');
    const show = vscode.l10n.t('Searches Before and After');
    const buttons = [...(outcome.page ? [open] : []), ...(misses(outcome).length ? [back] : []), show];
    const tracked = ports.jobs.get(jobId);
    const choice = await ui.showMessage('info', `${tracked ? jobLabel(tracked) : jobId}: ${replaySummary(outcome)}`, ...buttons);
    if (choice === open) await openPage(outcome.page);
    else if (choice === back) await sendMisses(jobId);
    else if (choice === show) await vscode.commands.executeCommand(COMMANDS.showSearchReplay, jobId);
  };
}

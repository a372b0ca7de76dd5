// A job's searches before and after, where the job is: Did It Help?'s answer about a signal's job,
// and the job's row in Agent Jobs (its mark says when searches still miss).
import * as vscode from 'vscode';
import type { Settings } from '../config';
import type { TrackedJob } from '../jobs/jobStore';
import type { RowNote, RowNotes } from '../jobs/jobsTree';
import type { SignalsHandle } from '../signals/registerSignals';
import { replayOutcome } from './searchOutcome';
import type { SearchReplays } from './searchReplays';
import { replayNote, replaySummary, termLine } from './searchText';

interface ReplayNotesPorts {
  settings: Pick<Settings, 'projectId'>;
  replays: SearchReplays;
  signals: Pick<SignalsHandle, 'jobNotes'>;
  /** The Agent Jobs rows. */
  rows: { addNotes(notes: RowNotes): void };
}

export function registerReplayNotes(_context: vscode.ExtensionContext, { settings, replays, signals, rows }: ReplayNotesPorts): void {
  const project = () => settings.projectId;
  signals.jobNotes.push((jobId) => {
    const replay = project() && replays.get(project() ?? '', jobId);
    if (!replay) return undefined;
    const outcome = replayOutcome(replay);
    if (replay.afterAt === undefined)
      return vscode.l10n.t(
        'The site’s search: {0} searches readers gave up on are searched again once the job’s change is live (merged and deployed).',
        outcome.terms.length,
      );
    return [vscode.l10n.t('The site’s search, the same day:'), replaySummary(outcome), ...outcome.terms.map(termLine)].join(' ');
  });
  rows.addNotes({
    noteOf: (tracked: TrackedJob): RowNote | undefined => {
      const replay = project() && replays.get(project() ?? '', tracked.id);
      if (!replay) return undefined;
      const outcome = replayOutcome(replay);
      const note = replayNote(replay, outcome);
      const misses = replay.afterAt !== undefined && outcome.terms.some((t) => t.after?.kind !== 'finds');
      return { ...note, mark: misses ? 'searches misses' : 'searches' };
    },
    onDidChange: replays.onDidChange,
  });
}

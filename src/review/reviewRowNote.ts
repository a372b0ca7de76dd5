// A job's row in the Agent Jobs view with a pending review says so: "3 comments to send", and whether
// that review is being sent or its last send lost its answer.
import * as vscode from 'vscode';
import type { TrackedJob } from '../jobs/jobStore';
import type { RowNote } from '../jobs/jobsTree';
import type { ReviewModel } from './reviewModel';

export function rowNote(model: ReviewModel, tracked: TrackedJob): RowNote | undefined {
  const pending = model.pending(tracked.id);
  if (!pending.length) return undefined;
  const files = new Set(pending.map((c) => c.path)).size;
  const count = pending.length === 1 ? vscode.l10n.t('1 comment to send') : vscode.l10n.t('{0} comments to send', pending.length);
  const lost = model.lost(tracked.id) !== undefined;
  const inFlight = model.inFlight(tracked.id) !== undefined;
  return {
    text: inFlight ? vscode.l10n.t('{0} (being sent)', count) : lost ? vscode.l10n.t('{0} (the last send lost its answer)', count) : count,
    tooltip: [
      files === 1 ? vscode.l10n.t('Pending review: {0} on 1 file.', count) : vscode.l10n.t('Pending review: {0} on {1} files.', count, files),
      vscode.l10n.t('Send Review to Agent sends them as one follow-up.'),
      lost ? vscode.l10n.t('Its last send lost its answer: the agent may already have it.') : '',
    ]
      .filter(Boolean)
      .join(' '),
    mark: 'comments',
  };
}

// The Agent Jobs row of a job with a preview: "preview building / ready / failed / of an older
// commit", its marks, and the tooltip with the stage and the screenshots.
import * as vscode from 'vscode';
import { failureView } from '../errorMessages';
import type { TrackedJob } from '../jobs/jobStore';
import type { RowNote } from '../jobs/jobsTree';
import type { PreviewModel } from './previewModel';
import { isOlder, openable, stageOf } from './previewRecord';

/**
 * The row's words and marks once the job has a preview (a row without one is left as it was: Preview Branch
 * is offered on every job row by the context key).
 */
export function rowNote(model: PreviewModel, tracked: TrackedJob): RowNote | undefined {
  const preview = model.get(tracked.id);
  if (!preview) return undefined;
  const stage = stageOf(preview);
  const older = isOlder(preview, model.tipOf(tracked.id));
  const words = {
    building: vscode.l10n.t('preview building'),
    ready: vscode.l10n.t('preview ready'),
    failed: vscode.l10n.t('preview failed'),
    unfinished: vscode.l10n.t('preview status unknown'),
  };
  const error = model.errorOf(tracked.id);
  const lines = [
    vscode.l10n.t('Preview: {0} (status “{1}”, deployed {2}).', words[stage], preview.status, new Date(preview.requestedAt).toLocaleString()),
    preview.previewUrl ? vscode.l10n.t('Address: {0}', preview.previewUrl) : '',
    preview.sha ? vscode.l10n.t('Commit: {0}', preview.sha.slice(0, 12)) : '',
    preview.summary ? vscode.l10n.t('Summary: {0}', preview.summary) : '',
    older ? vscode.l10n.t('The agent’s branch has moved on since: the preview is of an older commit. Preview Branch deploys it again.') : '',
    stage === 'unfinished' ? vscode.l10n.t('Its status did not end within 20 minutes and is no longer read.') : '',
    error ? vscode.l10n.t('Last status read: {0}', failureView(error, 'previewStatus', vscode.l10n).message) : '',
  ];
  const marks = [stage === 'ready' && 'previewReady', stage === 'failed' && 'previewFailed', older && 'previewOlder'].filter(Boolean);
  const images =
    stage === 'ready'
      ? (
          [
            [vscode.l10n.t('Screenshot (light)'), preview.screenshotLight],
            [vscode.l10n.t('Screenshot (dark)'), preview.screenshotDark],
          ] as const
        ).flatMap(([label, url]) => (openable(url) ? [{ label, url: url as string }] : []))
      : [];
  return {
    text: older ? vscode.l10n.t('preview of an older commit') : words[stage],
    tooltip: lines.filter(Boolean).join('\n\n'),
    mark: marks.join(':') || 'preview',
    images,
  };
}

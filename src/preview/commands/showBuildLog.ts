// Show Build Log: the failed build's log as a read-only document beside the editor, under its own
// scheme (registerPreview.ts serves it with buildLogText, and refreshes it as the preview changes).
import * as vscode from 'vscode';
import { failureView } from '../../errorMessages';
import type { PreviewModel } from '../previewModel';
import { jobOf, type PreviewCommandPorts } from './previewCommandPorts';

export const LOG_SCHEME = 'mintlify-preview-log';

/** The command: the log of a row's job, an id's, or one picked among the jobs with a preview. */
export function showBuildLogCommand(ports: PreviewCommandPorts) {
  const { model } = ports;
  return async (arg?: unknown): Promise<void> => {
    const jobId = await jobOf(ports, arg, (t) => model.get(t.id) !== undefined, vscode.l10n.t('Show Build Log'));
    if (!jobId) return;
    const document = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: LOG_SCHEME, path: `/${encodeURIComponent(jobId)}/build.log` }));
    await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  };
}

/**
 * The readable view of a build: its summary, branch, commit and every kept log line, as plain text,
 * saying what the kept copy leaves out of what the platform sent.
 */
export async function buildLogText(model: PreviewModel, jobId: string): Promise<string> {
  const preview = model.get(jobId);
  if (!preview) return vscode.l10n.t('No preview of this job is known in this window.');
  const read = await model.logOf(jobId);
  const log = read && 'log' in read ? read.log : undefined;
  const lines = log
    ? log.lines.map((line, i) => {
        const more = (log.lengths[i] ?? line.length) - line.length;
        return more > 0 ? vscode.l10n.t('{0}… ({1} more characters not kept)', line, more) : line;
      })
    : [];
  return [
    vscode.l10n.t('Preview of {0}: {1}', preview.branch, preview.status),
    (log?.summary ?? preview.summary) ? vscode.l10n.t('Summary: {0}', log?.summary ?? preview.summary ?? '') : '',
    preview.sha ? vscode.l10n.t('Commit: {0}', preview.sha) : '',
    '',
    ...(log && log.total > log.lines.length ? [vscode.l10n.t('(the first {0} of its {1} lines are not kept)', log.total - log.lines.length, log.total)] : []),
    ...(lines.length
      ? lines
      : [
          read && 'error' in read
            ? vscode.l10n.t('(its log could not be read: {0})', failureView(read.error, 'previewStatus', vscode.l10n).message)
            : vscode.l10n.t('(no log lines yet)'),
        ]),
  ].join('\n');
}

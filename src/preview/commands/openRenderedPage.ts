// Open Rendered Page: a page of a ready preview, beside the diff it was asked from (the page of the
// diff's file), or one the writer picks among the pages the agent changed and the home page.
import * as vscode from 'vscode';
import type { TrackedJob } from '../../jobs/jobStore';
import { type SharedPreview, stageOf } from '../previewRecord';
import { changedPages, type Opened, openRenderedPage, pageOfUri, type PageTarget } from '../renderedPage';
import { jobOf, type PreviewCommandPorts } from './previewCommandPorts';

/** The command: `arg` is a diff's file, a row, a job's id, or nothing. */
export function openRenderedPageCommand(ports: PreviewCommandPorts) {
  const { model, pages, ui } = ports;
  return async (arg?: unknown): Promise<Opened | undefined> => {
    // A page's diff title passes its file (a `git:` side or the workspace file); Review Changes' title passes the multi-diff's own URI, which is no page.
    const uri = arg instanceof vscode.Uri && (arg.scheme === 'file' || arg.scheme === 'git') ? arg : undefined;
    const ready = (t: TrackedJob) => stageOf(model.get(t.id) ?? ({ status: '' } as SharedPreview)) === 'ready';
    const jobId = await jobOf(ports, arg instanceof vscode.Uri ? undefined : arg, ready, vscode.l10n.t('Open Rendered Page'));
    const preview = jobId ? model.get(jobId) : undefined;
    if (!jobId || !preview) return undefined;
    if (stageOf(preview) !== 'ready') return void ui.showMessage('info', vscode.l10n.t('The preview is not ready yet ({0}).', preview.status));
    let target: PageTarget | undefined;
    if (uri) {
      target = await pageOfUri(pages, uri);
      if (!target) {
        void ui.showMessage(
          'info',
          vscode.l10n.t('{0} is not a page of the docs site, so the preview has no page for it.', vscode.workspace.asRelativePath(uri)),
        );
        return { notPage: uri.toString() };
      }
    } else {
      const changed = await changedPages(pages, preview);
      const home: PageTarget = { sitePath: '/' };
      const picked = await ui.showQuickPick(
        [...changed, home].map((p) => ({ label: p.sitePath, description: p.repositoryPath ?? vscode.l10n.t('the home page'), target: p })),
        {
          title: vscode.l10n.t('Open Rendered Page'),
          placeHolder: preview.filesLeftOut
            ? vscode.l10n.t('A page the agent changed, or the home page ({0} more files of the commit are not listed)', preview.filesLeftOut)
            : vscode.l10n.t('A page the agent changed, or the home page'),
        },
      );
      target = picked?.target;
    }
    // A diff's title passes its side (a page) or Review Changes' own URI: the command came from a diff.
    return target && openRenderedPage(pages, preview, target, arg instanceof vscode.Uri);
  };
}

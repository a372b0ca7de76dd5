// Open Page: a search result's page, by its site path: its workspace file (the one mapping), else the
// site's own https page.
import * as vscode from 'vscode';
import { normalizeSitePath } from '../../docs/sitePaths';
import { pageUrl } from '../../preview/previewRecord';
import type { SearchCommandPorts } from './searchCommandPorts';

export function openSearchPageCommand({ docs, settings, ui }: SearchCommandPorts) {
  return async (path: unknown): Promise<void> => {
    if (typeof path !== 'string' || !path) return;
    const sitePath = normalizeSitePath(path);
    const file = await docs.fileOf(sitePath);
    if (file) return void (await vscode.window.showTextDocument(file, { preview: true }));
    const domain = settings.search.siteDomain;
    const url = domain ? pageUrl(`https://${domain}.mintlify.site`, sitePath) : undefined;
    if (!url) return void ui.showMessage('info', vscode.l10n.t('No page for "{0}" in this workspace, and no site to open it on.', sitePath));
    await ui.openExternal(vscode.Uri.parse(url.href));
  };
}

// The tool get_mintlifyReaderEvidence: a page's reader evidence (the one named, or the open one),
// answered from the kept reader signals at no cost; only pages of this workspace are answered.
import * as vscode from 'vscode';
import { normalizeSitePath } from '../docs/sitePaths';
import { keptSignals, missingSetup, textInput, type TextTool, type ToolInput, type ToolPorts } from './toolPorts';
import { readerEvidenceText } from './toolTexts';

export function readerEvidenceTool(ports: ToolPorts): TextTool {
  return {
    invoke: async (input) => {
      const missing = missingSetup(ports);
      if (missing) return missing;
      const page = await pageOf(ports, input);
      if (typeof page === 'string') return page;
      const snapshot = await keptSignals(ports);
      if (typeof snapshot === 'string') return snapshot;
      return readerEvidenceText(snapshot, page.sitePath, page.files);
    },
  };
}

/**
 * The page the evidence is about: the one named (a site path such as "/quickstart", or a file in
 * the workspace such as "docs/quickstart.mdx"), else the open one; with its files in the
 * workspace, relative, so no path outside the workspace is ever answered.
 */
async function pageOf(ports: ToolPorts, input: ToolInput): Promise<{ sitePath: string; files: string[] } | string> {
  const named = textInput(input, 'page');
  let sitePath: string | undefined;
  if (named === undefined) {
    const uri = vscode.window.activeTextEditor?.document.uri;
    sitePath = uri && (await ports.docs.pageOf(uri))?.sitePath;
    if (!sitePath)
      return vscode.l10n.t(
        'No docs page is open: open one in the editor, or name a page by its site path ("/quickstart") or its file in the workspace ("docs/quickstart.mdx").',
      );
  } else if (named.startsWith('/') && !named.startsWith('//')) {
    sitePath = normalizeSitePath(named);
  } else {
    const folder = vscode.workspace.workspaceFolders?.[0];
    // Only a relative path inside the workspace: never an absolute one, a drive, or a way up.
    if (!folder || /^[a-z]+:|^[\\/]|(^|[\\/])\.\.([\\/]|$)/i.test(named)) return notAPage(named);
    sitePath = (await ports.docs.pageOf(vscode.Uri.joinPath(folder.uri, named)))?.sitePath;
    if (!sitePath) return notAPage(named);
  }
  const file = await ports.docs.fileOf(sitePath);
  const files = file && vscode.workspace.getWorkspaceFolder(file) ? [vscode.workspace.asRelativePath(file, false)] : [];
  return { sitePath, files };
}

function notAPage(named: string): string {
  return vscode.l10n.t(
    '"{0}" is not a docs page of this workspace: name a page by its site path ("/quickstart") or by its .mdx file relative to the workspace ("docs/quickstart.mdx").',
    named.slice(0, 200),
  );
}

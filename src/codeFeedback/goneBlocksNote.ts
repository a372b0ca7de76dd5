// Did It Help? on a page: feedback on a block the page no longer has is a sign the block was changed.
import * as vscode from 'vscode';
import type { DocsLocator } from '../docs/docsLocator';
import type { BlockPlaces } from './blockPlaces';

/** The note on the page at `path`, if any of its pending comments are on a block it no longer has. */
export function goneBlocksNote(docs: Pick<DocsLocator, 'fileOf'>, places: BlockPlaces) {
  return async (path: string): Promise<string | undefined> => {
    const uri = await docs.fileOf(path);
    const found = uri && (await places.placesOfFile(uri));
    if (!found?.gone.length) return undefined;
    const all = found.gone.length + found.blocks.reduce((n, b) => n + b.comments.length, 0);
    return vscode.l10n.t(
      '{0} of the {1} pending comments on its code blocks are about a block that is no longer on the page: it changed since.',
      found.gone.length,
      all,
    );
  };
}

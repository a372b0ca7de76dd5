// The block readers flagged at a line of a file, and the prompt Ask the Agent to Fix It composes for
// it (blockPrompt.ts), from the places already kept: nothing is sent.
import * as vscode from 'vscode';
import { blockInstruction, buildBlockPrompt } from './blockPrompt';
import type { BlockPlaces } from './blockPlaces';

/** The flagged block at `uri`'s `line` (0-based, any line of it), with its page. */
export function blockAt(places: BlockPlaces, uri: vscode.Uri, line: number) {
  return places.blocksIn(uri).find(({ place }) => place.startLine <= line && line <= place.endLine);
}

/** The prompt for the block at `uri`'s `line`; undefined where readers flagged none. */
export async function promptAt(places: BlockPlaces, uri: vscode.Uri, line: number): Promise<string | undefined> {
  const found = blockAt(places, uri, line);
  if (!found) return undefined;
  const { place, page } = found;
  const file = vscode.workspace.asRelativePath(place.uri, false);
  const block = {
    file,
    page: page.page.sitePath,
    startLine: place.startLine + 1,
    endLine: place.endLine + 1,
    code: place.code,
    comments: place.comments,
    range: page.range,
  };
  return buildBlockPrompt(blockInstruction(block), block).prompt;
}

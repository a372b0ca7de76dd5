// What a writer reads about the readers' feedback on a code block: the Problems entry, the
// CodeLens's title and the hover's lines. Reader text is one line each, cut, with its invisible and
// direction characters shown escaped (src/util/visibleText.ts); the hover escapes it again for
// Markdown (src/util/markdownText.ts), so it is shown, never rendered. vscode for its types only
// (the caller passes `vscode.l10n`), so the unit tier loads it.
import type * as vscode from 'vscode';
import type { PendingComment } from '../signals/snapshot';
import { oneLine } from '../util/visibleText';

type L10n = Pick<typeof vscode.l10n, 't'>;

/** From this many readers on one block, its Problems entry is a Warning (below, Information). */
export const WARNING_FROM = 3;
/** The comments a hover quotes (the newest), and the characters of each. */
export const HOVER_ITEMS = 10;
export const HOVER_CHARS = 300;
/** The characters of the newest comment the Problems entry quotes. */
const PROBLEM_CHARS = 80;

/** Newest first (by createdAt, then id, so equal times keep one order). */
export function newestFirst<T extends Pick<PendingComment, 'createdAt' | 'id'>>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => compare(b.createdAt ?? '', a.createdAt ?? '') || compare(a.id, b.id));
}

/**
 * The Problems entry of a block: "3 readers flagged this code block (last 30 days): 'fails on Windows'…",
 * and, when other blocks have the same code (`twins`), that the feedback may be about one of them.
 */
export function problemText(items: readonly PendingComment[], days: number, l10n: L10n, twins = 0): string {
  const newest = newestFirst(items)[0];
  const quoted = newest ? oneLine(newest.comment.text, PROBLEM_CHARS) : '';
  const text =
    items.length === 1
      ? l10n.t('1 reader flagged this code block (last {0} days): “{1}”', days, quoted)
      : l10n.t('{0} readers flagged this code block (last {1} days): “{2}”', items.length, days, quoted);
  return twins ? `${text} ${twinsText(twins, l10n)}` : text;
}

/** What a writer is told of a block's twins: the feedback may be about another block with the same code. */
export function twinsText(twins: number, l10n: L10n): string {
  return twins === 1
    ? l10n.t('Another block here has the same code: it may be about that one.')
    : l10n.t('{0} other blocks here have the same code: it may be about one of them.', twins);
}

/**
 * The Problems entry at the top of a page for the feedback no block of its files matches: on a
 * page whose API reference Mintlify generates (`api`, its operation), most likely its samples there;
 * elsewhere, a block that is no longer on the page.
 */
export function goneText(items: readonly PendingComment[], days: number, l10n: L10n, api?: string): string {
  const newest = newestFirst(items)[0];
  const quoted = newest ? oneLine(newest.comment.text, PROBLEM_CHARS) : '';
  if (api !== undefined) return l10n.t('{0} (last {1} days): “{2}”', goneLensTitle(items.length, l10n, api), days, quoted);
  return items.length === 1
    ? l10n.t('1 reader’s feedback (last {0} days) is about a code block that is no longer on this page: “{1}”', days, quoted)
    : l10n.t('{0} readers’ feedback (last {1} days) is about a code block that is no longer on this page: “{2}”', items.length, days, quoted);
}

/** The CodeLens's first part. */
export function lensTitle(count: number, l10n: L10n): string {
  return count === 1 ? l10n.t('1 reader flagged this block') : l10n.t('{0} readers flagged this block', count);
}

/** The CodeLens and hover title at the top of a page for the feedback no block of its files matches (see {@link goneText}). */
export function goneLensTitle(count: number, l10n: L10n, api?: string): string {
  if (api !== undefined)
    return l10n.t('Readers’ feedback on code in no file of this page ({0}): most likely the API reference generated for {1}', count, oneLine(api, 80));
  return count === 1
    ? l10n.t('1 reader’s feedback is about a code block that is no longer on this page')
    : l10n.t('{0} readers’ feedback is about a code block that is no longer on this page', count);
}

/** One comment of the hover: who, when and its status, then the comment as one escaped line. */
interface HoverEntry {
  about: string;
  comment: string;
}

/** The hover's entries, newest first, at most HOVER_ITEMS; `more` is how many were left out. */
export function hoverEntries(items: readonly PendingComment[], l10n: L10n): { entries: HoverEntry[]; more: number } {
  const sorted = newestFirst(items);
  const entries = sorted.slice(0, HOVER_ITEMS).map((item) => {
    const who = item.source === 'agent' ? l10n.t('an AI agent') : l10n.t('a reader');
    const when = item.createdAt ? item.createdAt.slice(0, 10) : l10n.t('no date');
    return { about: l10n.t('{0} · {1} · from {2}', when, statusWord(item.status, l10n), who), comment: oneLine(item.comment.text, HOVER_CHARS) };
  });
  return { entries, more: Math.max(0, sorted.length - HOVER_ITEMS) };
}

function statusWord(status: string | undefined, l10n: L10n): string {
  switch (status ?? 'pending') {
    case 'pending':
      return l10n.t('pending');
    case 'in_progress':
      return l10n.t('in progress');
    case 'resolved':
      return l10n.t('resolved');
    case 'dismissed':
      return l10n.t('dismissed');
    default:
      return oneLine(status ?? '', 40);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

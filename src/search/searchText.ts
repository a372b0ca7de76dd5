// The words the writer reads about the site's own search: a term's check on its Reader Signals row,
// a job's searches before and after on its Agent Jobs row, in its notification and in Did It Help?.
// Paths and terms are API and reader values: they go in as text (the callers use appendText), and
// invisible characters are shown (util/visibleText.ts).
import * as vscode from 'vscode';
import { relativeTime } from '../jobs/jobsTree';
import type { SearchCheck, SearchReplay } from '../sync/searchState';
import { oneLine, showInvisible } from '../util/visibleText';
import type { Gap, ReplayOutcome, Standing, TermOutcome } from './searchOutcome';

const term = (text: string) => `“${oneLine(text, 60)}”`;
const path = (text: string) => showInvisible(oneLine(text, 80));

/** A check on its row: what the search found, which gap. */
export function checkNote(check: SearchCheck, gap: Gap): string {
  switch (gap.kind) {
    case 'nothing':
      return vscode.l10n.t('live search: nothing (content gap)');
    case 'found':
      return vscode.l10n.t('live search: {0} #{1}', path(gap.page), gap.rank);
    case 'findability':
      return gap.rank === undefined
        ? vscode.l10n.t('live search: {0} not in the first {1} (findability gap)', path(gap.page), check.hits.length)
        : vscode.l10n.t('live search: {0} #{1} (findability gap)', path(gap.page), gap.rank);
    case 'missing':
      return vscode.l10n.t('live search: {0} results, no {1} (content gap)', check.hits.length, path(gap.page));
    case 'unnamed':
      return vscode.l10n.t('live search: {0} results', check.hits.length);
  }
}

/** A check in full: when, the first results, and what it means. */
export function checkTooltip(searched: string, check: SearchCheck, gap: Gap): string {
  const lines = [vscode.l10n.t('The site’s search for {0}, {1}:', term(searched), relativeTime(new Date(check.at).toISOString()))];
  if (!check.hits.length) lines.push(vscode.l10n.t('No result.'));
  check.hits.forEach((hit, i) => lines.push(`${i + 1}. ${path(hit.p || '?')}${hit.c ? ` — ${oneLine(hit.c, 100)}` : ''}`));
  lines.push(gapSentence(gap));
  return lines.join('\n');
}

/** Which gap, in a sentence. */
export function gapSentence(gap: Gap): string {
  switch (gap.kind) {
    case 'nothing':
      return vscode.l10n.t('A content gap: the site’s search finds nothing for it.');
    case 'found':
      return vscode.l10n.t('The expected page {0} ranks {1}: readers see it, yet click nothing.', path(gap.page), gap.rank);
    case 'findability':
      return gap.rank === undefined
        ? vscode.l10n.t('A findability gap: the page {0} exists but is not among the results.', path(gap.page))
        : vscode.l10n.t('A findability gap: the page {0} exists but ranks {1}.', path(gap.page), gap.rank);
    case 'missing':
      return vscode.l10n.t('A content gap: the page {0} is not among the results, and not in this workspace.', path(gap.page));
    case 'unnamed':
      return vscode.l10n.t(
        'Readers click none of these results. Open the page readers should find and check again to tell a findability gap (it ranks low) from a content gap (no page answers it).',
      );
  }
}

/** "4 of 6 searches readers gave up on now find /guides/sso (ranks 1–3); 2 still find nothing." */
export function replaySummary(outcome: ReplayOutcome): string {
  const total = outcome.terms.length;
  const parts: string[] = [];
  if (outcome.pages.length) {
    const samePage = outcome.finds.every((t) => t.after?.kind === 'finds' && t.after.page === outcome.page);
    const { min, max } = outcome.ranks ?? { min: 0, max: 0 };
    parts.push(
      !outcome.page || !samePage
        ? vscode.l10n.t('{0} of {1} searches readers gave up on now find the changed pages', outcome.finds.length, total)
        : min === max
          ? vscode.l10n.t('{0} of {1} searches readers gave up on now find {2} (rank {3})', outcome.finds.length, total, path(outcome.page), min)
          : vscode.l10n.t('{0} of {1} searches readers gave up on now find {2} (ranks {3}–{4})', outcome.finds.length, total, path(outcome.page), min, max),
    );
  } else {
    parts.push(vscode.l10n.t('{0} of {1} searches readers gave up on now find results where they found nothing', outcome.newlyFound.length, total));
  }
  if (outcome.nothing.length) parts.push(vscode.l10n.t('{0} still find nothing', outcome.nothing.length));
  if (outcome.other.length) parts.push(vscode.l10n.t('{0} find other pages', outcome.other.length));
  return `${parts.join('; ')}.`;
}

/** One term, before → after. */
export function termLine(t: TermOutcome): string {
  return `${term(t.term)}: ${standing(t.before)} → ${t.after ? standing(t.after) : vscode.l10n.t('not searched yet')}`;
}

function standing(s: Standing): string {
  if (s.kind === 'finds') return `${path(s.page)} #${s.rank}`;
  if (s.kind === 'nothing') return vscode.l10n.t('nothing');
  return vscode.l10n.t('{0} other results', s.results);
}

/** A job's searches on its row, and in its tooltip. */
export function replayNote(replay: SearchReplay, outcome: ReplayOutcome): { text: string; tooltip: string } {
  const total = outcome.terms.length;
  if (replay.afterAt === undefined) {
    return {
      text: total === 1 ? vscode.l10n.t('1 search before') : vscode.l10n.t('{0} searches before', total),
      tooltip: [
        vscode.l10n.t(
          'Searches readers gave up on, as the site’s search answered them when the job was asked. They are searched again once, when its change is live (merged and deployed).',
        ),
        ...outcome.terms.map(termLine),
      ].join('\n'),
    };
  }
  const text = outcome.pages.length
    ? vscode.l10n.t('{0}/{1} searches now find the page', outcome.finds.length, total)
    : vscode.l10n.t('{0}/{1} searches now find results', outcome.newlyFound.length, total);
  return { text, tooltip: [replaySummary(outcome), ...outcome.terms.map(termLine)].join('\n') };
}

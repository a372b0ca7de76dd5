// What the language model tool get_mintlifySearchChecks answers: the searches readers gave up on as
// the site's own search answered them when a writer checked them (kept for a day, no request), and
// each agent job's searches before its change and after it went live. Plain English, compact and
// capped like every tool's answer (toolTexts.ts); every term and path is inside the evidence block,
// quoted. Pure: no vscode.
import { evidenceMarkers, type EvidenceMarkers, type EvidenceText, evidenceText, quote } from '../prompt/quotedEvidence';
import { FOUND_RANK, gapOf, replayOutcome } from '../search/searchOutcome';
import { standingText } from '../search/searchPrompt';
import type { SearchCheck, SearchReplay } from '../sync/searchState';
import { rowQuote, section } from './toolTexts';

/** Checks and jobs listed, the newest first; results named per check. */
const TOOL_CHECKS = 10;
const TOOL_JOBS = 5;
const TOOL_HITS = 5;

export function searchChecksText(
  domain: string,
  checks: readonly [string, SearchCheck][],
  jobs: readonly [string, SearchReplay][],
  markers: EvidenceMarkers = evidenceMarkers(),
): EvidenceText {
  const head = [
    `Searches readers gave up on (no result clicked), checked against the docs site's own search (site ${quote(domain)}), as kept from the last day; no request was sent.`,
    `A result in the first ${FOUND_RANK} is found; a page that exists but ranks lower is a findability gap; no relevant result is a content gap. Ask the writer to check a term (Reader Signals › Check Live Search) for fresh results.`,
  ];
  const lines: string[] = [];
  const newest = [...checks].sort((a, b) => b[1].at - a[1].at);
  section(lines, 'Checked searches, newest first', newest, TOOL_CHECKS, ([term, check]) => {
    const when = `checked ${quote(new Date(check.at).toISOString())}`;
    if (!check.hits.length) return `${rowQuote(term)}: no result, a content gap (${when})`;
    const top = check.hits
      .slice(0, TOOL_HITS)
      .map((hit, i) => `${i + 1}. ${rowQuote(hit.p)}`)
      .join(', ');
    const gap = gapOf(check, check.expect, true);
    const expected =
      gap.kind === 'found'
        ? `; the expected page ${rowQuote(gap.page)} ranks ${gap.rank}`
        : gap.kind === 'findability'
          ? `; the expected page ${rowQuote(gap.page)} ${gap.rank ? `ranks ${gap.rank}` : 'is not among them'}: a findability gap`
          : '';
    return `${rowQuote(term)}: ${check.hits.length} results, first ${top}${expected} (${when})`;
  });
  const byNewest = [...jobs].sort((a, b) => b[1].askedAt - a[1].askedAt);
  section(lines, "Agent jobs' searches, before the change and after it went live", byNewest, TOOL_JOBS, ([jobId, replay]) => {
    const outcome = replayOutcome(replay);
    const terms = outcome.terms.map((t) => `${rowQuote(t.term)} before ${standingText(t.before)}${t.after ? `, after ${standingText(t.after)}` : ''}`);
    const state =
      replay.afterAt === undefined
        ? 'its change is not live yet (searched again once it is)'
        : `after its change went live, ${outcome.finds.length} of ${outcome.terms.length} find ${outcome.pages.length ? 'the pages looked for' : 'results'}`;
    return `job ${quote(jobId)}: ${state}; ${terms.join('; ')}`;
  });
  return evidenceText(head, lines, markers);
}

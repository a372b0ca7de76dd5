// What the agent is told of the site's own search: the lines of the evidence block for searches
// readers gave up on (each term, what the search returns for it today, the rank of the page
// expected), the sentence of the instruction saying which gap it is (a content gap or a findability
// gap), and the follow-up that sends the misses back after the change went live. Search terms,
// paths and content are reader and API text: they are quoted (src/signals/evidencePrompt.ts's
// `quote`) inside the nonce-marked evidence block, never in the instruction. Plain English, as
// every prompt of ours; pure: no vscode.
import { evidenceMarkers, type EvidenceMarkers, type EvidenceText, evidenceText, quote } from '../prompt/quotedEvidence';
import type { SearchCheck } from '../sync/searchState';
import { FOUND_RANK, type Gap, isContentGap, type ReplayOutcome, type Standing, type TermOutcome } from './searchOutcome';

/** Results a term's evidence line names (its rank of the expected page is said whatever it is). */
const TOP_NAMED = 3;

interface CheckedTerm {
  term: string;
  check: SearchCheck;
  gap: Gap;
}

/** One line per term, for the evidence block (after LIVE_SEARCH_TITLE). */
export function liveLines(terms: readonly CheckedTerm[]): string[] {
  return terms.map(({ term, check, gap }) => {
    const when = new Date(check.at).toISOString().slice(0, 16).replace('T', ' ');
    if (gap.kind === 'nothing') return `- ${quote(term)}: no result (searched ${when} UTC)`;
    const top = check.hits
      .slice(0, TOP_NAMED)
      .map((hit, i) => `${i + 1}. ${quote(hit.p)}`)
      .join(', ');
    const expected =
      gap.kind === 'found' || (gap.kind === 'findability' && gap.rank !== undefined)
        ? `; the page expected, ${quote(gap.page)}, ranks ${gap.rank}`
        : gap.kind === 'findability'
          ? `; the page expected, ${quote(gap.page)}, is not among the first ${check.hits.length}`
          : gap.kind === 'missing'
            ? `; the page expected, ${quote(gap.page)}, is not among them and is not in the workspace`
            : '';
    return `- ${quote(term)}: ${check.hits.length} results, first ${top}${expected} (searched ${when} UTC)`;
  });
}

/** The sentence added to the instruction: which gap the terms show. It quotes nothing (the evidence block holds the terms and paths). */
export function gapInstruction(gaps: readonly Gap[]): string {
  const content = gaps.filter(isContentGap).length;
  const findability = gaps.filter((g) => g.kind === 'findability').length;
  const unnamed = gaps.filter((g) => g.kind === 'unnamed').length;
  const notFound = gaps.length - gaps.filter((g) => g.kind === 'found').length;
  if (!notFound)
    return `The site's search already finds the expected page in its first ${FOUND_RANK} results: check why readers still click nothing (its title and description as results show them).`;
  if (content === notFound)
    return "This is a content gap: the site's search finds nothing relevant. Add the page or section that answers it, in the words readers use.";
  if (findability === notFound)
    return `This is a findability gap: the page exists but the site's search ranks it below the first ${FOUND_RANK} results. Make that page findable (its title, description and headings in the words readers use); do not write a second page.`;
  if (unnamed === notFound)
    return "The site's search returns pages, but readers click none: either the right page ranks too low (a findability gap) or none answers it (a content gap). Read the results below and decide: make the right page findable, or add what is missing.";
  return 'The searches below show both gaps: for those that find nothing, add what is missing (a content gap); for those whose page exists but ranks low, make that page findable (a findability gap). The results below say which is which.';
}

/** The follow-up that sends back the terms that still miss after the change went live. */
export function missesPrompt(outcome: ReplayOutcome, missed: readonly TermOutcome[], markers: EvidenceMarkers = evidenceMarkers()): EvidenceText {
  const pages = outcome.pages;
  const instruction = [
    "Your change is live, and the site's search was searched again for the searches readers gave up on.",
    pages.length
      ? 'The searches below still do not find the page they should (listed in the evidence). Make them find it: use the words readers search in its title, description and headings, or add what it is missing. Change nothing else.'
      : 'The searches below still do not find what they should. Make the docs answer them, with the words readers use. Change nothing else.',
  ].join(' ');
  const lines = [
    ...(pages.length ? [`Pages looked for: ${pages.map(quote).join(', ')}`] : []),
    `Searches that still miss (${missed.length} of ${outcome.terms.length}), before the change and after it went live:`,
    ...missed.map((t) => `- ${quote(t.term)}: before ${standingText(t.before)}; after ${t.after ? standingText(t.after) : 'not searched'}`),
  ];
  return evidenceText([instruction], lines, markers);
}

/** A standing in the prompt's words (paths quoted). */
export function standingText(standing: Standing): string {
  if (standing.kind === 'finds') return `finds ${quote(standing.page)} at rank ${standing.rank}`;
  if (standing.kind === 'nothing') return 'no result';
  return `${standing.results} results, none of the pages looked for`;
}

// "Did it help?" for a page an agent job changed: equal windows before and after the change (the
// merge of its branch when the workspace's git shows one, else the job's finish), compared only
// when the numbers can mean something. Pure: no vscode.
//
// Thresholds (documented in the README):
// - wait MIN_DAYS_AFTER days after the change; the windows are as long as the days since, at most WINDOW_DAYS;
// - 👎 share: at least MIN_VOTES votes in each window;
// - unanswered questions: at least MIN_QUESTIONS questions asked on the page in each window;
// - searches it addressed: at least MIN_SEARCHES searches of those terms in each window.
// Below a threshold the answer is "not enough data yet", never a number.
import { addDays, daysBetween, utcDay } from '../util/days';

const MIN_DAYS_AFTER = 7;
const WINDOW_DAYS = 28;
export const MIN_VOTES = 20;
const MIN_QUESTIONS = 10;
const MIN_SEARCHES = 20;

export interface WindowCounts {
  votesUp: number;
  votesDown: number;
  /** Assistant questions asked on the page, and how many went unanswered. */
  questions: number;
  unanswered: number;
  /** Searches of the addressed terms, and how many clicked a result. */
  searches: number;
  searchClicks: number;
}

interface Windows {
  /** YYYY-MM-DD, `before` ends where `after` starts (the change's day), `after.dateTo` is exclusive. */
  before: { dateFrom: string; dateTo: string };
  after: { dateFrom: string; dateTo: string };
  days: number;
}

/** The comparison windows, or undefined while fewer than MIN_DAYS_AFTER whole days have passed. */
export function comparisonWindows(changedAt: number, now: number): Windows | undefined {
  const changeDay = utcDay(changedAt); // a part day: in neither window
  const firstAfter = addDays(changeDay, 1); // the first whole day after the change
  const days = Math.min(WINDOW_DAYS, daysBetween(firstAfter, utcDay(now))); // today is not over: not counted
  if (days < MIN_DAYS_AFTER) return undefined;
  return { before: { dateFrom: addDays(changeDay, -days), dateTo: changeDay }, after: { dateFrom: firstAfter, dateTo: addDays(firstAfter, days) }, days };
}

/** What the comparison counts from: the merge of the job's branch where git shows one, else the job's finish. */
type ChangeEvent = { kind: 'merge'; at: number; branch: string } | { kind: 'finish'; at: number };

/**
 * The merge wins (the change reached readers when it was merged, not when the job finished), unless
 * it is older than the job itself: then the branch name is an older branch's, and the finish counts.
 * The API gives no finish time (an AgentJob has createdAt and archivedAt only), so `finishedAt` is
 * when a window first saw the job completed with a pull request.
 */
export function changeEvent(finishedAt: number | undefined, askedAt: number, merge: { at: number; branch: string } | undefined): ChangeEvent | undefined {
  if (merge && merge.at >= askedAt) return { kind: 'merge', at: merge.at, branch: merge.branch };
  return finishedAt === undefined ? undefined : { kind: 'finish', at: finishedAt };
}

export type Change =
  | { kind: 'notEnoughData'; need: string }
  | {
      kind: 'change';
      before: number;
      after: number;
      /** after - before, in percentage points; negative is better for 👎 and unanswered, positive for clicks. */ points: number;
      better: boolean;
    };

interface Comparison {
  thumbsDownShare: Change;
  unansweredShare: Change;
  searchClickRate: Change | undefined;
}

export function compareWindows(before: WindowCounts, after: WindowCounts, addressedSearches: boolean): Comparison {
  return {
    thumbsDownShare: share(before.votesDown, before.votesUp + before.votesDown, after.votesDown, after.votesUp + after.votesDown, MIN_VOTES, 'votes', false),
    unansweredShare: share(before.unanswered, before.questions, after.unanswered, after.questions, MIN_QUESTIONS, 'questions', false),
    searchClickRate: addressedSearches
      ? share(before.searchClicks, before.searches, after.searchClicks, after.searches, MIN_SEARCHES, 'searches', true)
      : undefined,
  };
}

function share(partBefore: number, allBefore: number, partAfter: number, allAfter: number, min: number, unit: string, higherIsBetter: boolean): Change {
  if (allBefore < min || allAfter < min) return { kind: 'notEnoughData', need: `${min} ${unit} in each window (${allBefore} before, ${allAfter} after)` };
  const before = partBefore / allBefore;
  const after = partAfter / allAfter;
  const points = Math.round((after - before) * 1000) / 10;
  return { kind: 'change', before, after, points, better: higherIsBetter ? points > 0 : points < 0 };
}

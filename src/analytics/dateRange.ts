// Date ranges as people pick them, turned into what the API takes.
//
// People think in calendar days and inclusive ends ("Last 7 days" includes today; "1 to 7 March"
// includes the 7th). The API takes `dateFrom` (inclusive) and `dateTo` (exclusive). So every range
// is a pair of *local* calendar days `YYYY-MM-DD` (today is the day on the user's clock), and the
// API gets `dateFrom = from` and `dateTo = to + 1 day`. Dates are sent without a time, so the API
// decides where its days begin (the spec does not say; a date-only value is usually UTC midnight):
// "today" follows the user's clock, the day boundaries follow the platform's, and two people in
// different time zones who pick the same days get the same numbers.
//
// Day arithmetic (src/util/days.ts) runs on UTC dates so that a daylight-saving change can never shift a day.
import { parseApiDate } from '../api/inputs';
import { addDays, type Day } from '../util/days';
// vscode for its types only (erased, nothing at run time): the import is also how `npm run l10n`
// knows the l10n.t calls below are vscode's and puts their strings in the bundle.
import type * as vscode from 'vscode';
import type { PresetId, RangeSelection } from '../shared/protocol';

type L10n = Pick<typeof vscode.l10n, 't'>;

export interface ResolvedRange {
  /** First day, inclusive; undefined for All time. */
  from: Day | undefined;
  /** Last day, inclusive, as the user sees it; undefined for All time. */
  to: Day | undefined;
  /** What the API gets: inclusive lower bound. */
  dateFrom: string | undefined;
  /** What the API gets: exclusive upper bound, the day after `to`. */
  dateTo: string | undefined;
  /** "Last 7 days (2025-03-01 to 2025-03-07)" */
  label: string;
}

export type RangeResult = { ok: true; range: ResolvedRange } | { ok: false; message: string };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day itself when `text` is a real calendar day `YYYY-MM-DD`, else undefined (2025-02-30 is not). */
export function parseDay(text: string): Day | undefined {
  // The API layer already knows real days; years below 1000 are typos here (no analytics predate them).
  return DAY.test(text) && parseApiDate(text) !== undefined && Number(text.slice(0, 4)) >= 1000 ? text : undefined;
}

/** The presets' names as the panel and the export pick list show them. */
export function presetLabels(l10n: L10n): Record<PresetId, string> {
  return {
    last7: l10n.t('Last 7 days'),
    last30: l10n.t('Last 30 days'),
    last90: l10n.t('Last 90 days'),
    thisMonth: l10n.t('This month'),
    allTime: l10n.t('All time'),
  };
}

/** "2025-03-01 to 2025-03-07", or the one day. */
export function daysLabel(from: Day, to: Day, l10n: L10n): string {
  return from === to
    ? from
    : l10n.t({ message: '{0} to {1}', args: [from, to], comment: ['A range of days, both included: {0} the first, {1} the last (YYYY-MM-DD).'] });
}

function inclusive(from: Day, to: Day, l10n: L10n, name?: string): ResolvedRange {
  const days = daysLabel(from, to, l10n);
  const label = name ? l10n.t({ message: '{0} ({1})', args: [name, days], comment: ['{0} names a date range ("Last 7 days"), {1} gives its days.'] }) : days;
  return { from, to, dateFrom: from, dateTo: addDays(to, 1), label };
}

export function resolvePreset(preset: PresetId, today: Day, l10n: L10n): ResolvedRange {
  const name = presetLabels(l10n)[preset];
  switch (preset) {
    case 'last7':
      return inclusive(addDays(today, -6), today, l10n, name);
    case 'last30':
      return inclusive(addDays(today, -29), today, l10n, name);
    case 'last90':
      return inclusive(addDays(today, -89), today, l10n, name);
    case 'thisMonth':
      return inclusive(`${today.slice(0, 8)}01`, today, l10n, name);
    case 'allTime':
      // No bounds at all: the API's own "everything", and a cache key that does not change at midnight.
      return { from: undefined, to: undefined, dateFrom: undefined, dateTo: undefined, label: name };
  }
}

/** Checks a range the user typed. `today` is injected so tests do not depend on the clock. */
export function resolveRange(selection: RangeSelection, today: Day, l10n: L10n): RangeResult {
  if (selection.kind === 'preset') return { ok: true, range: resolvePreset(selection.preset, today, l10n) };
  const fromText = selection.from.trim();
  const toText = selection.to.trim();
  if (!fromText) return { ok: false, message: l10n.t('Choose a start date.') };
  if (!toText) return { ok: false, message: l10n.t('Choose an end date.') };
  const from = parseDay(fromText);
  if (!from) return { ok: false, message: l10n.t('"{0}" is not a valid start date. Use a real day written YYYY-MM-DD.', fromText) };
  const to = parseDay(toText);
  if (!to) return { ok: false, message: l10n.t('"{0}" is not a valid end date. Use a real day written YYYY-MM-DD.', toText) };
  // Both are YYYY-MM-DD, so comparing the strings compares the days.
  if (to < from) return { ok: false, message: l10n.t('The end date {0} is before the start date {1}.', to, from) };
  return { ok: true, range: inclusive(from, to, l10n) };
}

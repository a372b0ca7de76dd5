// What background work fetches for the readers: a settled range, the preset's days ending
// yesterday. Whole days that ended never change, so the pages of such a range can be gathered a
// few an hour, over hours or days, and every page fetched stays true; a range that includes today
// could not (a path's count would differ between a morning page and an evening one). The days
// move at midnight, so a gathering goes on for the range it started: its figures stay true, only
// a day older, and the next range starts once it is whole. Counts of unique visitors cannot be
// added up (a reader of two days is one reader of both), so a range is never pieced together from
// other ranges' figures. Pure: no vscode, unit-tested directly.
import { settledWhen, type VisitorsSnapshot, type SnapshotKey } from '../analytics/visitorsSnapshot';
import { presetLabels, resolvePreset, type ResolvedRange } from '../analytics/dateRange';
import type { PresetId } from '../shared/protocol';
import { addDays, type Day } from '../util/days';
import type * as vscode from 'vscode';

type L10n = Pick<typeof vscode.l10n, 't'>;

/** Days back a gathering is gone on with after the day changed (a week away from the editor starts afresh). */
const GATHERING_KEPT_DAYS = 7;

/** The preset's settled range on `today`: its days as if yesterday were today (All time: every day before today). */
export function settledRange(preset: PresetId, today: Day, l10n: L10n): ResolvedRange {
  const yesterday = addDays(today, -1);
  const range = resolvePreset(preset, yesterday, l10n);
  // All time has no days to move: its settled range ends with yesterday too.
  return preset === 'allTime' ? { ...range, to: yesterday, dateTo: today } : range;
}

/** The preset's settled ranges' keys, today's first, then each of the days before. */
export function settledKeys(projectId: string, preset: PresetId, today: Day, l10n: L10n, days = GATHERING_KEPT_DAYS): SnapshotKey[] {
  return Array.from({ length: days + 1 }, (_, back) => {
    const range = settledRange(preset, addDays(today, -back), l10n);
    return { projectId, dateFrom: range.dateFrom, dateTo: range.dateTo };
  });
}

/** What background work does for a preset: go on gathering `fetch` (when set), and meanwhile show `show`. */
export interface BackgroundPlan {
  fetch?: SnapshotKey;
  show?: VisitorsSnapshot;
}

/**
 * `keys` are settledKeys (today's first), `kept` what the store holds of each. A range still being
 * gathered is gone on with, whatever day it started (its pages stay true); once today's range is
 * whole there is nothing to fetch until the day changes; otherwise today's range starts. What is
 * shown meanwhile is the newest whole range, else the gathering one ("18 of 40 pages fetched").
 * Just after midnight yesterday may not be over at the platform yet (visitorsSnapshot.ts
 * `settledWhen`): a fetch cut short then is not gathered; it is shown, and today's range starts
 * again once its days are over everywhere (at `now`).
 */
export function planBackground(keys: readonly SnapshotKey[], kept: readonly (VisitorsSnapshot | undefined)[], now = Date.now()): BackgroundPlan {
  const cutBeforeSettled = (snapshot: VisitorsSnapshot) => snapshot.capped && !snapshot.gathering && !settledWhen(snapshot.key, snapshot.fetchedAt);
  const gathering = kept.find((snapshot) => snapshot?.gathering);
  const whole = kept.find((snapshot) => snapshot && !snapshot.gathering && !cutBeforeSettled(snapshot));
  if (gathering) return { fetch: gathering.key, show: whole ?? gathering };
  if (whole && whole === kept[0]) return { show: whole };
  const cut = kept[0] && cutBeforeSettled(kept[0]) ? kept[0] : undefined;
  const show = whole ?? cut;
  if (cut && !settledWhen(keys[0], now)) return { show: show! };
  return { fetch: keys[0], ...(show && { show }) };
}

/** "2026-03-01 to 2026-03-30" for a key's days (its dateTo is exclusive); undefined for All time. */
export function daysOf(key: SnapshotKey): string | undefined {
  return key.dateFrom && key.dateTo ? `${key.dateFrom} to ${addDays(key.dateTo, -1)}` : undefined;
}

/** "Last 30 days (2026-02-15 to 2026-03-16)": the preset's name and the days its figures are of. */
export function rangeLabel(preset: PresetId, key: SnapshotKey, l10n: L10n): string {
  const name = presetLabels(l10n)[preset];
  const days = daysOf(key);
  return days ? l10n.t({ message: '{0} ({1})', args: [name, days], comment: ['{0} names a date range ("Last 7 days"), {1} gives its days.'] }) : name;
}

// Calendar days as `YYYY-MM-DD` text, the form the API takes and people read. Day arithmetic runs
// on UTC dates so that a daylight-saving change can never shift a day. Shared by the analytics
// ranges, the readers and the reader signals. No vscode import: unit-tested directly.

/** A calendar day, `YYYY-MM-DD`. */
export type Day = string;

const DAY_MS = 86_400_000;

/** Today on the user's clock. */
export function localToday(now: Date = new Date()): Day {
  return formatDay(now.getFullYear(), now.getMonth() + 1, now.getDate());
}

/** The UTC calendar day an instant (ms since the epoch) falls on. */
export function utcDay(ms: number): Day {
  const date = new Date(ms);
  return formatDay(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

export function addDays(day: Day, days: number): Day {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return utcDay(Date.UTC(y, m - 1, d + days));
}

/** Whole days from `from` to `to` (negative when `to` comes first); NaN when either is no day. */
export function daysBetween(from: Day, to: Day): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

function formatDay(year: number, month: number, day: number): Day {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

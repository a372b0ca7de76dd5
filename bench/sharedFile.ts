// The shared file's size after a year of daily use, at the documented bounds (src/sync/trendBounds.ts,
// syncState.ts): one project, a simulated year, day by day, what a busy writer's windows keep; the
// state pruned after each day as every read prunes it; the size is one window's file as it writes
// it. And the largest the trend areas can grow: every bound full. No network, no VS Code.
import { previousBuckets, trendBuckets } from '../src/analytics/trend/trendBuckets';
import { trendKey, type TrendSubject } from '../src/analytics/trend/trendSeries';
import { SCHEMA_VERSION } from '../src/sync/sharedSchema';
import { emptyState, HybridClock, keepTrends, pruneState, type SyncState, type TrendFigures } from '../src/sync/syncState';
import { setSignalLink } from '../test/support/stateWrites';
import { applyJobChange } from '../src/sync/jobChanges';
import { PAGE_TRENDS_KEPT, SITE_DAYS_KEPT, SITE_SPANS_KEPT, SITE_WEEKS_KEPT, trendScope } from '../src/sync/trendBounds';
import { addDays, daysBetween } from '../src/util/days';

export const SHARED_FILE_SCENARIO =
  "one project, 365 days; each day: Last 30 days (visitors) with its previous period, Last 90 days (visitors and views) with its previous period, three Show Trends of Last 7 days (of 40 pages); each Monday a year-long trend (visitors); 20 jobs tracked with 3 prompts each, 10 signal links, 100 requests in the hour's ledger";

export interface SharedFileResult {
  /** Bytes of one window's file after the year. */
  yearBytes: number;
  /** Settled trend buckets kept at the end, by kind. */
  kept: Record<string, number>;
  /** Bytes of the trend areas with every bound full (two metrics), and of the whole file then. */
  fullBytes: number;
}

const SCOPE = trendScope('acme-docs', 'https://api.mintlify.com');

function fileText(state: SyncState): string {
  const presence = { window: '0123456789abcdef', project: 'acme-docs', focused: true, beat: 1, beatAt: 0, since: 0 };
  return JSON.stringify({ format: 1, schema: SCHEMA_VERSION, presence, state });
}

/** Keeps a trend as a draw does: its settled buckets (and previous period's), stamped `now`. */
function draw(state: SyncState, subject: TrendSubject, from: string, today: string, now: number, compare: boolean): void {
  const plan = trendBuckets(from, today, today);
  if (!plan.ok) return;
  const buckets = [...plan.buckets, ...(compare ? previousBuckets(plan.buckets, daysBetween(from, addDays(today, 1))) : [])];
  const settled: Record<string, TrendFigures> = {};
  for (const bucket of buckets) if (!bucket.open) settled[trendKey(subject, bucket)] = [1234, 567, 1801];
  keepTrends(state, SCOPE, settled, {}, now);
}

export function measureSharedFile(): SharedFileResult {
  const state = emptyState();
  const start = Date.parse('2026-01-01T12:00:00Z');
  const clock = new HybridClock('0123456789abcdef', () => start);
  for (let j = 0; j < 20; j++)
    applyJobChange(
      state,
      'acme-docs',
      `job_${j}`,
      {
        track: true,
        fields: { checkedAt: new Date(start).toISOString() },
        addPrompts: [1, 2, 3].map((p) => ({ text: `Follow-up ${p} about the quickstart page`, sentAt: new Date(start).toISOString() })),
      },
      clock,
    );
  for (let l = 0; l < 10; l++)
    setSignalLink(
      state,
      'acme-docs',
      { jobId: `job_${l}`, signalIds: [`page:/guides/page-${l}`], path: `/guides/page-${l}`, searches: [], askedAt: new Date(start).toISOString() },
      clock,
    );
  for (let d = 0; d < 365; d++) {
    const now = start + d * 86_400_000;
    const today = addDays('2026-01-01', d);
    draw(state, { metric: 'visitors' }, addDays(today, -29), today, now, true);
    for (const metric of ['visitors', 'views'] as const) draw(state, { metric }, addDays(today, -89), today, now, true);
    for (let p = 0; p < 3; p++) draw(state, { metric: 'visitors', path: `/guides/page-${(d * 3 + p) % 40}` }, addDays(today, -6), today, now, false);
    if (new Date(now).getUTCDay() === 1) draw(state, { metric: 'visitors' }, addDays(today, -363), today, now, false);
    pruneState(state, { now, apiBaseUrl: 'https://api.mintlify.com' });
  }
  const end = start + 365 * 86_400_000;
  state.ledger['agent:acme-docs'] = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`0123456789abcdef.${i}`, end - i * 30_000]));
  const yearBytes = Buffer.byteLength(fileText(state));
  const kept: Record<string, number> = {};
  for (const key of Object.keys(state.trends[SCOPE] ?? {})) {
    const kind = key.startsWith('page:') ? 'page' : key.split(' ')[0];
    kept[kind] = (kept[kind] ?? 0) + 1;
  }

  // Every bound full: both metrics' days and weeks, the spans, the pages (with their use).
  const full = emptyState();
  const settled: Record<string, TrendFigures> = {};
  for (const metric of ['visitors', 'views']) {
    for (let i = 0; i < SITE_DAYS_KEPT; i++) settled[`${metric} ${addDays('2026-12-31', -i)} ${addDays('2026-12-31', 1 - i)}`] = [123456, 45678, 169134];
    for (let i = 0; i < SITE_WEEKS_KEPT; i++)
      settled[`${metric} ${addDays('2026-12-28', -7 * i)} ${addDays('2026-12-28', 7 - 7 * i)}`] = [123456, 45678, 169134];
  }
  for (let i = 0; i < SITE_SPANS_KEPT; i++) settled[`visitors ${addDays('2026-12-30', -i)} ${addDays('2026-12-30', 3 - i)}`] = [123456, 45678, 169134];
  for (let i = 0; i < PAGE_TRENDS_KEPT; i++)
    settled[
      `page:${encodeURIComponent(`/guides/page-${i % 60}`)} ${addDays('2026-12-31', -Math.floor(i / 60))} ${addDays('2026-12-31', 1 - Math.floor(i / 60))}`
    ] = [1234, 567, 1801];
  keepTrends(full, SCOPE, settled, {}, end);
  pruneState(full, { now: end, apiBaseUrl: 'https://api.mintlify.com' });
  return { yearBytes, kept, fullBytes: Buffer.byteLength(fileText(full)) };
}

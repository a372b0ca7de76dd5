// Figure 13, the hour's gate: for each action a writer (or the editor's AI, after its dialog's Yes)
// takes, the analytics requests it sent against what the gate allowed it, when the organisation's
// hour is untouched (100 left), half used (50) and nearly spent (6). The real HourGate
// (src/hour/hourGate.ts) over a ledger that records every request the real ApiClient sends to the
// real simulator over HTTP (5,000 paths: 20 pages of 250 a range); the writer answers every
// question with its first button (Compare, Fetch N: what fits). Each action starts from the same
// hour; requests are counted by the simulator.
import { createApiClient, type ApiClient } from '../src/api';
import { fetcherFor } from '../src/analytics/metric';
import { resolvePreset } from '../src/analytics/dateRange';
import { BucketRows } from '../src/analytics/trend/bucketRows';
import { Trend } from '../src/analytics/trend/trend';
import { TrendSeries } from '../src/analytics/trend/trendSeries';
import { trendTotals } from '../src/analytics/trend/trendTotals';
import { fetchAllVisitors } from '../src/analytics/visitorsQuery';
import { fetchSnapshot as fetchVisitors } from '../src/analytics/visitorsSnapshot';
import { DEFAULT_MAX_PAGES } from '../src/api/paging';
import { ENDPOINTS } from '../src/api/endpoints';
import { comparisonWindows } from '../src/signals/didItHelp';
import { countWindow, WINDOW_MOST_REQUESTS } from '../src/signals/impactCheck';
import { currentRange, fetchSnapshot as fetchSignals, MOST_REQUESTS } from '../src/signals/snapshot';
import { type HourGrant, HourGate, type SpendAsk } from '../src/hour/hourGate';
import { HOUR_MS } from '../src/util/clock';
import { localToday } from '../src/util/days';
import { startSimulator, type Simulator } from '../test/simulator/server';
import { memoryLedger } from '../test/support/memoryLedger';
import { MemoryTrendStore } from '../test/support/memoryTrendStore';
import { l10n } from '../test/support/l10n';
import { API_KEY, PROJECT } from './pollingClients';

/** What the hour has left when each action starts. */
export const HOUR_STATES = [100, 50, 6] as const;

export const HOUR_GATE_TEXT =
  'For each action, the real HourGate over a ledger that records every analytics request the real ApiClient sends to the ' +
  'simulator (5,000 paths, so a whole range is 20 pages of 250); the ledger starts with 0, 50 or 94 requests sent half an ' +
  'hour ago; the writer answers every question with its first button (the action, or "Fetch N": what fits); the editor\'s AI is ' +
  'held to the hour\'s first 60 as well. "Sent" is ' +
  'counted by the simulator, "allowed" is what the gate granted (for background work: what fitted under the ceiling of 60).';

export interface HourGateRow {
  action: string;
  /** The estimate the gate was asked with (or the background estimate). */
  estimate: string;
  /** One per HOUR_STATES: requests the simulator received, and what the gate allowed. */
  runs: { left: number; sent: number; allowed: number; asked: boolean }[];
}

/** The gate as an action meets it: asked spends through `ask`, background through `background`; records what was allowed. */
class Hour {
  /** The shared ledger in memory: every request is reserved in it before it is sent. */
  readonly ledger = memoryLedger();
  allowed = 0;
  asked = false;
  readonly gate: HourGate;

  constructor(left: number) {
    this.ledger.sent(100 - left, Date.now() - HOUR_MS / 2);
    const ui = {
      showMessage: async (_level: string, _message: string, ...actions: string[]) => {
        this.asked = true;
        return actions[0];
      },
    };
    this.gate = new HourGate(this.ledger.account, ui, l10n);
  }

  async ask(spend: SpendAsk): Promise<HourGrant | undefined> {
    return this.note(await this.gate.ask(spend));
  }

  background(estimate: number): HourGrant | undefined {
    return this.note(this.gate.background('readers', estimate));
  }

  note(grant: HourGrant | undefined): HourGrant | undefined {
    this.allowed = grant ? (Number.isFinite(grant.allowed) ? grant.allowed : Math.max(0, 60 - (100 - (this.gate.left() ?? 0)))) : 0;
    return grant;
  }
}

type Action = { name: string; estimate: string; run: (api: ApiClient, hour: Hour, sim: Simulator) => Promise<unknown> };

function actions(): Action[] {
  const last30 = resolvePreset('last30', localToday(), l10n);
  const last90 = resolvePreset('last90', localToday(), l10n);
  const key = (range: { dateFrom: string | undefined; dateTo: string | undefined }) => ({ projectId: PROJECT, dateFrom: range.dateFrom, dateTo: range.dateTo });
  const wholeRange = async (api: ApiClient, grant: HourGrant | undefined, range: typeof last30) =>
    grant && fetchVisitors((p, q, o) => api.getVisitors(p, q, { ...o, grant }), key(range), { maxPages: DEFAULT_MAX_PAGES });
  return [
    {
      name: 'Next page of the table',
      estimate: '1',
      run: async (api, hour) => {
        const grant = await hour.ask({ what: 'Loading a page of the table', estimate: 1 });
        if (grant) await fetcherFor(api, 'visitors')(PROJECT, { ...key(last30), limit: 50, offset: 50 }, { grant });
      },
    },
    {
      name: 'Compare with previous period (Last 30 days, not kept)',
      estimate: `up to ${DEFAULT_MAX_PAGES}`,
      run: async (api, hour) => wholeRange(api, await hour.ask({ what: 'Comparing', estimate: DEFAULT_MAX_PAGES, upTo: true, confirm: 'Compare' }), last30),
    },
    {
      name: 'The panel opened on one page (Last 90 days, not kept)',
      estimate: `up to ${DEFAULT_MAX_PAGES}`,
      run: async (api, hour) =>
        wholeRange(api, await hour.ask({ what: 'Finding one page', estimate: DEFAULT_MAX_PAGES, upTo: true, confirm: 'Fetch' }), last90),
    },
    {
      name: 'Export visitors (Last 90 days, not kept)',
      estimate: `up to ${ENDPOINTS.getVisitors.maxPages}`,
      run: async (api, hour) => {
        const grant = await hour.ask({ what: 'Exporting visitors', estimate: ENDPOINTS.getVisitors.maxPages, upTo: true });
        if (grant) await fetchAllVisitors(fetcherFor(api, 'visitors'), PROJECT, last90, { grant });
      },
    },
    {
      name: 'A docs page shown (readers, background)',
      estimate: '1 (no kept size)',
      run: async (api, hour) => wholeRange(api, hour.background(1), last30),
    },
    {
      name: 'Fetch Reader Signals (none kept)',
      estimate: `up to ${MOST_REQUESTS}`,
      run: async (api, hour) => {
        const grant = await hour.ask({ what: 'Fetching reader signals', estimate: MOST_REQUESTS, upTo: true });
        if (grant) await fetchSignals(api, PROJECT, currentRange(), { grant, partial: true });
      },
    },
    {
      name: 'Show Full Thread',
      estimate: '1',
      run: async (api, hour, sim) => {
        const grant = await hour.ask({ what: 'Reading the whole thread', estimate: 1 });
        const question = sim.signalsFor(PROJECT, currentRange()).assistant.find((turn) => turn.resolutionStatus === 'unanswered');
        if (grant && question) await api.getAssistantThread(PROJECT, question.id, { grant });
      },
    },
    {
      name: 'Did It Help? (28 days before and after)',
      estimate: `up to ${2 * WINDOW_MOST_REQUESTS}`,
      run: async (api, hour) => {
        const windows = comparisonWindows(Date.now() - 40 * 86_400_000, Date.now());
        const grant = await hour.ask({ what: 'Did It Help?', estimate: 2 * WINDOW_MOST_REQUESTS, upTo: true });
        if (!grant || !windows) return;
        const target = { path: '/quickstart', searches: ['install'] };
        await countWindow(api, PROJECT, target, windows.before, { grant });
        await countWindow(api, PROJECT, target, windows.after, { grant });
      },
    },
    {
      name: 'Draw the trend (Last 30 days, nothing kept)',
      estimate: '30',
      run: async (api, hour) => {
        const rows = new BucketRows();
        const trend = new Trend({
          series: new TrendSeries({ kept: new MemoryTrendStore(), rows, fetchTotals: trendTotals(api, rows, () => undefined, l10n) }),
          l10n,
          today: localToday,
          gate: hour.gate,
        });
        const ask = { projectId: PROJECT, metric: 'visitors' as const, range: last30, compare: false };
        hour.asked = trend.view(ask)?.status === 'confirm';
        hour.allowed = Math.min(30, hour.gate.left() ?? 30);
        await trend.load(ask, { approve: true });
      },
    },
    {
      name: 'get_mintlifyVisitors after its dialog’s Yes (Last 90 days)',
      estimate: `up to ${DEFAULT_MAX_PAGES}`,
      run: async (api, hour) => {
        // The editor's AI: held to the hour's first 60 as well (SpendAsk.forModel); no dialog when nothing fits.
        const question = hour.gate.question({ what: 'Fetching the visitors', estimate: DEFAULT_MAX_PAGES, upTo: true, cap: DEFAULT_MAX_PAGES, forModel: true });
        hour.asked = question.fits > 0;
        const grant = question.fits > 0 ? hour.note(hour.gate.granted(question.fits, true)) : hour.note(undefined);
        await wholeRange(api, grant, last90);
      },
    },
  ];
}

export async function measureHourGate(): Promise<HourGateRow[]> {
  const sim = await startSimulator({ projects: [PROJECT], analyticsLimitPerHour: 10_000, pathCount: 5_000 });
  try {
    const rows: HourGateRow[] = [];
    for (const action of actions()) {
      const runs: HourGateRow['runs'] = [];
      for (const left of HOUR_STATES) {
        const hour = new Hour(left);
        const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => API_KEY });
        sim.clearRequests();
        await action.run(api, hour, sim);
        const sent = sim.requests.filter((r) => r.rawPath.startsWith('/v1/analytics/')).length;
        if (sent > hour.allowed || sent > left) throw new Error(`${action.name} with ${left} left sent ${sent}, allowed ${hour.allowed}`);
        runs.push({ left, sent, allowed: hour.allowed, asked: hour.asked });
      }
      rows.push({ action: action.name, estimate: action.estimate, runs });
    }
    return rows;
  } finally {
    await sim.close();
  }
}

/** The figure's lines in the summary table. */
export function hourGateLines(rows: readonly HourGateRow[]): { figure: string; value: string }[] {
  return rows.map((row) => ({
    figure: row.action,
    value: row.runs.map((run) => `${run.left} left: ${run.sent}/${run.allowed}${run.asked ? ' (asked)' : ''}`).join('; '),
  }));
}

export function hourGateSection(rows: readonly HourGateRow[] | undefined): string {
  if (!rows?.length) return '## 13. The hour’s gate\n\nNot measured in this run.\n';
  const head = `| action | estimate | ${HOUR_STATES.map((left) => `${left} left: sent / allowed`).join(' | ')} |`;
  const line = (row: HourGateRow) =>
    `| ${row.action} | ${row.estimate} | ${row.runs.map((run) => `${run.sent} / ${run.allowed}${run.asked ? ' (asked)' : ''}`).join(' | ')} |`;
  return `## 13. The hour’s gate

**What it shows** (bench/hourGate.ts): ${HOUR_GATE_TEXT} "(asked)" marks a run where the writer saw the question (or,
for the tool, its dialog) before any request. In every cell sent ≤ allowed ≤ what was left: the run fails otherwise.

${head}
|---|---|${HOUR_STATES.map(() => '---').join('|')}|
${rows.map(line).join('\n')}

Reproduce: \`node bench/build.mjs && node out/bench/run.js --no-host --no-write\` (this figure needs no VS Code).
`;
}

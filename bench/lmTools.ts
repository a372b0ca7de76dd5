// Figure 11, what the language model tools put in a model's context: the size in characters of each
// reading tool's answer, before and after the result cap (src/tools/toolTexts.ts), on the default
// and the large simulator site. The snapshots come through the real fetchSnapshot and ApiClient from
// the real simulator; the texts are the tools' own functions. The jobs figure lists MAX_JOBS + 5
// tracked jobs, each with a long prompt and a branch, so its list is cut as a big project's is.
import { createApiClient } from '../src/api';
import { resolvePreset } from '../src/analytics/dateRange';
import { fetchSnapshot as fetchVisitors } from '../src/analytics/visitorsSnapshot';
import { DEFAULT_MAX_PAGES } from '../src/api/paging';
import { buildInbox } from '../src/signals/signalsModel';
import { currentRange, fetchSnapshot as fetchSignals } from '../src/signals/snapshot';
import {
  agentJobsText,
  capResult,
  gapInboxText,
  MAX_JOBS,
  MAX_RESULT_CHARS,
  readerEvidenceText,
  visitorsText,
  type JobFacts,
  type ToolAnswer,
} from '../src/tools/toolTexts';
import { localToday } from '../src/util/days';
import { l10n } from '../test/support/l10n';
import { startSimulator } from '../test/simulator/server';
import { DEFAULT_SIGNALS, LARGE_SIGNALS } from '../test/simulator/signals';
import { API_KEY, PROJECT } from './pollingClients';
import { unlimited } from '../test/support/grants';

export const LM_TOOLS_TEXT =
  `Characters of each reading tool's answer (before the ${MAX_RESULT_CHARS.toLocaleString('en-US')}-character result cap → as the model gets it). ` +
  'Reader evidence: the page of the inbox with the most evidence (its first page) and /quickstart; gap inbox: as the view ranks it; ' +
  `visitors: Last 30 days, the default 10 and the most (25) top paths; agent jobs: ${MAX_JOBS + 5} tracked jobs with long prompts.`;

export interface LmToolSize {
  tool: string;
  raw: number;
  capped: number;
}

export interface LmToolsRun {
  label: string;
  sizes: LmToolSize[];
}

const size = (tool: string, answer: ToolAnswer): LmToolSize => ({
  tool,
  raw: (typeof answer === 'string' ? answer : answer.text).length,
  capped: capResult(answer).length,
});

async function sizesOn(label: string, options: { pathCount: number; signals: typeof DEFAULT_SIGNALS }): Promise<LmToolsRun> {
  const sim = await startSimulator({ projects: [PROJECT], analyticsLimitPerHour: 10_000, ...options });
  try {
    const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => API_KEY });
    const signals = await fetchSignals(api, PROJECT, currentRange(), { grant: unlimited });
    const worst = buildInbox(signals).pages[0]?.path ?? '/quickstart';
    const range = resolvePreset('last30', localToday(), l10n);
    const visitors = await fetchVisitors(
      (p, q, o) => api.getVisitors(p, q, { ...o, grant: unlimited }),
      { projectId: PROJECT, dateFrom: range.dateFrom, dateTo: range.dateTo },
      { maxPages: DEFAULT_MAX_PAGES },
    );
    const prompt = 'Improve the quickstart using the reader evidence below. '.repeat(20);
    const jobs: JobFacts[] = Array.from({ length: MAX_JOBS + 5 }, (_, i) => ({
      id: `job-${String(i).padStart(4, '0')}-${'x'.repeat(20)}`,
      prompts: [{ text: prompt, sentAt: new Date(Date.UTC(2026, 10, 1 + (i % 28))).toISOString() }],
      trackedAt: new Date(Date.UTC(2026, 10, 1 + (i % 28))).toISOString(),
      job: {
        id: `job-${i}`,
        status: 'completed',
        reportedStatus: 'completed',
        ref: `mintlify/agent-fix-${i}-${'y'.repeat(40)}`,
        prLink: `https://github.com/acme/docs/pull/${i}`,
        createdAt: new Date(Date.UTC(2026, 10, 1 + (i % 28))).toISOString(),
        repository: undefined,
        model: undefined,
        archivedAt: undefined,
      },
    }));
    return {
      label,
      sizes: [
        size(`reader evidence, ${worst.length > 40 ? `${worst.slice(0, 40)}…` : worst} (top of the inbox)`, readerEvidenceText(signals, worst, [])),
        size('reader evidence, /quickstart', readerEvidenceText(signals, '/quickstart', ['docs/quickstart.mdx'])),
        size('gap inbox', gapInboxText(signals, false)),
        size('visitors, top 10', visitorsText(visitors, 'last30', 10, false)),
        size('visitors, top 25', visitorsText(visitors, 'last30', 25, false)),
        size(`agent jobs, ${MAX_JOBS + 5} tracked`, agentJobsText(PROJECT, jobs)),
      ],
    };
  } finally {
    await sim.close();
  }
}

export async function measureLmTools(): Promise<LmToolsRun[]> {
  return [
    await sizesOn('default site', { pathCount: 3_000, signals: DEFAULT_SIGNALS }),
    await sizesOn('large site', { pathCount: 10_000, signals: LARGE_SIGNALS }),
  ];
}

// Figure 15: requests for one preview, from the click to the page being ready. Preview Branch sends
// one POST; the status is then read by the status poller (src/poll/statusPoller.ts) with the preview's
// timings (src/preview/previewRecord.ts PREVIEW_TIMINGS) until it says success. Both go through the
// real ApiClient to the real simulator over HTTP, on a simulated clock both read (bench/simClock.ts),
// so time moves only between requests and every figure is scheduling alone. Against it: the floor of
// our delay bounds, reading at the 5 s interval the whole time (never sooner: a read every 5 s is
// the most any poll of ours makes), which needs ceil(build / 5 s) reads to see the end.
import { createApiClient, type UpdateStatus } from '../src/api';
import { StatusPoller } from '../src/poll/statusPoller';
import { PREVIEW_TIMINGS } from '../src/preview/previewRecord';
import { startSimulator } from '../test/simulator/server';
import { API_KEY, PROJECT } from './pollingClients';
import { SimulatedClock } from './simClock';

export const PREVIEW_REQUESTS_TEXT =
  'Requests for one preview (POST /v1/project/preview and GET /v1/project/update-status received by the simulator) from the click ' +
  'to the status read that says success, for builds of 32 s to about 10 min (10 s of it queued), the window focused; against the floor ' +
  `of our delay bounds: 1 POST and a read every ${PREVIEW_TIMINGS.fastIntervalMs / 1000} s (the fastest interval any poll of ours uses) ` +
  "until the build ends. The lag is the time from the build's end to the read that saw it.";

export interface PreviewRequestsRun {
  buildSeconds: number;
  posts: number;
  reads: number;
  floorReads: number;
  lagSeconds: number;
}

async function run(buildMs: number): Promise<PreviewRequestsRun> {
  const start = Date.parse('2026-11-20T10:00:00Z');
  const clock = new SimulatedClock(start);
  const queuedMs = 10_000;
  const sim = await startSimulator({ projects: [PROJECT], now: clock.now, previews: { queuedMs, buildMs: buildMs - queuedMs } });
  try {
    const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => API_KEY, timers: clock });
    const { statusId } = await clock.track(api.createPreview(PROJECT, 'mintlify/agent-bench'));
    let seenAt: number | undefined;
    const poller = new StatusPoller(
      {
        fetch: (_id, signal) => clock.track(api.getUpdateStatus(statusId, { signal })),
        onResult: (_id, result) => {
          if ('value' in result && (result.value as UpdateStatus).status === 'success') {
            seenAt = clock.now();
            return 'stop';
          }
          return 'continue';
        },
      },
      PREVIEW_TIMINGS,
      clock,
    );
    poller.watch('preview', { lastAt: start });
    poller.noteShared('preview', start, start + PREVIEW_TIMINGS.fastPhaseMs);
    await clock.runUntil(start + buildMs + 30 * 60_000);
    poller.dispose();
    const count = (m: string, p: string) => sim.requests.filter((r) => r.method === m && r.rawPath.startsWith(p)).length;
    return {
      buildSeconds: buildMs / 1000,
      posts: count('POST', '/v1/project/preview/'),
      reads: count('GET', '/v1/project/update-status/'),
      floorReads: Math.ceil(buildMs / PREVIEW_TIMINGS.fastIntervalMs),
      lagSeconds: ((seenAt ?? Number.NaN) - (start + buildMs)) / 1000,
    };
  } finally {
    await sim.close();
  }
}

export async function measurePreviewRequests(): Promise<PreviewRequestsRun[]> {
  const runs: PreviewRequestsRun[] = [];
  for (const seconds of [32, 75, 130, 310, 610]) runs.push(await run(seconds * 1000));
  return runs;
}

export function previewRequestsRows(runs: readonly PreviewRequestsRun[]): { figure: string; value: string }[] {
  return runs.map((r) => ({
    figure: `a ${r.buildSeconds} s build: requests from click to ready (floor)`,
    value: `${r.posts} POST + ${r.reads} status reads (1 + ${r.floorReads}) → ours / floor ${((r.posts + r.reads) / (1 + r.floorReads)).toFixed(2)}×; seen ${r.lagSeconds.toFixed(0)} s after it ended`,
  }));
}

export function previewRequestsSection(runs: readonly PreviewRequestsRun[] | undefined): string {
  return `## 15. Preview Branch: requests for one preview

${PREVIEW_REQUESTS_TEXT}${runs?.length ? '' : ' Not measured in this run.'}
Past the first ${PREVIEW_TIMINGS.fastPhaseMs / 60_000} minutes the status is read every ${PREVIEW_TIMINGS.intervalMs / 1000} s, so a long build costs fewer reads
than the floor and is seen up to ${PREVIEW_TIMINGS.intervalMs / 1000} s late; the preview family's own limit (5 deployments a minute for the
organisation) counts the POSTs alone, one a click. Only the window that leads the project reads, so more windows add none.

Reproduce: \`node bench/build.mjs && node out/bench/run.js --preview-only\` (no VS Code needed; \`npm run bench\` includes it).
`;
}

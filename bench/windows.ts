// Figure: several windows, one client. One scripted hour run with 1, 2 and 3 windows on
// one project, each window being the extension's own pieces (StatusPoller, SharedStore with its lease
// and ledger) wired the way JobTracker.followWindows wires them, all on one simulated clock against
// the real HTTP simulator; the store's files live in one in-memory folder (the disk version is
// timed separately below). GETs are counted at the simulator. With 2 and 3 windows the window that
// polls closes at 30 min, so the figure includes a takeover. Then: the time for a change written
// by one window to show in another, over real files, with node's fs.watch standing in for VS
// Code's file watcher and the same 1 s fallback read.
import { watch } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentJob, type ApiClient, createApiClient } from '../src/api';
import { endpointOf } from '../src/api/endpoints';
import { StatusPoller } from '../src/poll/statusPoller';
import { DEFAULT_TIMINGS } from '../src/poll/pollTimings';
import { BEAT_MS } from '../src/sync/lease';
import { agentBucket, countInHour, recordRequest } from '../src/hour/ledger';
import { SharedStore, type SyncFs } from '../src/sync/sharedStore';
import { applyJobChange } from '../src/sync/jobChanges';
import { startSimulator } from '../test/simulator/server';
import { nodeSyncFs } from '../test/support/nodeSyncFs';
import { API_KEY, PROJECT, TERMINAL } from './pollingClients';
import { SimulatedClock } from './simClock';
import { median } from './stats';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.UTC(2025, 0, 6, 9);
const FALLBACK_READ_MS = 1_000;
const ACTIVE: ReadonlyArray<[string, number]> = [
  ['job_w1', 4 * MINUTE],
  ['job_w2', 17 * MINUTE],
  ['job_w3', 41 * MINUTE],
  ['job_w4', 75 * MINUTE],
];
/** Follow-ups: when, to which job, from which window (modulo the windows open). */
const FOLLOW_UPS: ReadonlyArray<{ at: number; id: string; from: number }> = [
  { at: 10 * MINUTE, id: 'job_w1', from: 1 },
  { at: 35 * MINUTE, id: 'job_w2', from: 2 },
  { at: 50 * MINUTE, id: 'job_w1', from: 1 },
];
const CLOSE_LEADER_AT = 30 * MINUTE;

export const WINDOWS_SCENARIO = `${ACTIVE.length} jobs active at the start, ${FOLLOW_UPS.length} follow-ups sent from a window that does not poll (when there is one); with 2 and 3 windows the polling window closes at ${CLOSE_LEADER_AT / MINUTE} min.`;

export interface WindowsRun {
  windows: number;
  gets: number;
  /** The shared ledger's count of agent requests at the end of the hour, and the simulator's of those the platform counts (sends, not status reads). */
  ledger: number;
  simulator: number;
}

export interface WindowsResult {
  runs: WindowsRun[];
  propagation: { medianMs: number; maxMs: number; changes: number };
}

function memoryFs(files: Map<string, string>): SyncFs {
  return {
    list: () => Promise.resolve([...files.keys()]),
    read: (name) => Promise.resolve(files.get(name)),
    writeAtomic: (name, text) => (files.set(name, text), Promise.resolve()),
    rename: (from, to) => (files.set(to, files.get(from) ?? ''), files.delete(from), Promise.resolve()),
    remove: (name) => (files.delete(name), Promise.resolve()),
  };
}

class BenchWindow {
  readonly store: SharedStore;
  readonly poller: StatusPoller;
  closed = false;

  constructor(
    id: string,
    files: Map<string, string>,
    private readonly clock: SimulatedClock,
    private readonly api: ApiClient,
  ) {
    this.store = new SharedStore(memoryFs(files), id, { info: () => undefined, warn: () => undefined }, clock.now);
    this.store.presence.project = PROJECT;
    this.store.presence.focused = true;
    this.poller = new StatusPoller(
      {
        // JobTracker.fetchJob: a status read is not counted in the agent's hour (the endpoint table's
        // `counted: false`), so it is neither held to the ledger's ceiling nor written to the ledger;
        // the poller's own rules (intervals, steady reads an hour, one poller a project) bound it.
        fetch: (jobId, signal) => clock.track(api.getJob(PROJECT, jobId, { signal })),
        onResult: (jobId, result) => {
          if ('error' in result) return 'continue';
          const job = result.value as AgentJob;
          void this.store.update((s) =>
            applyJobChange(s, PROJECT, jobId, { fields: { job, checkedAt: new Date(clock.now()).toISOString() } }, this.store.clock),
          );
          return TERMINAL.has(job.status) ? 'stop' : 'continue';
        },
        random: () => 0.5,
      },
      DEFAULT_TIMINGS,
      clock,
    );
    this.poller.setStandby(true);
  }

  start(): void {
    const read = () => {
      if (this.closed) return;
      void this.clock.track(this.store.refresh().then(() => this.follow()));
      this.clock.setTimeout(read, FALLBACK_READ_MS);
    };
    const beat = () => {
      if (this.closed) return;
      void this.clock.track(this.store.beat());
      this.clock.setTimeout(beat, BEAT_MS);
    };
    beat();
    this.clock.setTimeout(read, 1_000);
  }

  /** JobTracker.followWindows, without vscode. */
  follow(): void {
    if (this.closed) return;
    const leader = this.store.lease.leaderOf(PROJECT, this.store.presence) === this.store.window;
    for (const [jobId, record] of Object.entries(this.store.state.jobs[PROJECT] ?? {})) {
      if (!record.tracked.v) continue;
      const job = record.f.job?.v as AgentJob | undefined;
      const terminal = job !== undefined && TERMINAL.has(job.status);
      const checkedAt = typeof record.f.checkedAt?.v === 'string' ? Date.parse(record.f.checkedAt.v) : undefined;
      if (!terminal && !this.poller.isWatching(jobId)) this.poller.watch(jobId, { lastAt: checkedAt ?? 0 });
      else if (terminal && !leader && this.poller.isWatching(jobId)) this.poller.unwatch(jobId);
      const fastUntil = record.f.fastUntil?.v;
      this.poller.noteShared(jobId, checkedAt, typeof fastUntil === 'number' ? fastUntil : undefined);
    }
    this.poller.setStandby(!leader);
  }

  async followUp(jobId: string): Promise<void> {
    const id = this.store.nextEntryId();
    void this.store.update((s) => recordRequest(s, agentBucket(PROJECT), id, this.clock.now()));
    const job = await this.clock.track(this.api.sendMessage(PROJECT, jobId, 'Bench follow-up'));
    this.poller.watch(jobId, { fast: true });
    const now = this.clock.now();
    await this.store.update((s) =>
      applyJobChange(
        s,
        PROJECT,
        jobId,
        {
          fields: { job, checkedAt: new Date(now).toISOString(), fastUntil: now + DEFAULT_TIMINGS.fastPhaseMs },
          addPrompts: [{ text: 'Bench follow-up', sentAt: new Date(now).toISOString() }],
        },
        this.store.clock,
      ),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    this.poller.dispose();
    await this.store.beat({ closed: true });
  }
}

async function runHour(count: number): Promise<WindowsRun> {
  const clock = new SimulatedClock(T0);
  const sim = await startSimulator({ projects: [PROJECT], now: clock.now, agentPostLimitPerHour: 1_000 });
  try {
    const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => API_KEY });
    for (const [id, activeForMs] of ACTIVE) sim.addJob(PROJECT, { id, status: 'active', outcome: 'pr', activeForMs });
    const files = new Map<string, string>();
    // The jobs as an earlier session left them in the store: tracked, last read an hour ago.
    const seed = new SharedStore(memoryFs(files), 'earlier', { info: () => undefined, warn: () => undefined }, () => T0 - HOUR);
    await seed.update((s) => {
      for (const [id] of ACTIVE) applyJobChange(s, PROJECT, id, { track: true, fields: { checkedAt: new Date(T0 - HOUR).toISOString() } }, seed.clock);
    });
    await seed.beat({ closed: true });
    const windows = Array.from({ length: count }, (_, i) => new BenchWindow(`w${i}`, files, clock, api));
    for (const w of windows) w.start();
    const open = () => windows.filter((w) => !w.closed);
    const leader = () => open().find((w) => w.store.lease.leaderOf(PROJECT, w.store.presence) === w.store.window && !w.poller.isStandby);
    const events: { at: number; run: () => Promise<void> }[] = FOLLOW_UPS.map((f) => ({
      at: f.at,
      run: () => {
        const senders = open().filter((w) => w !== leader());
        const sender = senders.length ? senders[f.from % senders.length] : open()[0];
        return sender.followUp(f.id);
      },
    }));
    if (count > 1) events.push({ at: CLOSE_LEADER_AT, run: () => (leader() ?? open()[0]).close() });
    events.sort((a, b) => a.at - b.at);
    for (const event of events) {
      await clock.runUntil(T0 + event.at);
      await event.run();
    }
    await clock.runUntil(T0 + HOUR);
    const inHour = sim.requests.filter((r) => r.at <= T0 + HOUR);
    const survivor = open()[0];
    await survivor.store.refresh();
    const ledger = countInHour(survivor.store.state, agentBucket(PROJECT), T0 + HOUR);
    for (const w of open()) await w.close();
    const counted = inHour.filter((r) => endpointOf(r.method, r.rawPath)?.counted !== false);
    return { windows: count, gets: inHour.filter((r) => r.method === 'GET').length, ledger, simulator: counted.length };
  } finally {
    await sim.close();
  }
}

/** Real files, real time: A writes a change, B (watching the folder) shows it. */
async function measurePropagation(changes: number): Promise<WindowsResult['propagation']> {
  const dir = mkdtempSync(join(tmpdir(), 'mintlify-bench-sync-'));
  const quiet = { info: () => undefined, warn: () => undefined };
  const a = new SharedStore(nodeSyncFs(dir), 'a', quiet);
  const b = new SharedStore(nodeSyncFs(dir), 'b', quiet);
  let waiting: { id: string; done: () => void } | undefined;
  let reading = Promise.resolve();
  const read = () => {
    reading = reading.then(async () => {
      await b.refresh();
      if (waiting && b.state.jobs[PROJECT]?.[waiting.id]) waiting.done();
    });
  };
  const watcher = watch(dir, () => read());
  const fallback = setInterval(read, FALLBACK_READ_MS);
  const times: number[] = [];
  try {
    for (let i = 0; i < changes; i++) {
      const id = `job_${i}`;
      const started = performance.now();
      const shown = new Promise<void>((done) => (waiting = { id, done }));
      await a.update((s) => applyJobChange(s, PROJECT, id, { track: true }, a.clock));
      await shown;
      times.push(performance.now() - started);
    }
  } finally {
    watcher.close();
    clearInterval(fallback);
    await reading;
    rmSync(dir, { recursive: true, force: true });
  }
  return { medianMs: median(times), maxMs: Math.max(...times), changes };
}

export async function measureWindows(): Promise<WindowsResult> {
  const runs: WindowsRun[] = [];
  for (const count of [1, 2, 3]) runs.push(await runHour(count));
  return { runs, propagation: await measurePropagation(50) };
}

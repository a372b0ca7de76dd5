// Figure 17: the shared state and the organisation's hour through a simulated day under faults. One
// and three windows of one machine, as the extension wires them (src/sync/windowReplica.ts, the hour's
// gate over each), on one folder that fails, stalls and lands writes late by a seeded schedule
// (test/support/faultyFolder.ts), on a fake clock: writers, background work and the editor's AI spend
// the hour at random, jobs are tracked hour by hour, and at midday the extension is updated while
// the windows stay open (a window of the next schema version opens, works half an hour and closes).
// Beside it, an export meets `Retry-After: 3600000` (a proxy's milliseconds sent as seconds) at the
// simulator and waits it out. No VS Code, no sleeping: the day takes seconds.
import { ExportPages, fetchExportPages } from '../src/analytics/exportPages';
import { fetcherFor } from '../src/analytics/metric';
import { createApiClient } from '../src/api';
import { applyJobChange } from '../src/sync/jobChanges';
import { BEAT_MS } from '../src/sync/lease';
import { HOURLY_LIMIT } from '../src/sync/ledger';
import { SCHEMA_VERSION } from '../src/sync/sharedSchema';
import { HOUR_MS } from '../src/util/clock';
import { startSimulator } from '../test/simulator/server';
import { FakeClock } from '../test/support/fakeClock';
import { seeded } from '../test/support/faultyFolder';
import { grantOf } from '../test/support/grants';
import { Machine, type TestWindow } from '../test/support/windowsOnOneFolder';

export const SOAK_WINDOWS = [1, 3] as const;
const DAY_MS = 24 * HOUR_MS;
const START = Date.parse('2026-11-27T00:00:00Z');
/** How often something may happen in a window: a spend, a job tracked, a fault beginning. */
const TICK_MS = 60_000;

export const SOAK_TEXT =
  'a simulated day (24 h, fake clock) of one and of three windows on one shared-store folder, wired as the extension wires them; ' +
  'each minute each window spends with a chance of 1 in 6 (a writer 1–4 requests, background work 1, the editor’s AI 1–3), tracks a new job with a chance of 1 in 60, ' +
  'and meets a fault with a chance of 1 in 30: for 10 s to 5 min its folder operations fail, land late (6 s, past the 5 s deadline) or stall (a minute), at random; ' +
  'at 12:00 a window of the next schema version opens, beats for 30 minutes and closes. A minute in which a window did nothing is idle.';

export interface SoakRun {
  windows: number;
  /** Writes that landed per idle window-minute, and bytes. */
  writesPerIdleMinute: number;
  bytesPerIdleMinute: { first: number; last: number };
  /** The largest number of analytics requests sent in any hour, past the hour's 100. */
  overshoot: number;
  /** Of the requests sent past the hour, those sent while no writer had been told the count was uncertain. */
  overshootUntold: number;
  /** Reservations counted at the end that were never sent (leaked), and sent but not counted (lost). */
  leaked: number;
  lost: number;
  /** The longest the hour's count stayed unknown in a window, and the longest after its disk answered again. */
  longestUnknownMs: number;
  longestUnknownAfterRecoveryMs: number;
  faults: number;
  sent: number;
  shared: { bytes: number; jobs: number };
}

export interface SoakExport {
  /** The wait the export took after `Retry-After: 3600000`, and its requests while it waited (429s included). */
  waitMs: number;
  attemptsWhileWaiting: number;
  attemptsPerSecond: number;
  rows: number;
}

export interface SoakResult {
  runs: SoakRun[];
  exportWait: SoakExport;
}

function presence(window: string, at: number, beat: number, closed = false): string {
  return JSON.stringify({
    format: 1,
    schema: SCHEMA_VERSION + 1,
    presence: { window, project: null, focused: false, beat, beatAt: at, since: START + 12 * HOUR_MS, ...(closed && { closed: true }) },
    state: { nextArea: { added: 'by the next version' } },
  });
}

async function soakDay(count: number, seed: number): Promise<SoakRun> {
  const clock = new FakeClock(START);
  const machine = new Machine(clock, seed);
  const random = seeded(seed * 7919);
  const windows: TestWindow[] = Array.from({ length: count }, (_, i) => machine.open(`w${i}`));
  await clock.advance(BEAT_MS);

  const sends: number[] = [];
  let untoldPast = 0;
  const busyMinutes = windows.map(() => new Set<number>());
  const writesByMinute = windows.map(() => new Map<number, { writes: number; bytes: number }>());
  const unknownSince: (number | undefined)[] = windows.map(() => undefined);
  const healedAt: (number | undefined)[] = windows.map(() => undefined);
  let longestUnknown = 0;
  let longestAfterRecovery = 0;
  let faults = 0;
  let jobs = 0;
  const running: Promise<void>[] = [];
  const minute = () => Math.floor((clock.now() - START) / 60_000);

  // Writes per window and minute, from the folder's own count.
  const seen = windows.map(() => ({ writes: 0, bytes: 0 }));
  const noteWrites = () =>
    windows.forEach((w, i) => {
      const writes = machine.folder.writes.get(w.file) ?? 0;
      const bytes = machine.folder.bytes.get(w.file) ?? 0;
      const slot = writesByMinute[i].get(minute()) ?? { writes: 0, bytes: 0 };
      slot.writes += writes - seen[i].writes;
      slot.bytes += bytes - seen[i].bytes;
      writesByMinute[i].set(minute(), slot);
      seen[i] = { writes, bytes };
    });
  const noteUnknown = () =>
    windows.forEach((w, i) => {
      if (w.gate.used() === undefined) unknownSince[i] ??= clock.now();
      else if (unknownSince[i] !== undefined) {
        longestUnknown = Math.max(longestUnknown, clock.now() - unknownSince[i]);
        const healed = healedAt[i];
        if (healed !== undefined && healed >= unknownSince[i]) longestAfterRecovery = Math.max(longestAfterRecovery, clock.now() - healed);
        unknownSince[i] = undefined;
      }
    });

  const spend = async (window: TestWindow, holder: 'writer' | 'background' | 'model', n: number) => {
    const grant = holder === 'background' ? window.gate.background('readers', 1) : window.gate.granted(n, holder === 'model');
    if (!grant) return;
    const reservations = await Promise.all(Array.from({ length: n }, () => grant.reserve()));
    grant.end();
    for (const reservation of reservations) {
      if (!reservation) continue;
      reservation.end(true);
      const at = clock.now();
      sends.push(at);
      const inHour = sends.filter((t) => t > at - HOUR_MS).length;
      if (inHour > HOURLY_LIMIT && !windows.some((w) => w.told.length)) untoldPast++;
    }
  };

  let newerBeat = 0;
  for (let t = 0; t < DAY_MS; t += TICK_MS) {
    // The extension update: a window of the next version, from 12:00 for half an hour.
    if (t >= 12 * HOUR_MS && t < 12.5 * HOUR_MS) {
      machine.folder.files.set('w-next.json', presence('next', clock.now(), ++newerBeat));
      machine.folder.onWrite('w-next.json');
    } else if (t === 12.5 * HOUR_MS) {
      machine.folder.files.set('w-next.json', presence('next', clock.now(), ++newerBeat, true));
      machine.folder.onWrite('w-next.json');
    }
    windows.forEach((window, i) => {
      if (random() < 1 / 6) {
        busyMinutes[i].add(minute());
        const roll = random();
        const holder = roll < 0.5 ? 'writer' : roll < 0.8 ? 'background' : 'model';
        running.push(spend(window, holder, holder === 'writer' ? 1 + Math.floor(random() * 4) : holder === 'model' ? 1 + Math.floor(random() * 3) : 1));
      }
      if (random() < 1 / 60) {
        busyMinutes[i].add(minute());
        const job = `job_${++jobs}`;
        running.push(
          window
            .update(
              (state) =>
                applyJobChange(
                  state,
                  'proj',
                  job,
                  { track: true, fields: { status: 'active', title: `A job of the day, number ${jobs}` } },
                  window.store.clock,
                ),
              ['jobs'],
            )
            .catch(() => undefined),
        );
      }
      if (window.view.schedule === undefined && random() < 1 / 30) {
        faults++;
        healedAt[i] = undefined;
        const kinds = (['fail', 'slow', 'stall'] as const).filter(() => random() < 0.6);
        window.view.schedule = { rate: 0.3 + random() * 0.7, kinds: kinds.length ? kinds : ['fail'], stallMs: 60_000 };
        const lasts = 10_000 + Math.floor(random() * 290_000);
        clock.setTimeout(() => {
          window.view.schedule = undefined;
          // The disk answers again once the last late operation has landed.
          healedAt[i] = clock.now() + 60_000;
        }, lasts);
      }
    });
    for (let beat = 0; beat < TICK_MS / BEAT_MS; beat++) {
      await clock.advance(BEAT_MS);
      noteWrites();
      noteUnknown();
    }
  }
  // The disk answers again for good; what was stalled lands within the minute.
  windows.forEach((window, i) => {
    window.view.schedule = undefined;
    healedAt[i] = clock.now() + 60_000;
  });
  for (let beat = 0; beat < (2 * 60_000) / BEAT_MS; beat++) {
    await clock.advance(BEAT_MS);
    noteUnknown();
  }
  await Promise.all(running);

  const now = clock.now();
  const sentInHour = sends.filter((t) => t > now - HOUR_MS).length;
  const counted = Math.max(...windows.map((w) => w.gate.used() ?? 0));
  let peak = 0;
  for (const at of sends) peak = Math.max(peak, sends.filter((t) => t > at - HOUR_MS && t <= at).length);

  const idle = (from: number, to: number) => {
    let minutes = 0;
    let writes = 0;
    let bytes = 0;
    windows.forEach((_, i) => {
      for (let m = from; m < to; m++) {
        if (busyMinutes[i].has(m) || busyMinutes[i].has(m - 1)) continue;
        minutes++;
        writes += writesByMinute[i].get(m)?.writes ?? 0;
        bytes += writesByMinute[i].get(m)?.bytes ?? 0;
      }
    });
    return { minutes, writes, bytes };
  };
  const day = idle(1, DAY_MS / 60_000);
  const first = idle(1, 60);
  const last = idle(DAY_MS / 60_000 - 60, DAY_MS / 60_000);
  const file = machine.folder.files.get(windows[0].file) ?? '';
  const result: SoakRun = {
    windows: count,
    writesPerIdleMinute: day.writes / Math.max(1, day.minutes),
    bytesPerIdleMinute: { first: first.bytes / Math.max(1, first.minutes), last: last.bytes / Math.max(1, last.minutes) },
    overshoot: Math.max(0, peak - HOURLY_LIMIT),
    overshootUntold: untoldPast,
    leaked: Math.max(0, counted - sentInHour),
    lost: Math.max(0, sentInHour - counted),
    longestUnknownMs: longestUnknown,
    longestUnknownAfterRecoveryMs: longestAfterRecovery,
    faults,
    sent: sends.length,
    shared: { bytes: file.length, jobs },
  };
  for (const window of [...machine.windows]) machine.close(window);
  return result;
}

/** An export that meets `Retry-After: 3600000` on its fourth page, on a fake clock: how long it waits, and how often it asks meanwhile. */
async function exportThroughBadHeader(): Promise<SoakExport> {
  const sim = await startSimulator({ today: '2026-11-19', pathCount: 2_000 });
  try {
    const requests: number[] = [];
    const fake = new FakeClock(Date.UTC(2026, 10, 20, 12));
    const api = createApiClient({
      baseUrl: () => sim.url,
      getApiKey: async () => 'mint_bench_key',
      timeoutMs: () => 5_000,
      onRequest: () => requests.push(fake.now()),
    });
    sim.addFault({ fault: { kind: 'latency', ms: 0 }, times: 3, pathIncludes: '/visitors' });
    sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 3_600_000 }, times: 1, pathIncludes: '/visitors' });
    const kept = new ExportPages();
    let wait: { from: number; until: number } | undefined;
    const done = fetchExportPages(fetcherFor(api, 'visitors'), 'demo-project', { dateFrom: '2026-08-22', dateTo: '2026-11-18' }, kept, {
      signal: new AbortController().signal,
      grant: grantOf(100),
      clock: fake,
      onWait: (_, until) => (wait = { from: fake.now(), until }),
    });
    while (!wait || fake.pending === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const waitMs = wait.until - wait.from;
    const before = requests.length;
    // The wait, a second at a time: every request asked meanwhile is counted.
    for (let at = 0; at < waitMs - 1_000; at += 1_000) await fake.advance(1_000);
    const attempts = requests.length - before;
    await fake.advance(2_000);
    await done;
    return { waitMs, attemptsWhileWaiting: attempts, attemptsPerSecond: attempts / (waitMs / 1000), rows: kept.rows.length };
  } finally {
    await sim.close();
  }
}

export async function measureSoak(): Promise<SoakResult> {
  const runs: SoakRun[] = [];
  for (const count of SOAK_WINDOWS) runs.push(await soakDay(count, 47 + count));
  return { runs, exportWait: await exportThroughBadHeader() };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const minutes = (ms: number) => (ms < 60_000 ? `${(ms / 1000).toFixed(0)} s` : `${(ms / 60_000).toFixed(1)} min`);

export function soakLines(result: SoakResult | undefined): { figure: string; value: string }[] {
  if (!result) return [];
  return [
    ...result.runs.flatMap((run) => [
      {
        figure: `${run.windows} window(s), a day: writes per idle window-minute (goal ≤ ${60_000 / BEAT_MS}, one a beat)`,
        value: run.writesPerIdleMinute.toFixed(2),
      },
      {
        figure: `${run.windows} window(s), a day: bytes written per idle window-minute, first hour → last hour (${run.shared.jobs} jobs tracked meanwhile)`,
        value: `${kib(run.bytesPerIdleMinute.first)} → ${kib(run.bytesPerIdleMinute.last)} (file at the end: ${kib(run.shared.bytes)})`,
      },
      {
        figure: `${run.windows} window(s), a day: the hour's overshoot (requests past 100 in any hour; of them while no writer was told the count was uncertain), leaked, lost`,
        value: `${run.overshoot} (${run.overshootUntold}), ${run.leaked}, ${run.lost} (${run.sent} sent, ${run.faults} faults)`,
      },
      {
        figure: `${run.windows} window(s), a day: longest the hour's count stayed unknown; of it after the disk answered again`,
        value: `${minutes(run.longestUnknownMs)}; ${minutes(run.longestUnknownAfterRecoveryMs)}`,
      },
    ]),
    {
      figure: 'an export meeting Retry-After: 3600000 (a proxy’s milliseconds as seconds): its wait; requests while it waits',
      value: `${minutes(result.exportWait.waitMs)}; ${result.exportWait.attemptsWhileWaiting} (${result.exportWait.attemptsPerSecond.toFixed(4)} a second), then every row (${result.exportWait.rows})`,
    },
  ];
}

export function soakSection(result: SoakResult | undefined): string {
  if (!result) return '## 17. A day under faults\n\nNot measured in this run.\n';
  return `## 17. A day under faults: the shared state and the hour

**What it shows** (bench/soak.ts): ${SOAK_TEXT} Goals: writes ≤ one a beat per idle window (${60_000 / BEAT_MS} a minute);
bytes per idle window-minute flat as jobs accumulate; no request past the hour that no writer was told about; no leaked or
lost reservation; the count known again within a few beats of the disk answering; an export that meets a bad
\`Retry-After\` waits at most an hour and asks nothing meanwhile.

${soakLines(result)
  .map((line) => `- ${line.figure}: **${line.value}**`)
  .join('\n')}

Reproduce: \`node bench/build.mjs && node out/bench/run.js --soak-only\` (no VS Code; the seeds are fixed, so the figures repeat).
`;
}

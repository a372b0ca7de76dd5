// The team figure's own process (out/bench/team.js; see bench/team.ts): a team of machines
// (bench/teamMachine.ts) against one simulator on one simulated clock, day after day, counting what
// the simulator received. `Date` follows the simulated clock in this process, so every module that
// reads the time (the ledger, the gate, the snapshots' age, today's ranges) reads the simulated one.
//
//   node out/bench/team.js [--machines 1,3,10] [--writers-only]   (the result as JSON on stdout, progress on stderr;
//   --writers-only: the same days without any background work, what writers ask alone)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LARGE_SIGNALS } from '../test/simulator/signals';
import { startSimulator, type RecordedRequest } from '../test/simulator/server';
import { mulberry32 } from '../test/simulator/random';
import { SimulatedClock } from './simClock';
import { median } from './stats';
import { configureTeam, DESIGN, type MachineStorage, newStorage, type Outcome, SIGNALS_CHECK_EVERY_MS, TeamMachine } from './teamMachine';
import { TEAM_DAYS, TEAM_PATHS, TEAM_SIZES } from './team';
import type { KindCount, TeamResult, TeamRow } from './teamResult';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Midnight UTC starting Monday 2026-03-16: the first simulated day. */
const FIRST_DAY = Date.UTC(2026, 2, 16);
const PROJECT = 'demo-project';

type Kind = 'page shown (readers)' | 'signals refresh (background)' | 'Fetch Reader Signals' | 'Draw Trend (Last 30 days)' | 'Export Visitors (Last 90 days)';
const BACKGROUND: ReadonlySet<Kind> = new Set<Kind>(['page shown (readers)', 'signals refresh (background)']);

interface Done {
  kind: Kind;
  at: number;
  day: number;
  requests: RecordedRequest[];
  outcome: Outcome;
}

/** Makes Math.random a seeded sequence, so what the extension draws at random (a spread of times) is the same every run; returns the undo. */
function seedMathRandom(seed: number): () => void {
  const real = Math.random;
  Math.random = mulberry32(seed);
  return () => void (Math.random = real);
}

/** Makes `Date` (Date.now and `new Date()`) read `now`; returns the undo. */
function simulateDate(now: () => number): () => void {
  const Real = Date;
  class SimulatedDate extends Real {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(now());
      else super(...(args as [number]));
    }
    static override now(): number {
      return now();
    }
  }
  globalThis.Date = SimulatedDate as DateConstructor;
  return () => void (globalThis.Date = Real);
}

/** One team of `size` for TEAM_DAYS days; the row counts the last day. */
async function runTeam(size: number, log: (line: string) => void, writersOnly = false): Promise<TeamRow> {
  const began = performance.now();
  const clock = new SimulatedClock(FIRST_DAY + 8 * HOUR);
  const undoDate = simulateDate(clock.now);
  const undoRandom = seedMathRandom(size);
  const root = mkdtempSync(join(tmpdir(), 'mintlify-team-'));
  // Readers every day up to the last one simulated.
  const today = new Date(FIRST_DAY + (TEAM_DAYS - 1) * DAY).toISOString().slice(0, 10);
  const sim = await startSimulator({ projects: [PROJECT], pathCount: TEAM_PATHS, signals: LARGE_SIGNALS, now: clock.now, today, days: 120 });
  configureTeam(sim.url, PROJECT);
  // The pages writers open: any path the site's readers read in the last 30 days (the day's own range).
  const paths = sim
    .visitorsFor(PROJECT, { dateFrom: new Date(FIRST_DAY - 29 * DAY).toISOString().slice(0, 10), dateTo: new Date(FIRST_DAY + DAY).toISOString().slice(0, 10) })
    .visitors.map((v) => v.path);
  const done: Done[] = [];
  const storages = Array.from({ length: size }, () => newStorage());
  try {
    for (let day = 0; day < TEAM_DAYS; day++) {
      const midnight = FIRST_DAY + day * DAY;
      const machines: TeamMachine[] = [];
      for (let k = 0; k < size; k++) scheduleDay({ k, day, midnight, clock, root, storage: storages[k], paths, writersOnly }, machines, done, sim.requests);
      await clock.runUntil(midnight + 20 * HOUR);
      for (const machine of machines) machine.close();
      log(`  ${size} machine(s), day ${day + 1}: ${done.filter((d) => d.day === day).length} actions, ${sim.requests.length} requests so far`);
    }
    return count(
      size,
      done.filter((d) => d.day === TEAM_DAYS - 1),
      performance.now() - began,
    );
  } finally {
    await sim.close();
    undoDate();
    undoRandom();
    rmSync(root, { recursive: true, force: true });
  }
}

/** Machine k's day: its window opens, the writer works, the window closes. */
function scheduleDay(
  {
    k,
    day,
    midnight,
    clock,
    root,
    storage,
    paths,
    writersOnly,
  }: { k: number; day: number; midnight: number; clock: SimulatedClock; root: string; storage: MachineStorage; paths: readonly string[]; writersOnly: boolean },
  machines: TeamMachine[],
  done: Done[],
  requests: RecordedRequest[],
): void {
  const next = mulberry32(1_000 * (k + 1) + day);
  const between = (from: number, to: number) => from + next() * (to - from);
  const arrive = midnight + 9 * HOUR + between(0, 30) * MINUTE;
  const leave = midnight + 17 * HOUR + between(0, 30) * MINUTE;
  const options = { dir: join(root, `machine-${k}`), projectId: PROJECT, apiKey: `mint_team_machine_${k}`, clock, storage };
  let machine: TeamMachine | undefined;
  const at = (when: number, run: () => Promise<void>) => clock.setTimeout(() => void clock.track(run()), when - clock.now());
  const act = (when: number, kind: Kind, action: (m: TeamMachine) => Promise<Outcome | undefined>) =>
    at(when, async () => {
      if (!machine || (writersOnly && BACKGROUND.has(kind))) return;
      const first = requests.length;
      const startedAt = clock.now();
      const outcome = await action(machine);
      if (!outcome) return;
      let own = requests.slice(first).filter((r) => r.rawPath.startsWith('/v1/analytics/'));
      // An action that waited (an export across a 429) shared the clock with every other action meanwhile: its own requests are this machine's for its range.
      if (clock.now() > startedAt) {
        const { range } = outcome;
        if (!range) throw new Error(`${kind} outlasted its instant without saying which requests were its own`);
        own = own.filter((r) => r.authorization === `Bearer ${options.apiKey}` && r.query.dateFrom === range.dateFrom && r.query.dateTo === range.dateTo);
      }
      done.push({ kind, at: when, day, requests: own, outcome });
    });

  at(arrive, async () => {
    machine = await TeamMachine.start(options);
    machines.push(machine);
  });
  for (let t = arrive + between(2, 12) * MINUTE; t < leave; t += between(3, 12) * MINUTE) {
    const path = paths[Math.floor(next() * paths.length)];
    act(t, 'page shown (readers)', (m) => m.showPage(path));
  }
  const look = arrive + between(30, 150) * MINUTE;
  act(look, 'Fetch Reader Signals', (m) => m.fetchSignals());
  for (let t = look + SIGNALS_CHECK_EVERY_MS; t < leave; t += SIGNALS_CHECK_EVERY_MS) act(t, 'signals refresh (background)', (m) => m.signalsCheck());
  act(arrive + between(90, 300) * MINUTE, 'Draw Trend (Last 30 days)', (m) => m.drawTrend());
  act(arrive + between(180, 420) * MINUTE, 'Export Visitors (Last 90 days)', (m) => m.exportVisitors());
  at(leave, async () => {
    machine?.close();
    machine = undefined;
  });
}

function count(size: number, day: readonly Done[], wallMs: number): TeamRow {
  const all = day.flatMap((d) => d.requests).sort((a, b) => a.at - b.at);
  let busiest = { sent: 0, ok: 0, from: all[0]?.at ?? 0 };
  for (let i = 0, j = 0; i < all.length; i++) {
    while (j < all.length && all[j].at < all[i].at + HOUR) j++;
    if (j - i > busiest.sent) busiest = { sent: j - i, ok: all.slice(i, j).filter((r) => r.status === 200).length, from: all[i].at };
  }
  const thrown = (d: Done) => {
    const ok = d.requests.filter((r) => r.status === 200).length;
    return d.outcome.kept === 'all' ? 0 : d.outcome.kept === 'none' ? ok : Math.max(0, ok - d.outcome.kept);
  };
  const byKind: Record<string, KindCount> = {};
  for (const d of day) {
    const k = (byKind[d.kind] ??= { sent: 0, ok: 0, tooMany: 0, thrownAway: 0, actions: 0, asked: 0 });
    k.actions++;
    if (d.outcome.asked) k.asked++;
    k.sent += d.requests.length;
    k.ok += d.requests.filter((r) => r.status === 200).length;
    k.tooMany += d.requests.filter((r) => r.status === 429).length;
    k.thrownAway += thrown(d);
  }
  const pages = day.filter((d) => d.kind === 'page shown (readers)');
  const ages = pages.flatMap((d) => (d.outcome.figureFetchedAt === undefined ? [] : [d.at - d.outcome.figureFetchedAt]));
  const background = day.filter((d) => BACKGROUND.has(d.kind));
  // A 429 is caused by background work when what writers asked had, in the hour before it, been
  // answered fewer than 100 times: without the background's requests there would have been room.
  const askedOk = day.filter((d) => !BACKGROUND.has(d.kind)).flatMap((d) => d.requests.filter((r) => r.status === 200).map((r) => r.at));
  const causedByBackground = all.filter((r) => r.status === 429 && askedOk.filter((at) => at > r.at - HOUR && at <= r.at).length < 100).length;
  return {
    machines: size,
    busiestHour: busiest,
    sent: all.length,
    ok: all.filter((r) => r.status === 200).length,
    tooMany: all.filter((r) => r.status === 429).length,
    tooManyBackground: background.reduce((n, d) => n + d.requests.filter((r) => r.status === 429).length, 0),
    tooManyCausedByBackground: causedByBackground,
    thrownAway: day.reduce((n, d) => n + thrown(d), 0),
    thrownAwayBackground: background.reduce((n, d) => n + thrown(d), 0),
    pages: pages.length,
    pagesWithoutFigure: pages.length - ages.length,
    withoutFigureWhy: pages.reduce<Record<string, number>>(
      (why, d) => (d.outcome.figureFetchedAt === undefined && (why[d.outcome.note ?? 'none'] = (why[d.outcome.note ?? 'none'] ?? 0) + 1), why),
      {},
    ),
    figureAgeMaxMs: ages.length ? Math.max(...ages) : Number.NaN,
    figureAgeMedianMs: median(ages),
    byKind,
    wallMs,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--machines');
  const sizes = at >= 0 ? (args[at + 1] ?? '').split(',').map(Number) : [...TEAM_SIZES];
  if (!sizes.every((n) => Number.isInteger(n) && n >= 1 && n <= 50)) throw new Error('--machines takes team sizes from 1 to 50, such as 1,3,10');
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const writersOnly = args.includes('--writers-only');
  const result: TeamResult = { design: DESIGN, rows: [] };
  for (const size of sizes) result.rows.push(await runTeam(size, log, writersOnly));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`team figure failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);

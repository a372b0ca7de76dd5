// Figure 16, a team against the organisation's hour: N teammates' machines (1, 3, 10), each its own
// extension (its own shared-state folder, window, kept snapshots and signals), against one simulator
// that allows the organisation 100 analytics requests an hour across every key and answers the rest
// with 429s, through working days on a simulated clock. bench/teamDay.ts drives the day in its own
// process (built by bench/build.mjs as out/bench/team.js: there `Date` follows the simulated clock
// and `vscode` is bench/teamVscode.ts), through bench/teamMachine.ts, the one adapter to the
// extension's modules. This file runs that process, and words what it measured.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { TEAM_BASELINE } from './teamBaseline';
import type { TeamResult, TeamRow } from './teamResult';

export const TEAM_SIZES = [1, 3, 10] as const;
export const TEAM_PATHS = 10_000;
/** Days simulated; the figures are the last day's (the first is each machine's first day with the extension). */
export const TEAM_DAYS = 2;

export const TEAM_TEXT =
  `Each teammate's day (seeded, so machine k does the same in every row): the window opens between 09:00 and 09:30 and closes ` +
  `between 17:00 and 17:30 (simulated, UTC); a docs page is shown every 3 to 12 minutes (about 60 a day; the readers status ` +
  `item's fetch, background work); once a day, between 30 and 150 minutes after arriving, Fetch Reader Signals (asked), after ` +
  `which the Reader Signals view stays visible and checks every 5 minutes whether its hourly background refresh is due; the ` +
  `trend of Last 30 days (Draw) between 1.5 and 5 hours in; Export Visitors of Last 90 days between 3 and 7 hours in. The writer ` +
  `answers every question with its first button (the action, or "Fetch N": what fits). The site has ${TEAM_PATHS.toLocaleString('en')} paths and the ` +
  `large signals data (2,000 feedback items, 5,000 search terms, 20,000 assistant turns). Machines keep what they kept ` +
  `overnight (the window closes and opens again); the figures are day ${TEAM_DAYS}'s, counted at the simulator. An action runs ` +
  'to its end before the clock moves (its requests share its instant).';

/**
 * Runs the day in its own process (out/bench/team.js) and reads its JSON. `sizes`: the team sizes.
 * The process is bounded: it is stopped after `timeoutMs`.
 */
export function measureTeam(sizes: readonly number[] = TEAM_SIZES, timeoutMs = 10 * 60_000): TeamResult {
  const result = runDays(['--machines', sizes.join(',')], timeoutMs);
  const largest = Math.max(...sizes);
  return { ...result, writersOnly: runDays(['--machines', String(largest), '--writers-only'], timeoutMs).rows[0] };
}

/** One run of the figure's process (out/bench/team.js) with these arguments, bounded by `timeoutMs`. */
function runDays(args: readonly string[], timeoutMs: number): TeamResult {
  const script = join(__dirname, 'team.js');
  const run = spawnSync(process.execPath, [script, ...args], {
    env: { ...process.env, TZ: 'UTC' },
    encoding: 'utf8',
    timeout: timeoutMs,
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`the team figure's process ended with ${run.status ?? run.signal}`);
  return JSON.parse(run.stdout) as TeamResult;
}

const minutes = (ms: number) =>
  ms < 60_000 ? `${Math.round(ms / 1000)} s` : ms < 2 * 3_600_000 ? `${Math.round(ms / 60_000)} min` : `${(ms / 3_600_000).toFixed(1)} h`;
const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** The figure's lines in the summary table. */
export function teamLines(result: TeamResult | undefined): { figure: string; value: string }[] {
  const alone = result?.writersOnly;
  const floor = alone
    ? [
        {
          figure: `${alone.machines} machine(s), writers alone (no background work): busiest hour; 429s`,
          value: `${alone.busiestHour.sent} sent (${alone.busiestHour.ok} answered); ${alone.tooMany}`,
        },
      ]
    : [];
  return [...rowLines(result), ...floor];
}

function rowLines(result: TeamResult | undefined): { figure: string; value: string }[] {
  return (result?.rows ?? []).map((row) => ({
    figure: `${row.machines} machine(s): busiest hour; 429s (to background; caused by background); thrown away; figure age`,
    value: `${row.busiestHour.sent} sent (${row.busiestHour.ok} answered); ${row.tooMany} (${row.tooManyBackground}; ${row.tooManyCausedByBackground}); ${row.thrownAway}; max ${minutes(row.figureAgeMaxMs)}, median ${minutes(row.figureAgeMedianMs)}, ${row.pagesWithoutFigure} of ${row.pages} pages without one`,
  }));
}

const why = (reasons: Record<string, number>) => {
  const named = Object.entries(reasons).map(([reason, n]) => `${n} ${reason}`);
  return named.length ? ` (${named.join(', ')})` : '';
};

/** The table of one design's rows. */
export function teamTable(result: TeamResult): string {
  const head =
    '| machines | busiest hour: sent (answered), from | 429s (to background; caused by background) | answered but thrown away (background) | readers figure a writer sees: max / median age | pages without a figure | all day: sent / answered |';
  const line = (r: TeamRow) =>
    `| ${r.machines} | ${r.busiestHour.sent} (${r.busiestHour.ok}), ${clock(r.busiestHour.from)} | ${r.tooMany} (${r.tooManyBackground}; ${r.tooManyCausedByBackground}) | ${r.thrownAway} (${r.thrownAwayBackground}) | ${minutes(r.figureAgeMaxMs)} / ${minutes(r.figureAgeMedianMs)} | ${r.pagesWithoutFigure} of ${r.pages}${why(r.withoutFigureWhy)} | ${r.sent} / ${r.ok} |`;
  return `${head}\n|---|---|---|---|---|---|---|\n${result.rows.map(line).join('\n')}`;
}

/** Per kind of action, the largest team's requests. */
export function teamKinds(row: TeamRow): string {
  const head = '| action | actions (asked first) | sent | 200 | 429 | 200 thrown away |';
  const lines = Object.entries(row.byKind).map(([kind, k]) => `| ${kind} | ${k.actions} (${k.asked}) | ${k.sent} | ${k.ok} | ${k.tooMany} | ${k.thrownAway} |`);
  return `${head}\n|---|---|---|---|---|---|\n${lines.join('\n')}`;
}

/** The goal for the largest team, each part with what was measured: "busiest hour 132 (goal ≤ 100)". */
export function teamGoal(row: TeamRow): string {
  const parts = [
    [`busiest hour ${row.busiestHour.sent}`, row.busiestHour.sent <= 100, '≤ 100'],
    [`429s caused by background work ${row.tooManyCausedByBackground} (${row.tooManyBackground} answered to it)`, row.tooManyCausedByBackground === 0, '0'],
    [`answers thrown away ${row.thrownAway}`, row.thrownAway === 0, '0'],
    [
      `oldest figure ${minutes(row.figureAgeMaxMs)}, ${row.pagesWithoutFigure} of ${row.pages} pages without one`,
      row.figureAgeMaxMs <= 24 * 3_600_000 && row.pagesWithoutFigure === 0,
      'a figure on every page, ≤ 24 h old',
    ],
  ] as const;
  return parts.map(([measured, met, goal]) => `${measured} (goal ${goal}: ${met ? 'met' : 'missed'})`).join('; ');
}

/** The floor: the same days with no background work at all, so what no background rule can go below. */
function writersOnlyText(row: TeamRow | undefined): string {
  if (!row) return '';
  return `
**Writers alone**, the same days for ${row.machines} machines with no background work at all (no readers fetched for a page, no signals refresh: only the writers' Fetch Reader Signals, Draw Trend and Export), the floor no background rule can go below:

${teamTable({ design: 'writers alone', rows: [row] })}

Busiest hour ${row.busiestHour.sent} (goal ≤ 100: ${row.busiestHour.sent <= 100 ? 'met' : 'missed with no background work at all'}); ${row.tooMany} 429s, all to what writers asked. (No page is shown, so the figures' part of the goal does not apply.)
`;
}

export function teamSection(result: TeamResult | undefined): string {
  if (!result?.rows.length) return '## 16. A team against the organisation’s hour\n\nNot measured in this run.\n';
  const largest = result.rows[result.rows.length - 1];
  const baseline = TEAM_BASELINE.rows[TEAM_BASELINE.rows.length - 1];
  return `## 16. A team against the organisation’s hour

**What it shows** (bench/team.ts, bench/teamDay.ts, bench/teamMachine.ts): ${TEAM_TEXT} A 429 is "caused by background" when, in the hour before it, what writers asked had been answered fewer than
100 times (without the background's requests there would have been room). "Thrown away": answered 200 but
neither kept (a readers snapshot, the kept signals, a trend bucket) nor delivered (the export's file). A figure's age is
how long before the page was shown its snapshot was fetched. The goal for 10 machines: no hour over 100, no 429 caused by
background work, nothing thrown away, figures at most a day old.

**This build** (${result.design}):

${teamTable(result)}

Against the goal, ${largest.machines} machine(s): ${teamGoal(largest)}.
${writersOnlyText(result.writersOnly)}
**Baseline**, the same figure on the design before (${TEAM_BASELINE.design}; bench/teamBaseline.ts says where it was measured):

${teamTable(TEAM_BASELINE)}

Against the goal, ${baseline.machines} machine(s): ${teamGoal(baseline)}.

By action, ${largest.machines} machine(s), this build:

${teamKinds(largest)}

By action, ${baseline.machines} machine(s), baseline:

${teamKinds(baseline)}

Reproduce: \`node bench/build.mjs && node out/bench/run.js --team-only\` (no VS Code; about ${Math.ceil(result.rows.reduce((s, r) => s + r.wallMs, 0) / 60_000)} min of wall time here).
`;
}

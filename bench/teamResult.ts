// What figure 16 measures, one row per team size (bench/team.ts words it; bench/teamDay.ts
// measures it; bench/teamBaseline.ts keeps the design before as rows of the same shape).

/** One kind of action's requests over the measured day. */
export interface KindCount {
  /** Analytics requests the simulator received, answered 200, answered 429, and answered 200 but not kept. */
  sent: number;
  ok: number;
  tooMany: number;
  thrownAway: number;
  /** Actions of this kind, and how many asked the writer first. */
  actions: number;
  asked: number;
}

export interface TeamRow {
  machines: number;
  /** The most analytics requests the organisation sent in any 60 minutes of the day, with the 200s among them; when that hour began (ms). */
  busiestHour: { sent: number; ok: number; from: number };
  sent: number;
  ok: number;
  tooMany: number;
  /** 429s answered to background work (a page's readers, the signals' hourly refresh). */
  tooManyBackground: number;
  /** 429s caused by background work: in the hour before each, what writers asked had been answered fewer than 100 times. */
  tooManyCausedByBackground: number;
  thrownAway: number;
  thrownAwayBackground: number;
  /** Docs pages shown, and those whose status item showed no figure (held back, paused, failed). */
  pages: number;
  pagesWithoutFigure: number;
  /** Why, by what the readers said (HeldBackError, PausedError, rateLimited…). */
  withoutFigureWhy: Record<string, number>;
  /** Age of the figure each page showed (shown at minus fetched at), ms. */
  figureAgeMaxMs: number;
  figureAgeMedianMs: number;
  byKind: Record<string, KindCount>;
  /** Wall time of the whole run for this N (every day). */
  wallMs: number;
}

export interface TeamResult {
  design: string;
  rows: TeamRow[];
  /** The largest team's same days with no background work at all: what writers ask alone, the floor no background rule can go below. */
  writersOnly?: TeamRow;
}

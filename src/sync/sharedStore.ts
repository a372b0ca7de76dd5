// The shared store: one JSON file per window in a folder every window of the profile can see
// (globalStorageUri, on the machine that runs the extension hosts). A window writes only its own
// file, always whole and always atomically (temp file, then rename), holding everything it knows:
// its presence and the merged state. Reading means merging every file. Since no two windows ever
// write the same file there is no read-modify-write race to lose an update, and since the merge
// keeps every change (syncState.ts), the order in which windows see each other does not matter.
// Files of windows that closed or died are removed once their state is in ours (a newer version's
// file only by a window of that version: see parse). What the files hold is described once, in
// sharedSchema.ts and syncState.ts; how a file is written safely, in atomicWrite.ts. No vscode import.
//
// Faults are part of the contract (test/faults/ drives them by a seeded schedule). Every operation
// may fail or pass its deadline (the window's glue bounds each: windowReplica.ts). What each means:
//   write   this window's changes stay in memory and go with the next write that succeeds (the
//           heartbeat's, every few seconds); until then `lastWriteOk` is false.
//   list    the read fails whole: nothing is merged, `lastReadWhole` is false.
//   read    a file that cannot be read (not a missing one) keeps what was last merged of it, and the
//           read is not whole: a reservation read back so is not counted (hourAccount.ts). After an
//           hour out of reach it no longer holds the count unknown: whatever it held has left the
//           hour, and a window whose file stays unreadable that long is taken for gone (logged).
//   remove  a dead window's file that cannot be removed (read-only, locked, or a newer version's,
//           which only a window of that version may collect) is remembered with its text and not
//           merged again while it stays the same: an idle window never writes because of it.
//   rename  a damaged file that cannot be set aside is remembered the same way (warned once).
import * as z from 'zod/mini';
import { HOUR_MS } from '../util/clock';
import { Lease, type Presence } from './lease';
import { Presence as PresenceSchema, SCHEMA_VERSION } from './sharedSchema';
import { emptyState, HybridClock, KNOWN_AREAS, mergeState, pruneState, type SyncState, SyncStateSchema } from './syncState';

/** The folder's operations; names are plain file names inside it. Each rejects when it fails. */
export interface SyncFs {
  list(): Promise<string[]>;
  /** undefined when the file does not exist (any more); a file that exists and cannot be read rejects. */
  read(name: string): Promise<string | undefined>;
  /** Writes a temp file and renames it over `name`, so readers see the old or the new file whole. */
  writeAtomic(name: string, text: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(name: string): Promise<void>;
}

export interface SyncLog {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * What a reader must understand to read a file at all: a file of a higher format is skipped whole.
 * Raised only for a change an older version cannot read; adding an area or a field raises
 * SCHEMA_VERSION instead (sharedSchema.ts), which older versions read, keep and write back.
 */
const FORMAT = 1;
const FILE = /^w-[\w.-]+\.json$/;
/** How often a read that merged nothing still prunes (a request leaving the hour is news): the heartbeat's pace. */
const PRUNE_EVERY_MS = 5_000;

/** A window's file. Its presence is that window's own (not carried); its state is parsed by SyncStateSchema, or area by area when newer. */
const ReplicaFile = z.looseObject({
  format: z.number(),
  schema: z._default(z.number(), 1),
  presence: PresenceSchema,
  state: z.record(z.string(), z.unknown()),
});

interface ReadFile {
  presence: Presence;
  state: SyncState;
  /** Written by a version that knows areas or fields this one does not. */
  newer: boolean;
}

/** Each area's text, to tell which areas a read changed. */
function areaTexts(state: SyncState): Map<string, string | undefined> {
  return new Map(Object.entries(state).map(([area, value]) => [area, JSON.stringify(value)]));
}

/** What a read of every window's file found. */
interface ReadResult {
  /** The areas the read changed (a newer version's included). */
  changed: string[];
  /** Every file was listed and read (or found gone): what the state holds is every window's. */
  whole: boolean;
}

export function fileOf(window: string): string {
  return `w-${window}.json`;
}

export class SharedStore {
  state: SyncState = emptyState();
  readonly clock: HybridClock;
  readonly lease: Lease;
  readonly presence: Presence;
  /** The text last read from each other window's file, so an unchanged file is not parsed again. */
  private readonly lastText = new Map<string, string>();
  /** The files a newer version wrote: read, never set aside, and never removed by this window (it may not carry all they hold). */
  private readonly newer = new Set<string>();
  /**
   * Files this window is done with but could not remove or set aside (a dead window's file that is
   * read-only or a newer version's; a damaged file that cannot be moved), with the text they had:
   * skipped while it stays the same, so they are neither merged nor written about again.
   */
  private readonly retired = new Map<string, string>();
  /** Files whose reads fail, since when: warned about once, until they can be read again. */
  private readonly unreadable = new Map<string, number>();
  /** The state changed since the last write of our file began (a merge or a change of ours), or it was never written. */
  private unwritten = true;
  /** The last write of our file that was tried failed. */
  private lastWriteFailed = false;
  /** When the state was last pruned. */
  private prunedAt = Number.NEGATIVE_INFINITY;
  /** The last write of our file succeeded (none yet: false). */
  lastWriteOk = false;
  /** The last read listed and read every file (none yet: false). */
  lastReadWhole = false;
  /** The API address whose trends are kept (the others' are forgotten); all while undefined. */
  apiBaseUrl: string | undefined;
  private writeChain: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  private seq = 0;
  private writesDone = 0;

  constructor(
    private readonly fs: SyncFs,
    readonly window: string,
    private readonly log: SyncLog,
    private readonly now: () => number = Date.now,
  ) {
    this.clock = new HybridClock(window, now);
    this.lease = new Lease(now);
    const at = now();
    this.presence = { window, project: null, focused: false, beat: 0, beatAt: at, since: at };
  }

  /** How many writes of our file have succeeded: a caller can tell whether one did since it last looked. */
  get writes(): number {
    return this.writesDone;
  }

  /** A fresh id for a ledger entry written by this window. */
  nextEntryId(): string {
    return `${this.window}.${++this.seq}`;
  }

  /**
   * Reads every other window's file and merges it in. Returns true when the state changed.
   * Damaged files are set aside (renamed, never deleted) with a warning.
   */
  async refresh(): Promise<boolean> {
    return (await this.refreshAreas()).changed.length > 0;
  }

  /** refresh(), saying which areas the read changed and whether it was whole; rejects when the folder cannot be listed. */
  async refreshAreas(): Promise<ReadResult> {
    // Taken before the first change of this read: a read that finds nothing new costs no serialising.
    let before: Map<string, string | undefined> | undefined;
    // lastReadWhole says what the last read that ended found: a read under way leaves it as it was
    // (an account consulted meanwhile must not see a healthy folder as uncertain).
    let listed: string[];
    try {
      listed = await this.fs.list();
    } catch (error) {
      this.lastReadWhole = false;
      throw error;
    }
    const names = listed.filter((n) => FILE.test(n) && n !== fileOf(this.window));
    const present = new Set<string>();
    let whole = true;
    for (const gone of [this.retired, this.unreadable]) for (const name of gone.keys()) if (!names.includes(name)) gone.delete(name);
    for (const name of names) {
      let text: string | undefined;
      try {
        text = await this.fs.read(name);
      } catch (error) {
        // What was merged of it stays; the read is not whole (see the header), for an hour at most.
        const since = this.unreadable.get(name) ?? this.now();
        if (!this.unreadable.has(name)) this.log.warn(`${name} could not be read (${String(error)}); what was read of it before is kept`);
        this.unreadable.set(name, since);
        if (this.now() - since <= HOUR_MS) {
          whole = false;
          if (this.lastText.has(name)) present.add(name);
        }
        continue;
      }
      if (this.unreadable.delete(name)) this.log.info(`${name} can be read again`);
      if (text === undefined) continue;
      if (this.retired.get(name) === text) continue;
      this.retired.delete(name);
      if (this.lastText.get(name) === text) {
        present.add(name);
        continue;
      }
      const file = this.parse(name, text);
      if (file === 'damaged') {
        await this.setAside(name, text);
        continue;
      }
      if (!file) continue;
      this.lastText.set(name, text);
      if (file.newer) this.newer.add(name);
      else this.newer.delete(name);
      present.add(name);
      this.lease.observe(file.presence);
      this.clock.observe(file.state);
      before ??= areaTexts(this.state);
      this.state = mergeState(this.state, file.state, this.now());
    }
    for (const name of this.lastText.keys()) {
      if (present.has(name)) continue;
      this.lastText.delete(name);
      this.newer.delete(name);
    }
    // Only now, with every file merged (see pruneState); when nothing was merged, once a beat (what expires, expires).
    if (before || this.now() - this.prunedAt >= PRUNE_EVERY_MS) {
      before ??= areaTexts(this.state);
      pruneState(this.state, { now: this.now(), apiBaseUrl: this.apiBaseUrl });
      this.prunedAt = this.now();
    }
    const after = before && areaTexts(this.state);
    const changed = before && after ? [...new Set([...before.keys(), ...after.keys()])].filter((area) => before.get(area) !== after.get(area)) : [];
    if (changed.length) this.unwritten = true;
    this.lastReadWhole = whole;
    await this.collectDead(present);
    return { changed, whole };
  }

  /** Applies a change made in this window and writes our file. */
  update(change: (state: SyncState) => void): Promise<void> {
    change(this.state);
    this.unwritten = true;
    return this.write();
  }

  /** Writes our presence with the next beat (and whatever else changed). */
  beat(changes: Partial<Pick<Presence, 'project' | 'focused' | 'closed'>> = {}): Promise<void> {
    Object.assign(this.presence, changes, { beat: this.presence.beat + 1, beatAt: this.now() });
    return this.write();
  }

  /**
   * Writes our file with the current state. Writes run one at a time; a write asked for while one
   * runs joins the next one, which carries everything changed meanwhile. A failure reaches every
   * caller of that write (each logs it, or lets it go through util/background.ts, which does).
   */
  write(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.writeChain.then(async () => {
      this.queued = undefined;
      this.unwritten = false;
      const text = JSON.stringify({ format: FORMAT, schema: SCHEMA_VERSION, presence: this.presence, state: this.state });
      try {
        await this.fs.writeAtomic(fileOf(this.window), text);
      } catch (error) {
        this.lastWriteOk = false;
        this.lastWriteFailed = true;
        this.unwritten = true;
        throw error;
      }
      this.lastWriteOk = true;
      this.lastWriteFailed = false;
      this.writesDone++;
    });
    this.queued = next;
    // The chain only orders the writes: a failed one does not stop the next.
    this.writeChain = next.catch(() => undefined);
    return next;
  }

  private parse(name: string, text: string): ReadFile | 'damaged' | undefined {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return 'damaged';
    }
    const format = (json as { format?: unknown } | null)?.format;
    if (typeof format === 'number' && format > FORMAT) {
      // A version that changed the format in a way this one cannot read: not ours to judge or move.
      if (this.lastText.get(name) !== text) this.log.warn(`${name} is in a newer format (${format}); this window skips it`);
      this.lastText.set(name, text);
      return undefined;
    }
    const file = z.safeParse(ReplicaFile, json);
    if (!file.success) return 'damaged';
    const { presence, schema, state } = file.data;
    if (schema <= SCHEMA_VERSION) {
      const parsed = z.safeParse(SyncStateSchema, state);
      return parsed.success ? { presence, state: parsed.data, newer: false } : 'damaged';
    }
    // A newer version's file: every area this one knows is taken in (with the fields it does not
    // know), every other area is carried as it is; an area it cannot read is left out, never "repaired".
    const read: Record<string, unknown> = {};
    for (const [area, value] of Object.entries(state)) {
      const known = KNOWN_AREAS.get(area);
      if (!known) {
        read[area] = value;
        continue;
      }
      const parsed = z.safeParse(known, value);
      if (parsed.success) read[area] = parsed.data;
      else if (this.lastText.get(name) !== text)
        this.log.warn(`${name} (schema ${schema}) holds an area "${area}" this window cannot read; it is left out here and kept in that file`);
    }
    return { presence, state: { ...emptyState(), ...read }, newer: true };
  }

  /**
   * The install's salt: the lowest of the one every window already agreed on and `installSalt`
   * (kept by this install outside the files), or a fresh one when there is neither. Written to
   * our file when it changes, so every window converges on the same salt.
   */
  async adoptSalt(installSalt: string | undefined, fresh: () => string): Promise<string> {
    const salt = mergeState(this.state, { ...emptyState(), salt: installSalt ?? this.state.salt ?? fresh() }).salt!;
    if (salt !== this.state.salt) await this.update((state) => (state.salt = salt));
    return salt;
  }

  private async setAside(name: string, text: string): Promise<void> {
    const aside = `${name}.damaged-${this.now()}`;
    try {
      await this.fs.rename(name, aside);
      this.log.warn(`${name} in the shared store could not be read; it is kept as ${aside} and the other windows' data is used`);
    } catch (error) {
      // Not parsed, nor warned about, again while it stays as it is.
      this.retired.set(name, text);
      this.log.warn(`${name} in the shared store could not be read or set aside (${String(error)}); it is left as it is and skipped while it stays so`);
    }
  }

  /**
   * Removes the files of windows that closed or died, once our file holds their state. One that
   * stays (a newer version's, or one that cannot be removed) is retired: skipped while unchanged.
   */
  private async collectDead(present: Set<string>): Promise<void> {
    const dead = this.lease.deadWindows().filter((w) => present.has(fileOf(w)));
    // While our file cannot be written their files stay: the heartbeat tries again, once a beat.
    if (!dead.length || this.lastWriteFailed) return;
    if (this.unwritten) await this.write();
    else await this.writeChain;
    if (!this.lastWriteOk) return;
    for (const window of dead) {
      const name = fileOf(window);
      const text = this.lastText.get(name);
      // A newer version's file is left for a window of that version to collect.
      let removed = false;
      if (!this.newer.has(name)) {
        try {
          await this.fs.remove(name);
          removed = true;
        } catch (error) {
          this.log.info(`${name} of a closed window could not be removed (${String(error)}); it is skipped while it stays as it is`);
        }
      }
      if (!removed && text !== undefined) this.retired.set(name, text);
      this.lastText.delete(name);
      this.newer.delete(name);
      this.lease.forget(window);
    }
  }
}

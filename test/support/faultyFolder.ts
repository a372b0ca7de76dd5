// A shared-store folder that misbehaves on purpose: the fault layer of test/faults/ and of the
// benchmark's soak. It holds its files in memory (whole files, atomic rename, as the disk's road
// does) and, while a schedule is set, each operation may fail at once, or land only after the
// replica's deadline has passed: a little (slow) or a minute later (stall; a disk that hangs for good
// holds the count unknown for good, rightly). A late write lands over whatever was written since: the
// stale write a slow disk really makes. Which operation meets which fault comes from a
// seeded generator, so a failing run replays. Files can be made unremovable (read-only, locked) or
// unreadable. It counts every write that lands, per file, with its bytes.
import type { SyncFs } from '../../src/sync/sharedStore';
import type { Clock } from '../../src/util/clock';

export type FaultKind = 'fail' | 'stall' | 'slow';
export type Operation = keyof SyncFs;

export interface FaultSchedule {
  /** The chance that an operation meets a fault (0–1). */
  rate: number;
  kinds: readonly FaultKind[];
  /** The operations that may meet one (all when left out). */
  operations?: readonly Operation[];
  /** How late a slow operation lands (past the replica's 5 s deadline by default). */
  slowMs?: number;
  /** How late a stalled one lands. */
  stallMs?: number;
}

/** A small seeded generator (xorshift32), so a failing schedule replays. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** One window's way into the folder: its operations, and the faults they meet (none while `schedule` is undefined). */
export interface FolderView {
  schedule: FaultSchedule | undefined;
  readonly fs: SyncFs;
}

export class FaultyFolder {
  readonly files = new Map<string, string>();
  /** Files that cannot be removed or renamed. */
  readonly fixed = new Set<string>();
  /** Files that exist and cannot be read (a read fails; a list still names them). */
  readonly unreadable = new Set<string>();
  /** Writes that landed, and their bytes, per file. */
  readonly writes = new Map<string, number>();
  readonly bytes = new Map<string, number>();
  /** Called after each write lands (the file watcher every window has). */
  onWrite: (name: string) => void = () => undefined;
  /** Faults met so far, by kind. */
  readonly met: Record<FaultKind, number> = { fail: 0, stall: 0, slow: 0 };

  constructor(
    private readonly clock: Pick<Clock, 'setTimeout'>,
    private readonly random: () => number = seeded(1),
  ) {}

  /** The folder's operations as one window sees them, with that window's own schedule of faults. */
  view(): FolderView {
    const view: FolderView = { schedule: undefined, fs: this.fs(() => view.schedule) };
    return view;
  }

  private fs(schedule: () => FaultSchedule | undefined): SyncFs {
    const run = <T>(operation: Operation, act: () => T) => this.run(schedule(), operation, act);
    return {
      list: () => run('list', () => [...this.files.keys()]),
      read: (name) =>
        run('read', () => {
          if (this.unreadable.has(name) && this.files.has(name)) throw new Error(`EACCES: ${name} cannot be read`);
          return this.files.get(name);
        }),
      writeAtomic: (name, text) =>
        run('writeAtomic', () => {
          this.files.set(name, text);
          this.writes.set(name, (this.writes.get(name) ?? 0) + 1);
          this.bytes.set(name, (this.bytes.get(name) ?? 0) + text.length);
          this.onWrite(name);
        }),
      rename: (from, to) =>
        run('rename', () => {
          const text = this.files.get(from);
          if (text === undefined) throw new Error(`ENOENT: ${from}`);
          if (this.fixed.has(from)) throw new Error(`EPERM: ${from} cannot be moved`);
          this.files.delete(from);
          this.files.set(to, text);
        }),
      remove: (name) =>
        run('remove', () => {
          if (this.fixed.has(name)) throw new Error(`EPERM: ${name} cannot be removed`);
          this.files.delete(name);
        }),
    };
  }

  private run<T>(schedule: FaultSchedule | undefined, operation: Operation, act: () => T): Promise<T> {
    const fault = this.faultFor(schedule, operation);
    if (!fault) return new Promise<T>((resolve) => resolve(act()));
    this.met[fault]++;
    if (fault === 'fail') return Promise.reject(new Error(`EIO: ${operation} failed`));
    const late = fault === 'stall' ? (schedule?.stallMs ?? 60_000) : (schedule?.slowMs ?? 6_000);
    return new Promise<T>((resolve, reject) => {
      this.clock.setTimeout(() => {
        try {
          resolve(act());
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      }, late);
    });
  }

  private faultFor(schedule: FaultSchedule | undefined, operation: Operation): FaultKind | undefined {
    if (!schedule || (schedule.operations && !schedule.operations.includes(operation))) return undefined;
    if (this.random() >= schedule.rate) return undefined;
    return schedule.kinds[Math.floor(this.random() * schedule.kinds.length)];
  }
}
